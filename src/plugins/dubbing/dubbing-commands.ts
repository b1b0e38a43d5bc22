import { commandTable, navigationCommands, onPage } from '../../core';
import { DUBBING_ROUTE, DubbingStateToken, type DubbingState } from './dubbing-state';

/** Palette commands of the dubbing studio: generate the project, or start a new one. Each opens the studio first. */
export const DubbingCommands = navigationCommands<DubbingState>(DubbingStateToken, (navigation, state) =>
  commandTable('配音', [
    ['dubbing.generate', '配音：生成配音', 'microphone', 'dubbing generate tts 配音 生成 朗读', onPage(navigation, DUBBING_ROUTE, async () => { await state.generate(); })],
    ['dubbing.new', '配音：新建配音项目', 'document', 'dubbing new 配音 新建 清空', onPage(navigation, DUBBING_ROUTE, () => state.reset())],
  ]),
);
