import { commandTable, navigationCommands, refreshOn, type CommandRow } from '../../core';
import { MaterialStateToken, type MaterialState } from './material-state';
import { MATERIAL_ROUTE, MATERIAL_TABS } from './material-view';

/** Palette commands: refresh the materials, and open each type's list. */
export const MaterialCommands = navigationCommands<MaterialState>(MaterialStateToken, (navigation, state) =>
  commandTable('素材', [
    ['material.refresh', '刷新素材库', 'refresh', 'refresh material 刷新 素材', refreshOn(navigation, MATERIAL_ROUTE, () => state.refresh())],
    ...MATERIAL_TABS.map((tab): CommandRow => [
      `material.tab.${tab.type}`, `我的素材：${tab.title}`, tab.icon, `material 素材 ${tab.title} ${tab.type}`,
      () => navigation.navigate(MATERIAL_ROUTE, { type: tab.type }),
    ]),
  ]),
);
