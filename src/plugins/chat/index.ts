import { lazyChunk, definePlugin } from '../../core';
import { ChatState, ChatStateToken } from './chat-state';

const ChatPanel = lazyChunk(() => import('./panels/ChatPanel'));

/** /store/aiChat: the copy-spark chat with streamed answers (part 2 §2.10). */
export const plugin = definePlugin('chat', { services: [[ChatStateToken, ChatState]], panels: [{ route: '/store/aiChat', component: ChatPanel }] });
