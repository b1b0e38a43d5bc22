import { HOME_ROUTE } from '../../contract';
import { commandTable, navigationCommands } from '../../core';
import { HomeStateToken, type HomeState, type HomeTab, type Orientation } from './home-state';

/** Palette commands that open the home page on a given tab (the shell already has plain 前往：首页). */
export const HomeCommands = navigationCommands<HomeState>(HomeStateToken, (navigation, state) => {
  const show = (tab: HomeTab, orientation?: Orientation) => () => {
    state.setTab(tab);
    if (orientation) state.setOrientation(orientation);
    navigation.navigate(HOME_ROUTE);
  };
  return commandTable('首页', [
    ['home.publicAvatarsPortrait', '首页：公共数字人（竖屏）', 'mobile-phone', 'public avatar portrait 公共数字人 竖屏 数字人', show(1, 2)],
    ['home.publicAvatarsLandscape', '首页：公共数字人（横屏）', 'desktop', 'public avatar landscape 公共数字人 横屏 数字人', show(1, 1)],
    ['home.publicVoices', '首页：公共声音', 'volume-up', 'public voice audio 公共声音 声音 试听', show(2)],
  ]);
});
