import { commandTable, navigationCommands, refreshOn, type CommandRow } from '../../core';
import { WORKS_ROUTE, WorksStateToken, type WorksState } from './works-state';
import { WORKS_TABS } from './works-view';

/** Palette commands: refresh, and open each list of the works page. */
export const WorksCommands = navigationCommands<WorksState>(WorksStateToken, (navigation, state) =>
  commandTable('作品', [
    ['works.refresh', '刷新作品列表', 'refresh', 'refresh works 刷新 作品 进度', refreshOn(navigation, WORKS_ROUTE, () => state.refresh())],
    ...WORKS_TABS.map((tab): CommandRow => [
      `works.tab.${tab.key}`, `我的作品：${tab.title}`, tab.audio ? 'music' : 'film', `works 作品 ${tab.title}`,
      () => navigation.navigate(WORKS_ROUTE, { type1: tab.type1, type2: tab.type2 }),
    ]),
  ]),
);
