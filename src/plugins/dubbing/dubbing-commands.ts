import { inject, injectable } from 'inversify';
import { TOKENS, type Command, type CommandContribution, type Navigation } from '../../core';
import { DUBBING_ROUTE, DubbingStateToken, type DubbingState } from './dubbing-state';

const SECTION = '配音';

/** Palette commands of the dubbing studio: generate the project, or start a new one. Each opens the studio first. */
@injectable()
export class DubbingCommands implements CommandContribution {
  constructor(
    @inject(DubbingStateToken) private readonly state: DubbingState,
    @inject(TOKENS.Navigation) private readonly navigation: Navigation,
  ) {}

  private open() {
    if (this.navigation.current.path !== DUBBING_ROUTE) this.navigation.navigate(DUBBING_ROUTE);
  }

  commands(): Command[] {
    return [
      {
        id: 'dubbing.generate',
        title: '配音：生成配音',
        section: SECTION,
        icon: 'microphone',
        keywords: 'dubbing generate tts 配音 生成 朗读',
        run: async () => {
          this.open();
          await this.state.generate();
        },
      },
      {
        id: 'dubbing.new',
        title: '配音：新建配音项目',
        section: SECTION,
        icon: 'document',
        keywords: 'dubbing new 配音 新建 清空',
        run: () => {
          this.open();
          this.state.reset();
        },
      },
    ];
  }
}
