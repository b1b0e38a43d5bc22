import { inject, injectable } from 'inversify';
import { TOKENS, type Command, type CommandContribution, type Navigation } from '../../core';
import { MaterialStateToken, type MaterialState } from './material-state';
import { MATERIAL_ROUTE, MATERIAL_TABS } from './material-view';

/** Palette commands: refresh the materials, and open each type's list. */
@injectable()
export class MaterialCommands implements CommandContribution {
  constructor(
    @inject(TOKENS.Navigation) private readonly navigation: Navigation,
    @inject(MaterialStateToken) private readonly state: MaterialState,
  ) {}

  commands(): Command[] {
    return [
      {
        id: 'material.refresh',
        title: '刷新素材库',
        section: '素材',
        keywords: 'refresh material 刷新 素材',
        icon: 'refresh',
        run: () => {
          if (this.navigation.current.path !== MATERIAL_ROUTE) this.navigation.navigate(MATERIAL_ROUTE);
          this.state.refresh();
        },
      },
      ...MATERIAL_TABS.map(
        (tab): Command => ({
          id: `material.tab.${tab.type}`,
          title: `我的素材：${tab.title}`,
          section: '素材',
          keywords: `material 素材 ${tab.title} ${tab.type}`,
          icon: tab.icon,
          run: () => this.navigation.navigate(MATERIAL_ROUTE, { type: tab.type }),
        }),
      ),
    ];
  }
}
