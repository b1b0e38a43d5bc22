import { commandTable, navigationCommands } from '../../core';
import { VoicesStateToken, type VoicesState } from './voices-state';

export const CLONE_ROUTE = '/clone';
export const SAMPLE_ROUTE = '/voice';

/** Palette commands of the voices plugin (the shell already lists plain 前往：声音克隆 / 声音样本). */
export const VoicesCommands = navigationCommands<VoicesState>(VoicesStateToken, (navigation, state) => {
  const mine = () => navigation.navigate(CLONE_ROUTE, { id: 1 });
  return commandTable('声音', [
    ['voices.clone', '克隆声音', 'volume-up', 'clone voice audio 克隆 声音 音色 上传 录音', () => { mine(); state.openClone(); }],
    ['voices.mine', '我的声音', 'person', 'my voices clone 我的声音 声音克隆 音色', mine],
    ['voices.public', '公共声音', 'people', 'public voices 公共声音 系统声音 试听', () => navigation.navigate(CLONE_ROUTE, { id: 2 })],
    ['voices.refresh', '刷新我的声音', 'refresh', 'refresh voices 刷新 声音 训练进度', () => { mine(); state.notifyChanged(); }],
    ['voices.samples', '上传声音样本', 'music', 'voice sample upload 声音样本 上传 音频', () => navigation.navigate(SAMPLE_ROUTE)],
  ]);
});
