import { inject, injectable } from 'inversify';
import { TOKENS, type Command, type CommandContribution, type Navigation } from '../../core';
import { CopywriteStateToken, type CopywriteScreen, type CopywriteState } from './copywrite-state';
import { COPYWRITE_ROUTE, TRACE_ROUTE } from './copywrite-view';

const SECTION = '文案提取';

/** Palette commands: open the two screens; copy or take to /create the copy shown on the open extraction screen. */
@injectable()
export class CopywriteCommands implements CommandContribution {
  constructor(
    @inject(CopywriteStateToken) private readonly state: CopywriteState,
    @inject(TOKENS.Navigation) private readonly navigation: Navigation,
  ) {}

  private shownCopy(): string {
    return this.state.screen$.value?.current.value?.text ?? '';
  }

  commands(): Command[] {
    return [
      { id: 'copywrite.open', title: '文案提取：提取视频文案', section: SECTION, icon: 'clipboard', keywords: 'copywrite extract copy ocr asr 文案 提取 口播 字幕', run: () => this.navigation.navigate(COPYWRITE_ROUTE) },
      { id: 'copywrite.trace', title: '文案提取：历史记录', section: SECTION, icon: 'history', keywords: 'copywrite history trace 文案 溯源 历史', run: () => this.navigation.navigate(TRACE_ROUTE) },
      this.onShownCopy({ id: 'copywrite.copy', title: '文案提取：复制当前文案', icon: 'duplicate', keywords: 'copy 复制 文案' }, (screen, text) => screen.copy(text)),
      this.onShownCopy({ id: 'copywrite.create', title: '文案提取：用当前文案去创作', icon: 'video', keywords: 'create 创作 文案' }, (screen, text) => screen.goCreate(text)),
    ];
  }

  /** A command on the copy the open extraction screen shows, offered while there is one. */
  private onShownCopy(head: Pick<Command, 'id' | 'title' | 'icon' | 'keywords'>, use: (screen: CopywriteScreen, text: string) => void | Promise<void>): Command {
    return {
      ...head,
      section: SECTION,
      when: () => !!this.shownCopy(),
      run: () => {
        const screen = this.state.screen$.value;
        return screen ? use(screen, this.shownCopy()) : undefined;
      },
    };
  }
}
