import { inject, injectable } from 'inversify';
import { TOKENS, type Command, type CommandContribution, type Navigation } from '../../core';
import { WORKS_ROUTE, WorksStateToken, type WorksState } from './works-state';
import { WORKS_TABS } from './works-view';

/** Palette commands: refresh, and open each list of the works page. */
@injectable()
export class WorksCommands implements CommandContribution {
  constructor(
    @inject(TOKENS.Navigation) private readonly navigation: Navigation,
    @inject(WorksStateToken) private readonly state: WorksState,
  ) {}

  commands(): Command[] {
    return [
      {
        id: 'works.refresh',
        title: '刷新作品列表',
        section: '作品',
        keywords: 'refresh works 刷新 作品 进度',
        icon: 'refresh',
        run: () => {
          if (this.navigation.current.path !== WORKS_ROUTE) this.navigation.navigate(WORKS_ROUTE);
          this.state.refresh();
        },
      },
      ...WORKS_TABS.map(
        (tab): Command => ({
          id: `works.tab.${tab.key}`,
          title: `我的作品：${tab.title}`,
          section: '作品',
          keywords: `works 作品 ${tab.title}`,
          icon: tab.audio ? 'music' : 'film',
          run: () => this.navigation.navigate(WORKS_ROUTE, { type1: tab.type1, type2: tab.type2 }),
        }),
      ),
    ];
  }
}
