import { inject, injectable } from 'inversify';
import { BehaviorSubject, combineLatest, distinctUntilChanged, EMPTY, interval, map, switchMap, type Observable } from 'rxjs';
import { API, LIMITS, MSG, type CallResponse, type ImageRecord, type PromptSuggestion } from '../../contract';
import {
  DeletionFlow, GenerationFormScreen, RemoteStore, TIMINGS, TOKENS, runBusy, type ScreenServices,
} from '../../core';
import { EMPTY_FORM, formOf, imageFileName, pickPrompts, previewedRecord, type ImageForm } from './imagegen-view';
import { saveImage } from './save-image';

export const ImageGenStateToken = Symbol.for('imagegen.State');

const NONE: PromptSuggestion[] = [];

/** Hands a stored picture to the browser's download under a name (save-image.ts; a spec passes its own). */
export type SaveFile = (url: string, fileName: string) => Promise<void>;

type Services = ScreenServices & { saveFile: SaveFile };

/** Makes the state of each open text-to-image screen. */
@injectable()
export class ImageGenState {
  constructor(@inject(TOKENS.ScreenServices) private readonly core: ScreenServices) {}

  /** One screen's state, from its open until `closed$` emits or it is disposed (a reopened screen starts afresh). */
  open(closed$?: Observable<unknown>, saveFile: SaveFile = saveImage): ImageGenScreen {
    return new ImageGenScreen({ ...this.core, saveFile }, closed$);
  }
}

/**
 * /store/wsImage (part 2 §2.8, §4, §5, §9): the form, three suggested prompts (drawn again on 换一换), the engine,
 * the history (asked again every TIMINGS.generationPollMs while open), the confirm-then-generate behind a 1 s
 * throttle, the record previewed and its carousel (turns every LIMITS.carouselMs unless paused), download, save to
 * material, delete.
 */
export class ImageGenScreen extends GenerationFormScreen<ImageForm> {
  readonly engine: RemoteStore<CallResponse<typeof API.imagegen.engine>>;
  readonly prompts: RemoteStore<PromptSuggestion[]>;
  readonly records: RemoteStore<ImageRecord[]>;
  readonly suggestions$ = new BehaviorSubject<PromptSuggestion[]>([]);
  /** The reference picture is uploading (generate waits for it). */
  readonly uploading$ = new BehaviorSubject(false);
  readonly saving$ = new BehaviorSubject(false);
  readonly deletion: DeletionFlow<ImageRecord>;
  /** The record chosen; the preview falls back to the newest finished one. */
  readonly chosenId$ = new BehaviorSubject<number | null>(null);
  readonly previewed$ = new BehaviorSubject<ImageRecord | undefined>(undefined);
  /** The carousel's picture (0 again for another record) and whether the pointer holds it. */
  readonly slide$ = new BehaviorSubject(0);
  readonly paused$ = new BehaviorSubject(false);

  constructor(
    private readonly s: Services,
    closed$?: Observable<unknown>,
  ) {
    super(EMPTY_FORM, s.notifier);
    const { api } = s;
    this.engine = new RemoteStore((signal) => api.call(API.imagegen.engine, {}, { silent: true, signal }));
    this.prompts = new RemoteStore(async (signal) => (await api.call(API.imagegen.prompts, { type: 'text' }, { silent: true, signal })).list);
    this.records = new RemoteStore(async (signal) => (await api.call(API.imagegen.list, { type: 'text', page: 1, limit: LIMITS.historyLimit }, { silent: true, signal })).list, {
      poll: { polling: s.polling, intervalMs: TIMINGS.generationPollMs, keepGoing: () => true },
    });
    this.deletion = new DeletionFlow(s.notifier, (r) => api.call(API.imagegen.remove, { id: r.id }), () => this.records.reload());

    this.life.add(this.prompts.remote$.pipe(map(() => this.prompts.value ?? NONE), distinctUntilChanged()).subscribe(() => this.shuffle()));
    this.life.add(combineLatest([this.records.remote$, this.chosenId$]).subscribe(() => this.previewed$.next(previewedRecord(this.records.value ?? [], this.chosenId$.value))));
    this.life.add(this.previewed$.pipe(map((r) => r?.id), distinctUntilChanged()).subscribe(() => this.slide$.next(0)));
    this.life.add(
      combineLatest([this.previewed$.pipe(map((r) => r?.url.length ?? 0), distinctUntilChanged()), this.paused$])
        .pipe(switchMap(([count, paused]) => (count < 2 || paused ? EMPTY : interval(LIMITS.carouselMs).pipe(map(() => count)))))
        .subscribe((count) => this.slide$.next((this.slide$.value + 1) % count)),
    );
    this.ownAndLoad(closed$, [this.engine, this.prompts, this.records]);
  }

  get configured(): boolean {
    return this.engine.value?.configured === 1;
  }

  /** 换一换: another three suggestions. */
  shuffle(): void {
    this.suggestions$.next(pickPrompts(this.prompts.value ?? []));
  }

  /** 立即生成 needs a description. */
  protected problem(): string | null {
    return this.form.text.trim() ? null : MSG.promptRequired;
  }

  /** Confirmed: the confirmation closes either way; a failure keeps the form, a success shows the newest record. */
  async generate(): Promise<boolean> {
    const { text, ratio, num, image } = this.form;
    const ok = await this.sendConfirmed(() => this.s.api.call(API.imagegen.create, { type: 'text', text: text.trim(), ratio, num, image: image || undefined }));
    if (!ok) return false;
    this.s.notifier.success('已提交，图片生成后会显示在生成记录中');
    this.chosenId$.next(null);
    this.records.reload();
    void this.s.auth.refreshProfile().catch(() => undefined);
    return true;
  }

  /** A finished record is previewed and refills the form with its settings. */
  choose(record: ImageRecord): void {
    this.form$.next(formOf(record));
    this.chosenId$.next(record.id);
  }

  /** The carousel: a picture, the previous or the next one. */
  showSlide(index: number): void {
    this.slide$.next(index);
  }

  async download(record: ImageRecord, indexes: number[]): Promise<void> {
    try {
      for (const i of indexes) await this.s.saveFile(record.url[i]!, imageFileName(record.text, i, record.url[i]!));
      this.s.notifier.success(MSG.downloadSucceededTool);
    } catch {
      this.s.notifier.error(MSG.downloadFailedTool);
    }
  }

  async saveToMaterial(record: ImageRecord, index: number): Promise<void> {
    if (await runBusy(this.saving$, () => this.s.api.call(API.imagegen.save, { id: record.id, index }))) this.s.notifier.success(MSG.savedToMaterial);
  }

}
