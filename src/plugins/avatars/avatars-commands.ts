import { commandTable, navigationCommands } from '../../core';
import { AvatarsStateToken, type AvatarsState } from './avatars-state';

export const PROFILE_ROUTE = '/profile';
export const PUBLIC_ROUTE = '/gProfile';

/** Palette commands of the avatars plugin (the shell already lists plain 前往：我的数字人 / 公共数字人). */
export const AvatarsCommands = navigationCommands<AvatarsState>(AvatarsStateToken, (navigation, state) => {
  const mine = () => navigation.navigate(PROFILE_ROUTE);
  return commandTable('数字人', [
    ['avatars.clone', '克隆数字人', 'new-person', 'clone avatar upload 克隆 数字人 上传 定制', () => { mine(); state.openClone(); }],
    ['avatars.refresh', '刷新我的数字人', 'refresh', 'refresh avatar 刷新 数字人 克隆进度', () => { mine(); state.notifyChanged(); }],
  ]);
});
