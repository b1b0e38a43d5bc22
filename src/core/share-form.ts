/**
 * The form of a screen that takes a pasted share text or an uploaded video (extraction, copy extraction, super
 * replica): the way, the text, the video, the upload box's round, and one submit that says the problem or sends
 * and resets. A screen holds one as `form` and says how its way reads and what it sends.
 */
import { BehaviorSubject } from 'rxjs';
import { findLink, MSG } from '../contract';
import { OpenScreen, RemoteStore, runBusy } from './screen-state';
import { TIMINGS } from './timings';
import type { AuthService, Notifier, PollingService } from './tokens';
import type { UploadedFile } from './upload-files';

/** What is wrong with a pasted share text, or null when it holds a link. */
export function linkProblem(text: string): string | null {
  if (!text.trim()) return MSG.extractionLinkRequired;
  if (!findLink(text)) return MSG.extractionLinkMissing;
  return null;
}

export interface ShareFormOwner {
  notifier: Notifier;
  auth: AuthService;
  /** The way chosen is the upload. */
  byUpload(way: number): boolean;
  /** Sends the form's source (the uploaded video, or the link's text). */
  send(source: { fileId: number } | { link: string }): Promise<void>;
  /** After a sent submit (the form is empty again): show what was made. */
  sent(): void;
}

export class ShareForm {
  readonly way$: BehaviorSubject<number>;
  readonly text$ = new BehaviorSubject('');
  readonly video$ = new BehaviorSubject<UploadedFile | null>(null);
  readonly uploading$ = new BehaviorSubject(false);
  /** A new upload box after each submit (the last video is gone from it). */
  readonly uploadRound$ = new BehaviorSubject(0);
  readonly submitting$ = new BehaviorSubject(false);

  constructor(
    way: number,
    private readonly owner: ShareFormOwner,
  ) {
    this.way$ = new BehaviorSubject(way);
  }

  /** The way chosen is the upload (the upload box shows instead of the link box). */
  byUpload(way: number): boolean {
    return this.owner.byUpload(way);
  }

  /** The problem is said, else the form is sent; a success empties the form. */
  async start(): Promise<boolean> {
    if (this.submitting$.value) return false;
    const upload = this.byUpload(this.way$.value);
    const video = this.video$.value;
    const text = this.text$.value;
    const problem = upload ? (video ? null : MSG.translationVideoRequired) : linkProblem(text);
    if (problem) {
      this.owner.notifier.error(problem);
      return false;
    }
    if (!(await runBusy(this.submitting$, () => this.owner.send(upload ? { fileId: video!.file_id } : { link: text })))) return false;
    this.owner.notifier.success(MSG.submitSucceeded);
    this.text$.next('');
    this.video$.next(null);
    this.uploadRound$.next(this.uploadRound$.value + 1);
    this.owner.sent();
    void this.owner.auth.refreshProfile().catch(() => undefined);
    return true;
  }
}

/** What SharedVideoJobs is told by its screen: how its records are read and sent, and what goes when another is shown. */
export interface SharedVideoJobsOwner<R, L> extends Omit<ShareFormOwner, 'send' | 'sent'> {
  polling: PollingService;
  /** The way the form opens on. */
  way: number;
  /** How many of the newest records the short list holds. */
  limit: number;
  /** A page of the records: the newest `limit`, or with `id` only that record. */
  list(query: { page: number; limit: number; id?: number }, signal?: AbortSignal): Promise<L>;
  /** The record is still being read (asked again). */
  isOpen(r: R): boolean;
  /** Sends the form's source; answers the new record's id. */
  submit(source: { fileId: number } | { link: string }): Promise<{ id: number }>;
  /** Another record is about to be shown: what the screen showed of the last one goes. */
  leaving(): void;
}

/**
 * The submit → select → poll of a screen that reads shared videos as jobs (copy extraction, super replica's video
 * analysis), held once here since both did the same: the share form, the short list of the newest records and the
 * one shown, both asked again every TIMINGS.extractionPollMs while a record is read. The newest is shown until the
 * user picks one, a sent form shows its new record, and a record that finishes refreshes the short list.
 */
export class SharedVideoJobs<R extends { id: number; status: number }, L extends { list: R[] }> extends OpenScreen {
  readonly form: ShareForm;
  /** The record shown. */
  readonly selected$ = new BehaviorSubject<number | null>(null);
  readonly recent: RemoteStore<L>;
  readonly current: RemoteStore<R | null>;
  private submitted = 0;

  constructor(private readonly o: SharedVideoJobsOwner<R, L>) {
    super();
    this.form = new ShareForm(o.way, {
      ...o,
      send: async (source) => {
        this.submitted = (await o.submit(source)).id;
      },
      // The new record is shown.
      sent: () => {
        this.select(this.submitted);
        this.recent.reload();
      },
    });
    const poll = <T>(keepGoing: (v: T) => boolean) => ({ poll: { polling: o.polling, intervalMs: TIMINGS.extractionPollMs, keepGoing } });
    this.recent = new RemoteStore((signal) => o.list({ page: 1, limit: o.limit }, signal), poll<L>((v) => v.list.some((r) => o.isOpen(r))));
    this.current = new RemoteStore(async (signal) => {
      const id = this.selected$.value;
      return id === null ? null : ((await o.list({ page: 1, limit: 1, id }, signal)).list[0] ?? null);
    }, poll<R | null>((r) => !!r && o.isOpen(r)));
    // The newest record is shown until the user picks one; a record that finishes refreshes the short list.
    this.life.add(
      this.recent.remote$.subscribe(() => {
        const first = this.recent.value?.list[0];
        if (first && this.selected$.value === null) this.select(first.id);
      }),
    );
    this.life.add(
      this.current.remote$.subscribe(() => {
        const r = this.current.value;
        const listed = r && this.recent.value?.list.find((x) => x.id === r.id);
        if (r && listed && listed.status !== r.status) this.recent.reload();
      }),
    );
    this.ownUntil(undefined, [this.recent, this.current]);
    this.recent.reload();
  }

  /** Shows record `id`, what the screen showed of the last one gone. */
  select(id: number): void {
    if (id === this.selected$.value) return;
    this.o.leaving();
    this.selected$.next(id);
    this.current.reload({ clear: true });
  }

  /** Record `id` is gone: it is no longer shown, and the list is read again. */
  removed(id: number): void {
    if (this.selected$.value === id) this.selected$.next(null);
    this.recent.reload();
    this.current.reload({ clear: true });
  }
}
