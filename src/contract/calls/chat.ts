/** Copy-spark chat (part 2 §2.10, §3, §4, §7, §9). */
import { z } from 'zod';
import { defineGroup, uncheckedCall, userCall, specCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { id, oneOf, requiredText } from '../schema';
import { Flag, Timestamp, listPage, optionalId, removeById, requiredId, specPageRead, streamToken } from './fields';

export const CHAT_MODELS = ['v3', 'r1'] as const;
export type ChatModel = (typeof CHAT_MODELS)[number];

/** ours: where an assistant answer is. Pending until its stream opens; failed answers cost nothing. */
export const ChatAnswerStatus = { Pending: 1, Streaming: 2, Done: 3, Failed: 4 } as const;
export type ChatAnswerStatus = (typeof ChatAnswerStatus)[keyof typeof ChatAnswerStatus];

export const ChatRecord = z.object({ id: z.number(), title: z.string(), create_time: Timestamp });
export type ChatRecord = z.infer<typeof ChatRecord>;

export const ChatMessage = z.object({
  id: z.number(),
  content: z.string(),
  role: z.enum(['user', 'assistant']),
  /** ours */
  create_time: Timestamp.optional(),
  /** ours: r1's reasoning before the answer (shown apart; never sent upstream again). */
  reasoning: z.string().optional(),
  /** ours: the model that answered (assistant messages). */
  model: z.enum(CHAT_MODELS).optional(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** One server-sent event of the answer stream: `data: <JSON>`. */
export const ChatStreamEvent = z.object({
  /** The next piece of the answer. */
  message: z.string(),
  /** ours: the next piece of r1's reasoning (before the answer). */
  reasoning: z.string().optional(),
  /** ours: 1 on the last event; the server then closes the stream. */
  done: Flag.optional(),
  /** ours: a failure message (e.g. not enough credits); the stream ends. */
  error: z.string().optional(),
});
export type ChatStreamEvent = z.infer<typeof ChatStreamEvent>;

export const chatCalls = defineGroup('chat', {
  sendMessage: specCall('POST', '/api/chat/sendMessage', {
    summary: `Post a message (no cid starts a conversation) → {cid, mid}; the answer then streams from chat.stream. ${LIMITS.chatAnswerCredits} credits per answer (spec name: chat).`,
    request: z.object({
      cid: optionalId('会话ID'),
      content: requiredText('内容', MSG.chatContentRequired, LIMITS.chatMaxChars),
      model: oneOf('模型', CHAT_MODELS).default('v3'),
    }),
    response: z.object({ cid: z.number(), mid: z.number() }),
  }),
  stream: {
    ...uncheckedCall('GET', '/api/chat/index', {
      summary:
        'Unchecked event stream (text/event-stream) of the answer to message mid; the token comes in the query because EventSource ' +
        'cannot set headers. Each event carries ChatStreamEvent (the response schema); closing the stream stops the answer.',
      request: z.object({
        token: streamToken(),
        cid: requiredId('会话ID格式有误'),
        mid: requiredId('消息ID格式有误'),
      }),
      response: ChatStreamEvent,
    }),
    pathFromSpec: true,
  },
  records: specPageRead('/api/chat/record', { summary: 'Conversation history, newest first.', response: listPage(ChatRecord) }),
  recordRemove: removeById({ path: '/api/chat/record', pathFromSpec: true, summary: 'Delete a conversation.' }, '会话ID'),
  engine: userCall('GET', '/api/chat/engine', {
    summary: 'ours: whether the operator has configured the chat engine (the screen disables sending when not).',
    request: z.object({}),
    response: z.object({ configured: Flag }),
  }),
  messages: specCall('GET', '/api/chat/messageList', {
    summary: 'Messages of one conversation, oldest first.',
    request: z.object({ cid: id('会话ID') }),
    response: z.object({ list: z.array(ChatMessage) }),
  }),
});
