import { BehaviorSubject, debounceTime, map, skip } from 'rxjs';
import { API, LIMITS, MSG, type UserPreset } from '../../contract';
import { DeletionFlow, OpenScreen, RemoteStore, runBusy, type ApiClient, type Notifier } from '../../core';

/**
 * 我的预设 (part 2 §2.9): the list, searched by keyword (settled after LIMITS.presetSearchDebounceMs), asked for while
 * the dialog is open; a new preset's title and content (the prompt as it was when the dialog opened); delete.
 */
export class PresetsState extends OpenScreen {
  readonly open$ = new BehaviorSubject(false);
  readonly keyword$ = new BehaviorSubject('');
  /** The keyword the list was asked with. */
  readonly search$ = new BehaviorSubject('');
  readonly list: RemoteStore<UserPreset[]>;
  readonly title$ = new BehaviorSubject('');
  readonly content$ = new BehaviorSubject('');
  readonly saving$ = new BehaviorSubject(false);
  readonly deletion: DeletionFlow<UserPreset>;

  constructor(
    private readonly api: ApiClient,
    private readonly notifier: Notifier,
  ) {
    super();
    this.list = new RemoteStore(async (signal) => (await api.call(API.videogen.presets, { keyword: this.search$.value }, { silent: true, signal })).list);
    this.deletion = new DeletionFlow(notifier, (p) => api.call(API.videogen.presetRemove, { id: p.id }), () => this.list.reload());
    this.life.add(
      this.keyword$.pipe(skip(1), map((k) => k.trim()), debounceTime(LIMITS.presetSearchDebounceMs)).subscribe((search) => {
        if (search === this.search$.value) return;
        this.search$.next(search);
        if (this.open$.value) this.list.reload();
      }),
    );
    this.ownUntil(undefined, [this.list]);
  }

  /** Opens the dialog with `current` (the prompt) as the new preset's content. */
  open(current: string): void {
    this.content$.next(current);
    this.title$.next('');
    this.open$.next(true);
    this.list.reload();
  }

  close(): void {
    this.open$.next(false);
  }

  async save(): Promise<boolean> {
    const content = this.content$.value.trim();
    if (!content) {
      this.notifier.warn(MSG.presetContentRequired);
      return false;
    }
    const title = this.title$.value;
    // A title typed and cleared again is refused as the spec says; an untouched title saves the content alone.
    const saved = await runBusy(this.saving$, () => this.api.call(API.videogen.presetSave, { ...(title ? { title } : {}), content }));
    if (!saved) return false;
    this.notifier.success('预设已保存');
    this.title$.next('');
    this.list.reload();
    return true;
  }
}
