/**
 * What every script editor shares, whichever screen shows it (/create, /multiples, the dubbing studio): which editor
 * has the cursor (the palette's editor commands act on it), and whether the server can write text at all (polish
 * and AI writing need a chat engine; once it says there is none, the buttons say so instead of failing again).
 */
import { injectable } from 'inversify';
import { BehaviorSubject } from 'rxjs';
import { MSG } from '../../contract';

/** What a mounted script editor offers the palette while it has the cursor. */
export interface ScriptEditorHandle {
  /** Pause insertion is hidden for fish and nw. */
  readonly pausesAllowed: boolean;
  readonly canAudition: boolean;
  readonly canSubmit: boolean;
  readonly aiAvailable: boolean;
  insertPause(seconds: number): void;
  polish(emotion: boolean): void;
  openAiWriting(): void;
  audition(): void;
  submit(): void;
}

/** What an audition button says: one wording for every 试听 button of a screen. */
export const AUDITION_LABELS = { idle: '试听', ready: '播放试听' } as const;

@injectable()
export class ScriptEditorState {
  readonly activeEditor$ = new BehaviorSubject<ScriptEditorHandle | null>(null);
  /** The server's words when text polish / AI writing is not available; null while it may be. */
  readonly aiUnavailable$ = new BehaviorSubject<string | null>(null);

  get activeEditor(): ScriptEditorHandle | null {
    return this.activeEditor$.value;
  }
  activate(handle: ScriptEditorHandle) {
    if (this.activeEditor$.value !== handle) this.activeEditor$.next(handle);
  }
  /** Only the editor that holds the cursor can give it up. */
  deactivate(handle: ScriptEditorHandle) {
    if (this.activeEditor$.value === handle) this.activeEditor$.next(null);
  }

  /** Called with the message of a code-1 answer to polish, AI writing or the theme list. */
  noteAiFailure(message: string) {
    if (aiEngineMissing(message)) this.aiUnavailable$.next(message);
  }
}

/**
 * Refusals that mean the text engine is not there until the operator acts (rather than a passing problem such as a
 * busy provider or the user's credits): not configured, a refused key, no balance, a wrong configuration, or the
 * catalogue's "coming soon" of a server without the feature.
 */
const ENGINE_MISSING: readonly string[] = [MSG.chatEngineMissing, MSG.chatEngineAuthFailed, MSG.chatEngineNoBalance, MSG.chatEngineRejected, MSG.comingSoon];
export function aiEngineMissing(message: string): boolean {
  return ENGINE_MISSING.includes(message);
}
