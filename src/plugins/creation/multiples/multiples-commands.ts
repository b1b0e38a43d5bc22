import { commandTable, navigationCommands, onPage } from '../../../core';
import { MULTIPLES_ROUTE, MultiplesStateToken, type MultiplesState } from './multiples-state';

/**
 * Palette commands of /multiples: add a text or an audio scene, submit. Each opens the page (the draft is kept in
 * MultiplesState, so they work from anywhere) and acts on its draft.
 */
export const MultiplesCommands = navigationCommands<MultiplesState>(MultiplesStateToken, (navigation, state) => {
  const act = <R>(run: () => R) => onPage(navigation, MULTIPLES_ROUTE, run);
  return commandTable('多场景创作', [
    ['creation.multiples.addText', '多场景：添加文本场景', 'new-text-box', 'multi scene add text 多场景 添加 文本 场景', act(() => { state.addScene('text'); })],
    ['creation.multiples.addAudio', '多场景：添加音频场景', 'music', 'multi scene add audio 多场景 添加 音频 场景', act(() => { state.addScene('audio'); })],
    ['creation.multiples.submit', '多场景：提交合成', 'send-message', 'multi scene submit 多场景 提交 合成', act(async () => { await state.submit(); })],
  ]);
});
