import { inject, injectable } from 'inversify';
import { TOKENS, type Command, type CommandContribution, type Navigation } from '../../core';
import { HISTORY_ROUTE, START_ROUTE } from './oneclick-view';

const SECTION = '一键成片';

/** Palette commands: start a one-click video, open the history. */
@injectable()
export class OneclickCommands implements CommandContribution {
  constructor(@inject(TOKENS.Navigation) private readonly navigation: Navigation) {}

  commands(): Command[] {
    return [
      { id: 'oneclick.start', title: '一键成片：粘贴文案生成视频', section: SECTION, icon: 'film', keywords: 'oneclick coze video storyboard 一键成片 分镜 文案', run: () => this.navigation.navigate(START_ROUTE) },
      { id: 'oneclick.history', title: '一键成片：历史项目', section: SECTION, icon: 'history', keywords: 'oneclick history 一键成片 历史 草稿', run: () => this.navigation.navigate(HISTORY_ROUTE) },
    ];
  }
}
