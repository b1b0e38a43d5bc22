import { inject, injectable } from 'inversify';
import { TOKENS, type Command, type CommandContribution, type Navigation } from '../../core';
import { VoicesStateToken, type VoicesState } from './voices-state';

export const CLONE_ROUTE = '/clone';
export const SAMPLE_ROUTE = '/voice';

/** Palette commands of the voices plugin (the shell already lists plain 前往：声音克隆 / 声音样本). */
@injectable()
export class VoicesCommands implements CommandContribution {
  constructor(
    @inject(TOKENS.Navigation) private readonly navigation: Navigation,
    @inject(VoicesStateToken) private readonly state: VoicesState,
  ) {}

  commands(): Command[] {
    return [
      {
        id: 'voices.clone',
        title: '克隆声音',
        section: '声音',
        keywords: 'clone voice audio 克隆 声音 音色 上传 录音',
        icon: 'volume-up',
        run: () => {
          this.navigation.navigate(CLONE_ROUTE, { id: 1 });
          this.state.openClone();
        },
      },
      {
        id: 'voices.mine',
        title: '我的声音',
        section: '声音',
        keywords: 'my voices clone 我的声音 声音克隆 音色',
        icon: 'person',
        run: () => this.navigation.navigate(CLONE_ROUTE, { id: 1 }),
      },
      {
        id: 'voices.public',
        title: '公共声音',
        section: '声音',
        keywords: 'public voices 公共声音 系统声音 试听',
        icon: 'people',
        run: () => this.navigation.navigate(CLONE_ROUTE, { id: 2 }),
      },
      {
        id: 'voices.refresh',
        title: '刷新我的声音',
        section: '声音',
        keywords: 'refresh voices 刷新 声音 训练进度',
        icon: 'refresh',
        run: () => {
          this.navigation.navigate(CLONE_ROUTE, { id: 1 });
          this.state.notifyChanged();
        },
      },
      {
        id: 'voices.samples',
        title: '上传声音样本',
        section: '声音',
        keywords: 'voice sample upload 声音样本 上传 音频',
        icon: 'music',
        run: () => this.navigation.navigate(SAMPLE_ROUTE),
      },
    ];
  }
}
