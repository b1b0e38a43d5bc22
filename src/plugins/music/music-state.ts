/**
 * The AI music screen's state, one per open screen (made by MusicState.open): the form, the engine and its price,
 * my tasks (asked again while one is being made), the library, the confirm-then-generate behind the submit throttle,
 * and each task's actions that go through the server (rename, delete, save to material, 用作背景音乐).
 */
import { BehaviorSubject, type Observable } from 'rxjs';
import { API, LIMITS, MSG, type CallResponse, type MusicTask, type MusicTrack } from '../../contract';
import { DeletionFlow, GenerationFormScreen, RemoteStore, TIMINGS, runBusy, screenStates, type ScreenServices } from '../../core';
import { EMPTY_MUSIC_FORM, formProblem, type MusicForm } from './music-view';

export const MusicStateToken = Symbol.for('music.State');

type TaskPage = CallResponse<typeof API.music.myTask>;

export class MusicScreen extends GenerationFormScreen<MusicForm> {
  readonly engine: RemoteStore<CallResponse<typeof API.music.engine>>;
  readonly tasks: RemoteStore<TaskPage>;
  readonly library: RemoteStore<MusicTrack[]>;
  readonly busy$ = new BehaviorSubject(false);
  /** The task whose waveform and player show (null: the newest done one). */
  readonly chosenId$ = new BehaviorSubject<number | null>(null);
  readonly renaming$ = new BehaviorSubject<MusicTask | null>(null);
  readonly deletion: DeletionFlow<MusicTask>;

  constructor(
    private readonly s: ScreenServices,
    closed$?: Observable<unknown>,
  ) {
    super(EMPTY_MUSIC_FORM, s.notifier);
    const { api } = s;
    this.engine = new RemoteStore((signal) => api.call(API.music.engine, {}, { silent: true, signal }));
    this.tasks = new RemoteStore((signal) => api.call(API.music.myTask, { page: 1, limit: 50 }, { silent: true, signal }), {
      poll: { polling: s.polling, intervalMs: TIMINGS.generationPollMs, keepGoing: (v) => (v.generate ?? 0) > 0 },
    });
    this.library = new RemoteStore(async (signal) => (await api.call(API.music.library, {}, { silent: true, signal })).list);
    this.deletion = new DeletionFlow(s.notifier, (t) => api.call(API.music.remove, { id: t.id }), () => this.reloadLists());
    this.ownAndLoad(closed$, [this.engine, this.tasks, this.library]);
  }

  /** 生成音乐 asks first that the engine is there, then about the form. */
  protected problem(): string | null {
    return this.engine.value?.engine ? formProblem(this.form) : MSG.musicEngineMissing;
  }

  /** Confirmed: the task appears in 我的音乐 and is followed there; the form stays for another go. */
  async generate(): Promise<boolean> {
    const { title, prompt, instrumental, lyrics } = this.form;
    let id = 0;
    const ok = await this.sendConfirmed(async () => {
      id = (await this.s.api.call(API.music.create, { title: title.trim(), prompt: prompt.trim(), instrumental, lyrics: instrumental ? '' : lyrics.trim() })).id;
    });
    if (!ok) return false;
    this.s.notifier.success(MSG.submitSucceeded);
    this.chosenId$.next(id);
    this.tasks.reload();
    void this.s.auth.refreshProfile().catch(() => undefined);
    return true;
  }

  choose(task: MusicTask): void {
    this.chosenId$.next(task.id);
  }

  async rename(task: MusicTask, name: string): Promise<boolean> {
    const ok = await runBusy(this.busy$, () => this.s.api.call(API.music.rename, { id: task.id, name }));
    if (ok) {
      this.s.notifier.success(MSG.renameSucceeded);
      this.reloadLists();
    }
    return ok;
  }

  async saveToMaterial(task: MusicTask): Promise<void> {
    if (await runBusy(this.busy$, () => this.s.api.call(API.music.save, { id: task.id }))) this.s.notifier.success(MSG.savedToMaterial);
  }

  /** 用作背景音乐 (or 取消): the track then shows in every music picker. */
  async toggleBackground(task: MusicTask): Promise<void> {
    const background = task.background ? 0 : 1;
    if (await runBusy(this.busy$, () => this.s.api.call(API.music.background, { id: task.id, background }))) {
      this.s.notifier.success(background ? MSG.musicBackgroundOn : MSG.musicBackgroundOff);
      this.reloadLists();
    }
  }

  private reloadLists(): void {
    this.tasks.reload();
    this.library.reload();
  }
}

/** Opens one music screen's state a panel (`open(closed$)`). */
export const MusicState = screenStates({ open: MusicScreen });
export type MusicState = InstanceType<typeof MusicState>;

export const PROMPT_MAX = LIMITS.music.promptMaxChars;
