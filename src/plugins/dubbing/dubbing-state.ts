/**
 * The dubbing studio's project and its actions, shared by the panel and the palette: the draft (kept in local
 * storage, so it survives closing the page), each line's preview (the voices' audition, cached while the line and its
 * role are unchanged), the generation (checks first, then the call; the history picks the record up), and the
 * history's actions that go through the server (save to the material library, then 用于创作).
 */
import { inject, injectable } from 'inversify';
import { BehaviorSubject, Subject, map, type Observable } from 'rxjs';
import { API, MSG, type DubbingRecord } from '../../contract';
import { DraftStore, TOKENS, TIMINGS, leadingGate, runBusyItem, speakAudition, type ScreenServices } from '../../core';
import { DUB_DRAFT_KEY, buildRequest, dubDraftRules, dubProblem, emptyDubDraft, hasUnsavedText, lineItem, previewKey, spokenLines, type DubDraft } from './dub-draft';

export const DubbingStateToken = Symbol.for('dubbing.State');
export const DUBBING_ROUTE = '/store/dubbing/index';

@injectable()
export class DubbingState {
  readonly draft$ = new BehaviorSubject<DubDraft>(emptyDubDraft());
  /** Lines whose preview is being synthesized (by preview key). */
  readonly previewing$ = new BehaviorSubject<ReadonlySet<string>>(new Set());
  readonly submitting$ = new BehaviorSubject(false);
  /** The line the last check stopped at, outlined until it changes. */
  readonly flagged$ = new BehaviorSubject<string | null>(null);
  /** A preview to play now: its key and url. */
  readonly play$ = new Subject<{ key: string; url: string }>();
  /** A dub was submitted: the history reloads and follows it. */
  readonly submitted$ = new Subject<number>();
  readonly unsaved$: Observable<boolean>;
  /** Finished previews by key (their files live a day on the server; the page's life is shorter). */
  private readonly previews = new Map<string, string>();
  /** Material-library audio made from each dub, so 用于创作 twice saves once. */
  private readonly savedAudio = new Map<number, number>();
  private readonly drafts: DraftStore<DubDraft>;
  private readonly gate = leadingGate(TIMINGS.submitThrottleMs);
  private readonly disposed$ = new Subject<void>();

  constructor(@inject(TOKENS.ScreenServices) private readonly s: ScreenServices) {
    this.drafts = new DraftStore(s.storage, DUB_DRAFT_KEY, dubDraftRules);
    const stored = this.drafts.load();
    if (stored) this.draft$.next(stored);
    this.draft$.subscribe((draft) => this.drafts.save(draft));
    this.unsaved$ = this.draft$.pipe(map(hasUnsavedText));
  }

  get draft(): DubDraft {
    return this.draft$.value;
  }

  update(change: (draft: DubDraft) => DubDraft): void {
    const next = change(this.draft);
    if (next === this.draft) return;
    this.flagged$.next(null);
    this.draft$.next(next);
  }

  /** The finished preview of a line as it is now, if any. */
  previewOf(key: string): string | undefined {
    return this.previews.get(key);
  }

  /** Plays a line: its cached preview, else a new audition polled every 3 s until done (played) or failed. */
  async preview(lineId: string): Promise<void> {
    const line = spokenLines(this.draft).find((l) => l.id === lineId);
    if (!line) return;
    const key = previewKey(line);
    const cached = this.previews.get(key);
    if (cached) return this.play$.next({ key, url: cached });
    if (this.previewing$.value.has(key)) return;
    if (!line.role.voice || !line.text) return this.s.notifier.warn(MSG.auditionNeedsTextAndVoice);
    await runBusyItem(this.previewing$, key, async () => {
      const { voice_id, text, rate, volume, pitch, emotion } = lineItem(line, false);
      const job = await speakAudition(this.s.api, this.s.polling, { voice_id: voice_id!, text, rate, volume, pitch, ...(emotion ? { emotion } : {}) }, this.disposed$);
      if (!job) return this.s.notifier.error(MSG.auditionFailed);
      this.previews.set(key, job.url);
      this.play$.next({ key, url: job.url });
    });
  }

  /** Checks the project (the first problem shows, its line outlined), then generates it. Resolves the new id. */
  async generate(): Promise<number | null> {
    if (this.submitting$.value) return null;
    const problem = dubProblem(this.draft);
    if (problem) {
      this.s.notifier.warn(problem.message);
      this.flagged$.next(problem.lineId);
      return null;
    }
    if (!this.gate()) return null;
    this.submitting$.next(true);
    try {
      const { id } = await this.s.api.call(API.dubbing.create, buildRequest(this.draft));
      this.s.notifier.success(MSG.submitSucceeded);
      void this.s.auth.refreshProfile().catch(() => undefined);
      this.submitted$.next(id);
      return id;
    } catch {
      return null;
    } finally {
      this.submitting$.next(false);
    }
  }

  /** Saves a finished dub to the material library (audio and script); answers the audio material's id. */
  async saveToMaterial(record: DubbingRecord, quiet = false): Promise<number | null> {
    const known = this.savedAudio.get(record.id);
    if (known !== undefined) {
      if (!quiet) this.s.notifier.success(MSG.saveSucceeded);
      return known;
    }
    try {
      const { audio_id } = await this.s.api.call(API.dubbing.save, { id: record.id });
      this.savedAudio.set(record.id, audio_id);
      if (!quiet) this.s.notifier.success(MSG.saveSucceeded);
      return audio_id;
    } catch {
      return null;
    }
  }

  /** 用于创作: the dub drives a video on /create (the spec's origin=audio flow), from its material-library copy. */
  async useForCreation(record: DubbingRecord): Promise<void> {
    const audioId = await this.saveToMaterial(record, true);
    if (audioId !== null) this.s.navigation.navigate('/create', { origin: 'audio', audioId });
  }

  /** Starts over with an empty project. */
  reset(): void {
    this.previews.clear();
    this.draft$.next(emptyDubDraft());
  }

  dispose(): void {
    this.disposed$.next();
  }
}
