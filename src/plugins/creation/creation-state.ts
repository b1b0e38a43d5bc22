import { injectable } from 'inversify';
import { BehaviorSubject } from 'rxjs';
import { MSG } from '../../contract';

export const CreationStateToken = Symbol.for('creation.State');
export const CreationCommandsToken = Symbol.for('creation.Commands');

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

/**
 * Shared by every script editor, the /create panel and the commands: which editor has the cursor (the palette's
 * editor commands act on it), and whether the server can write text at all (polish and AI writing need a chat
 * engine; once it says there is none, the buttons say so instead of failing again).
 */
@injectable()
export class CreationState {
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
 * Whether a refusal means the text engine is not there (rather than a passing problem such as credits): the
 * catalogue's "coming soon", or the server saying the engine or channel is not configured / not open.
 */
export function aiEngineMissing(message: string): boolean {
  return message === MSG.comingSoon || /未配置|未开通|未开放|未启用|即将上线|not configured/i.test(message);
}
