import { inject, injectable } from 'inversify';
import { TOKENS, type Command, type CommandContribution, type Navigation } from '../../../core';
import { MULTIPLES_ROUTE, MultiplesStateToken, type MultiplesState } from './multiples-state';

const SECTION = '多场景创作';

/**
 * Palette commands of /multiples: add a text or an audio scene, submit. Each opens the page (the draft is kept in
 * MultiplesState, so they work from anywhere) and acts on its draft.
 */
@injectable()
export class MultiplesCommands implements CommandContribution {
  constructor(
    @inject(MultiplesStateToken) private readonly state: MultiplesState,
    @inject(TOKENS.Navigation) private readonly navigation: Navigation,
  ) {}

  private open() {
    if (this.navigation.current.path !== MULTIPLES_ROUTE) this.navigation.navigate(MULTIPLES_ROUTE);
  }

  commands(): Command[] {
    return [
      {
        id: 'creation.multiples.addText',
        title: '多场景：添加文本场景',
        section: SECTION,
        icon: 'new-text-box',
        keywords: 'multi scene add text 多场景 添加 文本 场景',
        run: () => {
          this.open();
          this.state.addScene('text');
        },
      },
      {
        id: 'creation.multiples.addAudio',
        title: '多场景：添加音频场景',
        section: SECTION,
        icon: 'music',
        keywords: 'multi scene add audio 多场景 添加 音频 场景',
        run: () => {
          this.open();
          this.state.addScene('audio');
        },
      },
      {
        id: 'creation.multiples.submit',
        title: '多场景：提交合成',
        section: SECTION,
        icon: 'send-message',
        keywords: 'multi scene submit 多场景 提交 合成',
        run: async () => {
          this.open();
          await this.state.submit();
        },
      },
    ];
  }
}
