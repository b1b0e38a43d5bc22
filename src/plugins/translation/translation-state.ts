import { BehaviorSubject, type Observable } from 'rxjs';
import { API, MSG, TranslationMode, type CallResponse, type TranslationModeValue } from '../../contract';
import {
  OpenScreen, RemoteStore, TIMINGS, runBusy, screenStates, type ScreenServices, type UploadedFile,
} from '../../core';
import { submitProblem } from './translation-view';

export const TranslationStateToken = Symbol.for('translation.State');

/** Where the translated videos are: 我的作品 · 翻译视频. */
export const WORKS = { route: '/works', query: { type1: 0, type2: 3 } };

/**
 * /store/sea (part 2 §2.7, §8): the uploaded video, the two languages and the mode; the languages (with whether
 * speech recognition is there and the prices); the five latest translations, asked again every TIMINGS.worksPollMs
 * while one is in progress; submit.
 */
export class TranslationScreen extends OpenScreen {
  readonly video$ = new BehaviorSubject<UploadedFile | null>(null);
  readonly uploading$ = new BehaviorSubject(false);
  /** A new upload box after each submit (the last video is gone from it). */
  readonly uploadRound$ = new BehaviorSubject(0);
  readonly source$ = new BehaviorSubject('');
  readonly target$ = new BehaviorSubject('');
  readonly mode$ = new BehaviorSubject<TranslationModeValue>(TranslationMode.LipSync);
  readonly submitting$ = new BehaviorSubject(false);
  readonly langs: RemoteStore<CallResponse<typeof API.translation.languages>>;
  readonly recent: RemoteStore<CallResponse<typeof API.translation.list>>;

  constructor(
    private readonly s: ScreenServices,
    closed$?: Observable<unknown>,
  ) {
    super();
    this.langs = new RemoteStore((signal) => s.api.call(API.translation.languages, {}, { silent: true, signal }));
    this.recent = new RemoteStore((signal) => s.api.call(API.translation.list, { page: 1, limit: 5 }, { silent: true, signal }), {
      poll: { polling: s.polling, intervalMs: TIMINGS.worksPollMs, keepGoing: (v) => (v.generate ?? 0) > 0 },
    });
    this.ownAndLoad(closed$, [this.langs, this.recent]);
  }

  /** 提交翻译: the first thing missing is said; a refusal only ends the loader (part 2 §8), the form stays. */
  async start(): Promise<boolean> {
    if (this.submitting$.value) return false;
    const video = this.video$.value;
    const form = { source: this.source$.value, target: this.target$.value, mode: this.mode$.value };
    const problem = submitProblem({ fileId: video?.file_id, ...form });
    if (problem) {
      this.s.notifier.error(problem);
      return false;
    }
    // Failures only close the loader (part 2 §8): the call is silent.
    const params = { file_id: video!.file_id, source_lang: form.source, target_lang: form.target, mode: form.mode };
    if (!(await runBusy(this.submitting$, () => this.s.api.call(API.translation.submit, params, { silent: true })))) return false;
    this.s.notifier.success(MSG.submitSucceeded);
    this.video$.next(null);
    this.uploadRound$.next(this.uploadRound$.value + 1);
    this.recent.reload();
    void this.s.auth.refreshProfile().catch(() => undefined);
    return true;
  }

  openWorks(): void {
    this.s.navigation.navigate(WORKS.route, WORKS.query);
  }

}

/** Makes the state of each open /store/sea screen (`open(closed$)`). */
export const TranslationState = screenStates({ open: TranslationScreen });
export type TranslationState = InstanceType<typeof TranslationState>;
