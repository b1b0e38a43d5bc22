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

/** What the open /create page offers the palette (its commands show while /create is the active page). */
export interface CreatePageHandle {
  readonly mode: 'text' | 'audio';
  /** Brings a pane to the front, reopening it if closed. */
  showPane(id: 'script' | 'avatar' | 'voice' | 'preview'): void;
  resetLayout(): void;
  /** 合成视频: the checks, then the channel dialog. */
  submit(): void;
  setMode(mode: 'text' | 'audio'): void;
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
  /** The mounted /create page, if any. */
  createPage: CreatePageHandle | null = null;

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
