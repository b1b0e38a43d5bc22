/**
 * The form of a screen that takes a pasted share text or an uploaded video (extraction, copy extraction, super
 * replica): the way, the text, the video, the upload box's round, and one submit that says the problem or sends
 * and resets. A screen holds one as `form` and says how its way reads and what it sends.
 */
import { BehaviorSubject } from 'rxjs';
import { findLink, MSG } from '../contract';
import { runBusy } from './screen-state';
import type { AuthService, Notifier } from './tokens';
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
