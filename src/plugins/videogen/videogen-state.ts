import { inject, injectable } from 'inversify';
import { BehaviorSubject, type Observable } from 'rxjs';
import { API, LIMITS, MSG, nearestVideoRatio, type Material, type PromptGroup, type PromptSuggestion, type VideoEngines, type VideoRecord } from '../../contract';
import {
  DeletionFlow, GenerationFormScreen, RemoteStore, TIMINGS, TOKENS, type ScreenServices,
} from '../../core';
import { PresetsState } from './presets-state';
import { emptyForm, formFromRecord, formProblem, pickRandom, recommendCount, submitParams, toggleWord, type VideoForm, type VideoKind } from './videogen-view';

export const VideoGenStateToken = Symbol.for('videogen.State');

export type PromptPanel = 'words' | 'presets' | null;
export type PictureField = 'image' | 'imageTail';

/** A picture's size as the browser decodes it (undefined without a browser, or when it does not load: the ratio stays). */
function browserPictureSize(url: string): Promise<{ width: number; height: number } | undefined> {
  if (typeof Image === 'undefined') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight });
    img.onerror = () => resolve(undefined);
    img.src = url;
  });
}

/** Makes the state of each open video generation screen. */
@injectable()
export class VideoGenState {
  constructor(@inject(TOKENS.ScreenServices) private readonly services: ScreenServices) {}

  /** One screen's state, from its open until `closed$` emits or it is disposed (a reopened screen starts afresh). */
  open(kind: VideoKind, closed$?: Observable<unknown>): VideoGenScreen {
    return new VideoGenScreen(kind, this.services, closed$);
  }
}

/**
 * /store/wsVideo or /store/tsVideo (part 2 §2.9, §4, §5): the form, the engines, the history (asked again every
 * TIMINGS.generationPollMs while open), the record shown, the confirm-then-submit (a leading 1 s throttle, then
 * LIMITS.createDebounceMs), delete; the word bank, the recommendations, the presets and the material picker.
 */
export class VideoGenScreen extends GenerationFormScreen<VideoForm> {
  readonly engines: RemoteStore<VideoEngines>;
  readonly history: RemoteStore<VideoRecord[]>;
  /** The record chosen (or just made); the preview falls back to the newest finished one. */
  readonly selectedId$ = new BehaviorSubject<number | null>(null);
  readonly deletion: DeletionFlow<VideoRecord>;

  readonly panel$ = new BehaviorSubject<PromptPanel>(null);
  readonly words: RemoteStore<PromptGroup[]>;
  readonly recommends: RemoteStore<PromptSuggestion[]>;
  /** The recommendations drawn from the list (again on each 换一批). */
  readonly shown$ = new BehaviorSubject<PromptSuggestion[]>([]);
  readonly presets: PresetsState;

  /** Which picture the material picker fills, or null while it is closed. */
  readonly picking$ = new BehaviorSubject<PictureField | null>(null);
  readonly materials: RemoteStore<Material[]>;

  /** Reads a chosen picture's size (a spec may give its own). */
  pictureSize = browserPictureSize;
  private debounce: ReturnType<typeof setTimeout> | null = null;

  constructor(
    readonly kind: VideoKind,
    private readonly s: ScreenServices,
    closed$?: Observable<unknown>,
  ) {
    super(emptyForm(), s.notifier);
    const { api } = s;
    this.engines = new RemoteStore((signal) => api.call(API.videogen.engine, {}, { silent: true, signal }));
    this.history = new RemoteStore(async (signal) => (await api.call(API.videogen.list, { type: kind, page: 1, limit: 0 }, { silent: true, signal })).list, {
      poll: { polling: s.polling, intervalMs: TIMINGS.generationPollMs, keepGoing: () => true },
    });
    this.deletion = new DeletionFlow(s.notifier, (r) => api.call(API.videogen.remove, { id: r.id }), (r) => {
      if (r.id === this.selectedId$.value) this.selectedId$.next(null);
      this.history.reload();
    });
    this.words = new RemoteStore(async (signal) => (await api.call(API.videogen.prompts, {}, { silent: true, signal })).list);
    this.recommends = new RemoteStore(async (signal) => (await api.call(API.videogen.recommend, { type: kind }, { silent: true, signal })).list);
    this.materials = new RemoteStore(async (signal) => (await api.call(API.material.list, { type: 'image', source: 0, page: 1, limit: 200 }, { silent: true, signal })).list);
    this.presets = new PresetsState(api, s.notifier);

    let drawnFrom: PromptSuggestion[] | undefined;
    this.life.add(
      this.recommends.remote$.subscribe(() => {
        const list = this.recommends.value;
        if (!list || list === drawnFrom) return;
        drawnFrom = list;
        this.shuffle();
      }),
    );
    this.life.add(() => this.debounce && clearTimeout(this.debounce));
    this.ownUntil(closed$, [this.engines, this.history, this.words, this.recommends, this.materials, this.presets]);

    this.engines.reload();
    this.history.reload();
    this.recommends.reload();
  }

  /** The engine of this screen once known (`proOpen`: 高品质 may be chosen). */
  get proOpen(): boolean {
    return this.engines.value?.[this.kind].pro === 1;
  }

  /** 高品质 while closed says it is under maintenance instead. */
  chooseMode(mode: VideoForm['mode']): void {
    if (mode === 'pro' && !this.proOpen) return this.s.notifier.warn(MSG.highQualityMaintenance);
    this.patch({ mode });
  }

  pickWord(group: PromptGroup, word: string): void {
    this.patch({ chosen: toggleWord(this.form.chosen, group, word) });
  }

  dropWord(word: string): void {
    this.patch({ chosen: this.form.chosen.filter((w) => w !== word) });
  }

  /** The form's first problem; 高品质 while closed says it is under maintenance. */
  protected problem(): string | null {
    const problem = formProblem(this.kind, this.form, this.engines.value?.[this.kind].engine ?? null);
    if (problem) return problem;
    return this.form.mode === 'pro' && !this.proOpen ? MSG.highQualityMaintenance : null;
  }

  /** Confirmed: sent after LIMITS.createDebounceMs (a second confirm restarts the wait); a failure keeps the form. */
  submit(): void {
    this.confirming$.next(false);
    const params = submitParams(this.kind, this.form);
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      this.submitting$.next(true);
      this.s.api
        .call(API.videogen.create, params)
        .then((made) => {
          this.s.notifier.success('已提交，生成完成后会出现在历史记录中');
          this.selectedId$.next(made.id);
          this.history.reload();
          void this.s.auth.refreshProfile().catch(() => undefined);
        })
        .catch(() => undefined)
        .finally(() => this.submitting$.next(false));
    }, LIMITS.createDebounceMs);
  }

  /** A finished record is shown and refills the form. */
  choose(record: VideoRecord): void {
    this.selectedId$.next(record.id);
    this.form$.next(formFromRecord(record));
    this.s.notifier.info('已回填该记录的描述词和参数');
  }

  toggleWords(): void {
    const opening = this.panel$.value !== 'words';
    this.panel$.next(opening ? 'words' : null);
    if (opening) this.words.reload();
  }

  openPresets(): void {
    this.panel$.next('presets');
    this.presets.open(this.form.content);
  }

  closePresets(): void {
    this.panel$.next(null);
    this.presets.close();
  }

  usePreset(content: string): void {
    this.patch({ content });
    this.closePresets();
  }

  shuffle(): void {
    this.shown$.next(pickRandom(this.recommends.value ?? [], recommendCount(this.kind)));
  }

  openPicker(field: PictureField): void {
    this.picking$.next(field);
    this.materials.reload();
  }

  closePicker(): void {
    this.picking$.next(null);
  }

  pickMaterial(url: string): void {
    const field = this.picking$.value;
    if (field) this.setPicture(field, url);
    this.closePicker();
  }

  /**
   * A picture chosen (uploaded or from the library). The first frame (or the reference) also sets the ratio to the
   * nearest of its own shape (issue 33: a portrait cropped to 16:9 lost its head); another ratio may be chosen after.
   */
  setPicture(field: PictureField, url: string): void {
    this.patch({ [field]: url });
    if (field !== 'image' || !url) return;
    void this.pictureSize(url).then(
      (size) => size && this.form.image === url && this.patch({ ratio: nearestVideoRatio(size.width, size.height) }),
      () => undefined,
    );
  }

}
