/**
 * One-click creation's state, one per open screen (OneclickState.open): the form (script, avatar, voice, aspect,
 * storyboard, subtitles, music), the lists it picks from, the project it is saved as (autosaved a moment after each
 * change, so a reload finds it), the storyboard's edits, the price estimate, the submit, and the history.
 */
import { BehaviorSubject, debounceTime, skip, type Observable } from 'rxjs';
import {
  API, AvatarStatus, MSG, PhotoType, VoiceStatus, kindAt, mergeScenes, proposeStoryboard, splitScene, storyboardPrice,
  type Avatar, type CallResponse, type ChannelApi, type Material, type MusicTrack, type OneclickProject, type Photo, type StoryScene, type VideoChannel, type Voice,
} from '../../contract';
import { DeletionFlow, OpenScreen, RemoteStore, TIMINGS, leadingGate, runBusy, screenStates, takeOneclickText, type ScreenServices } from '../../core';
import { OneclickAssist } from './oneclick-assist';
import { AUTOSAVE_MS, EDIT_ROUTE, EMPTY_FORM, SUBTITLE_PRESETS, coverScene, formOfDraft, startProblem, submitProblem, type OneclickForm } from './oneclick-view';

export const OneclickStateToken = Symbol.for('oneclick.State');

export type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

export class OneclickScreen extends OpenScreen {
  readonly form$ = new BehaviorSubject<OneclickForm>(EMPTY_FORM);
  readonly projectId$ = new BehaviorSubject<number | null>(null);
  readonly save$ = new BehaviorSubject<SaveState>('idle');
  readonly submitting$ = new BehaviorSubject(false);
  readonly avatars: RemoteStore<Avatar[]>;
  /** Photo-speak pictures (person), mine and public: 照片数字人. */
  readonly photos: RemoteStore<Photo[]>;
  readonly voices: RemoteStore<Voice[]>;
  readonly pictures: RemoteStore<Material[]>;
  readonly music: RemoteStore<MusicTrack[]>;
  readonly channels: RemoteStore<VideoChannel[]>;
  /** 生成文案 and 生成配图, when the engines are there. */
  readonly assist: OneclickAssist;
  private readonly gate = leadingGate(TIMINGS.submitThrottleMs);
  private loadedId = 0;

  constructor(
    private readonly s: ScreenServices,
    closed$?: Observable<unknown>,
  ) {
    super();
    const { api } = s;
    const quiet = { silent: true } as const;
    this.avatars = new RemoteStore(async (signal) => {
      const [mine, open] = await Promise.all([api.call(API.avatars.list, { page: 1, limit: 100 }, { ...quiet, signal }), api.call(API.avatars.publicList, { page: 1, limit: 100 }, { ...quiet, signal })]);
      return [...mine.list, ...open.hlist, ...open.slist].filter((a) => (a.status ?? AvatarStatus.Ready) === AvatarStatus.Ready);
    });
    this.photos = new RemoteStore(async (signal) => {
      const person = { type: PhotoType.Person, page: 1, limit: 0 } as const;
      const [mine, open] = await Promise.all([api.call(API.photo.list, { ...person, source: 1 }, { ...quiet, signal }), api.call(API.photo.list, { ...person, source: 2 }, { ...quiet, signal })]);
      return [...mine.list, ...open.list];
    });
    this.voices = new RemoteStore(async (signal) => {
      const [open, mine] = await Promise.all([api.call(API.voices.list, { source: 2, page: 1, limit: 100 }, { ...quiet, signal }), api.call(API.voices.list, { source: 1, page: 1, limit: 100 }, { ...quiet, signal })]);
      return [...open.list, ...mine.list].filter((v) => v.generate_status === VoiceStatus.Ready);
    });
    this.pictures = new RemoteStore(async (signal) => (await api.call(API.material.list, { page: 1, limit: 100, type: 'image' }, { ...quiet, signal })).list);
    this.music = new RemoteStore(async (signal) => (await api.call(API.music.library, {}, { ...quiet, signal })).list);
    this.channels = new RemoteStore(async (signal) => (await api.call(API.works.videoChannel, {}, { ...quiet, signal })).list);
    const stores = [this.avatars, this.photos, this.voices, this.pictures, this.music, this.channels];
    for (const store of stores) store.reload();
    this.assist = new OneclickAssist(s, this);
    // Autosave: a moment after the last change of a form that belongs to a project; until then it says it has changes.
    this.life.add(this.form$.pipe(skip(1)).subscribe(() => this.save$.next('idle')));
    this.life.add(this.form$.pipe(skip(1), debounceTime(AUTOSAVE_MS)).subscribe(() => void this.saveNow()));
    this.ownUntil(closed$, [...stores, this.assist]);
  }

  get form(): OneclickForm {
    return this.form$.value;
  }

  patch(change: Partial<OneclickForm>): void {
    this.form$.next({ ...this.form, ...change });
  }

  /** A script another tool handed on (super replica's 一键成片) becomes the start screen's script. */
  takeHandOff(): void {
    const text = takeOneclickText(this.s.storage);
    if (text) this.patch({ script: text });
  }

  /** Opens project `id` (the storyboard's ?id=), once per id. */
  async load(id: number): Promise<void> {
    if (!(id > 0) || id === this.loadedId) return;
    this.loadedId = id;
    try {
      const project = await this.s.api.call(API.oneclick.draft, { id });
      this.projectId$.next(project.id);
      this.form$.next(formOfDraft(project.draft, project.name));
      this.save$.next('saved');
    } catch {
      this.loadedId = 0;
    }
  }

  /** 生成分镜: the script cut into the proposed storyboard, saved as a new project, opened in the storyboard editor. */
  async propose(): Promise<void> {
    const problem = startProblem(this.form);
    if (problem) return this.s.notifier.warn(problem);
    const voice = this.voices.value?.find((v) => v.id === this.form.user_voice_id);
    this.projectId$.next(null);
    this.patch({ scenes: proposeStoryboard(this.form.script, voice?.rate ?? 1) });
    const id = await this.saveNow();
    if (id) this.s.navigation.navigate(EDIT_ROUTE, { id });
  }

  /** Saves the form as its project's draft (a new project when it has none); answers the project's id. */
  async saveNow(): Promise<number | null> {
    const form = this.form;
    if (!form.scenes.length && !this.projectId$.value) return null;
    this.save$.next('saving');
    try {
      const { id } = await this.s.api.call(API.oneclick.saveDraft, { id: this.projectId$.value ?? undefined, name: form.name.trim(), draft: JSON.stringify(form) }, { silent: true });
      this.projectId$.next(id);
      this.loadedId = id;
      // A change made while this one was on its way is saved by the next autosave: not 'saved' yet.
      if (this.form === form) this.save$.next('saved');
      return id;
    } catch {
      this.save$.next('failed');
      return null;
    }
  }

  // ---- the storyboard's edits

  private scenes(next: StoryScene[]): void {
    this.patch({ scenes: next });
  }

  patchScene(index: number, change: Partial<StoryScene>): void {
    this.scenes(this.form.scenes.map((s, i) => (i === index ? { ...s, ...change } : s)));
  }

  move(index: number, by: -1 | 1): void {
    const to = index + by;
    const list = [...this.form.scenes];
    if (to < 0 || to >= list.length) return;
    [list[index], list[to]] = [list[to]!, list[index]!];
    this.scenes(list);
  }

  split(index: number): void {
    this.scenes(splitScene(this.form.scenes, index));
  }

  merge(index: number): void {
    this.scenes(mergeScenes(this.form.scenes, index));
  }

  remove(index: number): void {
    this.scenes(this.form.scenes.filter((_, i) => i !== index));
  }

  /** The proposal's kinds again (avatar first and last, B-roll between), pictures kept. */
  resetKinds(): void {
    const n = this.form.scenes.length;
    this.scenes(this.form.scenes.map((s, i) => ({ ...s, kind: kindAt(i, n) })));
  }

  /** The estimate shown before submit: avatar seconds at the channel's price, B-roll at the multi-scene rate. */
  estimate(form = this.form): { credits: number; seconds: number } | null {
    const channel = this.channels.value?.find((c) => c.api === form.api);
    if (!channel || !form.scenes.length) return null;
    const voice = this.voices.value?.find((v) => v.id === form.user_voice_id);
    const price = storyboardPrice(form.scenes, channel.credits, voice?.rate ?? 1);
    return { credits: price.credits, seconds: price.avatarSeconds + price.brollSeconds };
  }

  /** 生成视频: one click a throttle window; the work then renders on /works (tab 一键成片). */
  async submit(): Promise<boolean> {
    if (!this.gate()) return false;
    const problem = submitProblem(this.form);
    if (problem) {
      this.s.notifier.warn(problem);
      return false;
    }
    await this.saveNow();
    const f = this.form;
    const { label: _, ...look } = SUBTITLE_PRESETS[f.subtitle_style];
    const ok = await runBusy(this.submitting$, () =>
      this.s.api.call(API.oneclick.create, {
        name: f.name.trim(), user_voice_id: f.user_voice_id, ...(f.photo_id ? { photo_id: f.photo_id } : { video_id: f.video_id }), api: f.api as ChannelApi, aspect: f.aspect, subtitles: f.subtitles, ...look, title_card: f.title_card.trim(),
        bgm_id: f.bgm_id || undefined, bgm_volume: f.bgm_volume, scenes: JSON.stringify(f.scenes), project_id: this.projectId$.value ?? undefined, cover_scene: coverScene(f),
      }),
    );
    if (!ok) return false;
    this.s.notifier.success(MSG.submitAlert);
    void this.s.auth.refreshProfile().catch(() => undefined);
    this.s.navigation.navigate('/works', { type1: 0, type2: 5 });
    return true;
  }

}

type HistoryPage = CallResponse<typeof API.oneclick.history>;

export class HistoryScreen extends OpenScreen {
  readonly history: RemoteStore<HistoryPage>;
  readonly deletion: DeletionFlow<OneclickProject>;

  constructor(
    private readonly s: ScreenServices,
    closed$?: Observable<unknown>,
  ) {
    super();
    this.history = new RemoteStore((signal) => s.api.call(API.oneclick.history, { page: 1, limit: 100 }, { silent: true, signal }));
    this.deletion = new DeletionFlow(s.notifier, (p) => s.api.call(API.oneclick.remove, { id: p.id }), () => this.history.reload());
    this.ownAndLoad(closed$, [this.history]);
  }

  open(project: OneclickProject): void {
    this.s.navigation.navigate(EDIT_ROUTE, { id: project.id });
  }
}

/** Opens the start/edit screen's state (`open`) and the history's (`openHistory`). */
export const OneclickState = screenStates({ open: OneclickScreen, openHistory: HistoryScreen });
export type OneclickState = InstanceType<typeof OneclickState>;
