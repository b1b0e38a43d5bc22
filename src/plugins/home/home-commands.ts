import { inject, injectable } from 'inversify';
import { HOME_ROUTE } from '../../contract';
import { TOKENS, type Command, type CommandContribution, type Navigation } from '../../core';
import { HomeStateToken, type HomeState, type HomeTab, type Orientation } from './home-state';

/** Palette commands that open the home page on a given tab (the shell already has plain 前往：首页). */
@injectable()
export class HomeCommands implements CommandContribution {
  constructor(
    @inject(TOKENS.Navigation) private readonly navigation: Navigation,
    @inject(HomeStateToken) private readonly state: HomeState,
  ) {}

  private show(tab: HomeTab, orientation?: Orientation) {
    this.state.setTab(tab);
    if (orientation) this.state.setOrientation(orientation);
    this.navigation.navigate(HOME_ROUTE);
  }

  commands(): Command[] {
    return [
      {
        id: 'home.publicAvatarsPortrait',
        title: '首页：公共数字人（竖屏）',
        section: '首页',
        keywords: 'public avatar portrait 公共数字人 竖屏 数字人',
        icon: 'mobile-phone',
        run: () => this.show(1, 2),
      },
      {
        id: 'home.publicAvatarsLandscape',
        title: '首页：公共数字人（横屏）',
        section: '首页',
        keywords: 'public avatar landscape 公共数字人 横屏 数字人',
        icon: 'desktop',
        run: () => this.show(1, 1),
      },
      {
        id: 'home.publicVoices',
        title: '首页：公共声音',
        section: '首页',
        keywords: 'public voice audio 公共声音 声音 试听',
        icon: 'volume-up',
        run: () => this.show(2),
      },
    ];
  }
}
