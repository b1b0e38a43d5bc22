import { injectable } from 'inversify';

export const CreationStateToken = Symbol.for('creation.State');

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
 * Shared by the /create panel and the commands: the mounted /create page. (Which script editor has the cursor is
 * core's ScriptEditorState: every screen's editors share it.)
 */
@injectable()
export class CreationState {
  /** The mounted /create page, if any. */
  createPage: CreatePageHandle | null = null;
}
