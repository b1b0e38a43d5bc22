/**
 * The multi-scene draft and its actions, shared by the /multiples panel and the palette: scenes, auditions (per
 * scene, cached while the scene is unchanged), the checks and the submission (then points refresh and the works page
 * opens on the multi-scene list). The draft lives here, so it survives closing the panel.
 */
import { inject, injectable } from 'inversify';
import { BehaviorSubject, Subject, combineLatest, distinctUntilChanged, map, type Observable } from 'rxjs';
import { API, MSG, type MultiSceneChannel } from '../../../contract';
import { DraftStore, TOKENS, leadingGate, runBusyItem, speakAudition, type ScreenServices, TIMINGS } from '../../../core';
import {
  MULTI_DRAFT_KEY, hasUnsavedText, multiDraftRules, addScene, auditionRequest, buildSubmission, cachedAudition, canAddScene, draftProblem, emptyDraft, sceneCountExceeded, sceneId,
  setSceneAudition, worksQuery, type MultiDraft, type SceneType,
} from './scenes';

export const MultiplesStateToken = Symbol.for('creation.multiples.State');
export const MULTIPLES_ROUTE = '/multiples';
export const WORKS_ROUTE = '/works';

@injectable()
export class MultiplesState {
  readonly draft$ = new BehaviorSubject<MultiDraft>(emptyDraft());
  /** Scenes whose audition is being synthesized. */
  readonly auditioning$ = new BehaviorSubject<ReadonlySet<string>>(new Set());
  readonly submitting$ = new BehaviorSubject(false);
  /** The scene the last check stopped at; outlined until that scene changes. */
  readonly flagged$ = new BehaviorSubject<string | null>(null);
  /** A scene to bring into view (just added, or stopped a check). */
  readonly reveal$ = new Subject<string>();
  /** A scene's audition to play now (just finished, or asked for again unchanged). */
  readonly play$ = new Subject<{ sceneId: string; url: string }>();
  /** The draft last submitted, while it is still the one shown. */
  private readonly submitted$ = new BehaviorSubject<MultiDraft | null>(null);
  /** The channel that lip-syncs the avatar scenes and its price (undefined: not known yet; null: none is enabled). */
  readonly channel$ = new BehaviorSubject<MultiSceneChannel | null | undefined>(undefined);
  /** Text typed and not submitted (closing the tab asks first). */
  readonly unsaved$: Observable<boolean>;
  private readonly drafts: DraftStore<MultiDraft>;
  private readonly gate: () => boolean;
  private readonly disposed$ = new Subject<void>();

  constructor(@inject(TOKENS.ScreenServices) private readonly s: ScreenServices) {
    this.gate = leadingGate(TIMINGS.submitThrottleMs);
    // The draft outlives the page and a reload; it is dropped after a successful submission.
    this.drafts = new DraftStore(s.storage, MULTI_DRAFT_KEY, multiDraftRules);
    const stored = this.drafts.load();
    if (stored) this.draft$.next(stored);
    this.draft$.subscribe((draft) => draft !== this.submitted$.value && this.drafts.save(draft));
    this.unsaved$ = combineLatest([this.draft$, this.submitted$]).pipe(map(([d, sent]) => d !== sent && hasUnsavedText(d)), distinctUntilChanged());
  }

  /** Asks which channel renders multi-scene works (each time the page opens: an operator may have changed it). */
  async loadChannel(): Promise<void> {
    try {
      this.channel$.next((await this.s.api.call(API.works.videoChannel, {}, { silent: true })).multi ?? null);
    } catch {
      /* unknown until the next opening: nothing is priced meanwhile */
    }
  }

  get draft(): MultiDraft {
    return this.draft$.value;
  }

  update(change: (draft: MultiDraft) => MultiDraft): void {
    const previous = this.draft$.value;
    const next = change(previous);
    if (next === previous) return;
    const flagged = this.flagged$.value;
    if (flagged !== null) {
      const before = previous.scenes.find((s) => s.id === flagged);
      const after = next.scenes.find((s) => s.id === flagged);
      if (before !== after || previous.outputMode !== next.outputMode) this.flagged$.next(null);
    }
    this.draft$.next(next);
  }

  /** Appends a scene like the last one and brings it into view; null at the scene limit (with the message). */
  addScene(type: SceneType): string | null {
    if (!canAddScene(this.draft)) {
      this.s.notifier.warn(sceneCountExceeded);
      return null;
    }
    const id = sceneId();
    this.update((d) => addScene(d, type, id));
    this.reveal$.next(id);
    return id;
  }

  /**
   * Plays a text scene: its cached audition when the scene is unchanged, else a new one (audition, then a poll every
   * 3 s until 3 = play and keep url + file_id, or 4 = 声音合成失败，请重新尝试).
   */
  async audition(id: string): Promise<void> {
    const scene = this.draft.scenes.find((s) => s.id === id);
    if (!scene || this.auditioning$.value.has(id)) return;
    const cached = cachedAudition(scene);
    if (cached) {
      this.play$.next({ sceneId: id, url: cached.url });
      return;
    }
    const asked = auditionRequest(scene);
    if (!asked.ok) {
      this.s.notifier.warn(asked.message);
      return;
    }
    await runBusyItem(this.auditioning$, id, async () => {
      const job = await speakAudition(this.s.api, this.s.polling, asked.request, this.disposed$);
      if (!job) {
        this.s.notifier.error(MSG.auditionFailed);
        return;
      }
      this.update((d) => setSceneAudition(d, id, { key: asked.key, url: job.url, file_id: job.file_id }));
      // Played only if the scene still says what was synthesized.
      const now = this.draft.scenes.find((s) => s.id === id);
      if (now && cachedAudition(now)?.url === job.url) this.play$.next({ sceneId: id, url: job.url });
    });
  }

  /**
   * Checks the draft (the first problem is shown and its scene outlined), then submits it; on success the points
   * refresh, 提交成功 shows and the works page opens on the multi-scene video or audio list. On failure the server's
   * message shows (the API client's toast). Resolves true when submitted.
   */
  async submit(): Promise<boolean> {
    if (this.submitting$.value) return false;
    // The palette's 提交合成 too: with no lip-sync channel enabled nothing can render.
    if (this.channel$.value === null) {
      this.s.notifier.warn(MSG.multiSceneNoChannel);
      return false;
    }
    const draft = this.draft;
    const problem = draftProblem(draft);
    if (problem) {
      this.s.notifier.warn(problem.message);
      if (problem.sceneId) {
        this.flagged$.next(problem.sceneId);
        this.reveal$.next(problem.sceneId);
      }
      return false;
    }
    if (!this.gate()) return false;
    this.submitting$.next(true);
    try {
      await this.s.api.call(API.works.multi, buildSubmission(draft));
    } catch {
      return false;
    } finally {
      this.submitting$.next(false);
    }
    // What was sent stays on screen for another variant; it is no longer a draft until it is edited.
    this.submitted$.next(draft);
    this.drafts.clear();
    void this.s.auth.refreshProfile().catch(() => undefined);
    this.s.notifier.success(MSG.submitSucceeded);
    this.s.navigation.navigate(WORKS_ROUTE, worksQuery(draft.outputMode));
    return true;
  }

  /** Stops auditions in flight (tests; the workbench keeps the service for the page's life). */
  dispose(): void {
    this.disposed$.next();
  }
}
