/**
 * AI super employee (issue 32; part 2 §2.1 /employee, §7 bot calls listed by name): bots that operators define, which
 * users employ (free) and talk to. The answer streams exactly as the copy chat's (same engine, stop, typing and refund
 * rules), at the bot's own price per answer. A bot's system prompt is the operator's and never leaves the server.
 * The operator's calls (add, list, update, remove) serve `npm run admin -- bot …`.
 */
import { z } from 'zod';
import { defineGroup, uncheckedCall, userCall, specCall, operatorCall, operatorList } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { empty, id, int, requiredText, text } from '../schema';
import { Flag, Timestamp, flag, listPage, multipartCall, optionalFilter, optionalId, pageFields, requiredId, streamToken, userRead } from './fields';
import { ChatStreamEvent } from './chat';

const B = LIMITS.bot;

/** ours: where a public avatar's mouth is, as fractions of its video (from its face track). */
export const MouthRegion = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });
export type MouthRegion = z.infer<typeof MouthRegion>;

/** One bot as users see it: never its prompt. */
export const BotView = z.object({
  id: z.number(),
  type: z.string(),
  name: z.string(),
  desc: z.string(),
  /** A picture, or the cover of the public avatar it appears as. */
  avatar: z.string(),
  /** ours: the public avatar's looping video when the bot appears as one ('' for a picture). */
  video: z.string(),
  /** ours: the public avatar it appears as (0 for a picture); its face track drives the talking mouth. */
  avatar_id: z.number(),
  /** ours: the mouth region the talking screen animates (null: a picture, or an avatar without a usable face). */
  mouth: MouthRegion.nullable(),
  /** ours: the public voice it speaks with (0: the offline voice's default). */
  voice_id: z.number(),
  welcome: z.string(),
  /** Credits per answer (0: free). */
  credits: z.number(),
  /** 1 when it is one of my employees. */
  employed: Flag,
  /** ours, my employees only: my latest conversation with it (0 when none) and its last message. */
  cid: z.number().optional(),
  last_message: z.string().optional(),
});
export type BotView = z.infer<typeof BotView>;

export const BotRecord = z.object({
  id: z.number(),
  bot_id: z.number(),
  bot_name: z.string(),
  title: z.string(),
  last_message: z.string(),
  create_time: Timestamp,
  update_time: Timestamp,
});
export type BotRecord = z.infer<typeof BotRecord>;

export const BotMessage = z.object({
  id: z.number(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  create_time: Timestamp,
  /** ours: where an assistant answer is (ChatAnswerStatus of the copy chat); a failed one carries its reason. */
  status: z.number().optional(),
  error: z.string().optional(),
});
export type BotMessage = z.infer<typeof BotMessage>;

/** The operator's bot row (the prompt's length only: the prompt itself is never answered, not even to the operator). */
export const BotAdminView = BotView.omit({ employed: true, cid: true, last_message: true }).extend({ prompt_chars: z.number(), employees: z.number() });

const botFields = {
  type: requiredText('分类', MSG.botTypeRequired, B.typeMaxChars),
  name: requiredText('名称', MSG.botNameRequired, LIMITS.nameMaxChars),
  desc: text('简介', B.descMaxChars).default(''),
  /** A local picture file on the server machine, or a public avatar's id. */
  avatar: requiredText('形象', MSG.botAvatarRequired, 2000),
  prompt: requiredText('系统提示词', MSG.botPromptRequired, B.promptMaxChars),
  voice_id: int('声音ID').default(0),
  welcome: text('开场白', B.welcomeMaxChars).default(''),
  credits: int('每条回答积分', 0, B.maxAnswerCredits).default(B.defaultAnswerCredits),
};

export const botCalls = defineGroup('bot', {
  typeList: userRead('/api/bot/typeList', {
    summary: 'The categories of the 招聘 catalogue, with how many bots each has (spec name: bot typeList).',
    response: z.object({ list: z.array(z.object({ name: z.string(), count: z.number() })) }),
  }),
  botList: userCall('GET', '/api/bot/botList', {
    summary: 'Bots of a category (all without type); ours: mine=1 lists my employees, latest talked to first (spec name: bot botList).',
    request: z.object({ type: optionalFilter(text('分类', B.typeMaxChars)), mine: optionalFilter(flag('我的员工')) }),
    response: z.object({ list: z.array(BotView) }),
  }),
  employ: userCall('POST', '/api/bot/employ', {
    summary: 'The bot joins my employees: free, idempotent (spec name: bot employ).',
    request: z.object({ bot_id: requiredId(MSG.botMissing) }),
    response: BotView,
  }),
  record: specCall('GET', '/api/bot/record', {
    summary: 'My conversations with my employees, latest first; bot_id narrows to one.',
    request: z.object({ bot_id: optionalId('员工ID'), ...pageFields }),
    response: listPage(BotRecord),
  }),
  sendMessage: userCall('POST', '/api/bot/sendMessage', {
    summary: "Post a message to one of my employees (no cid starts a conversation) → {cid, mid}; the answer streams from bot.stream at the bot's price (spec name: bot sendMessage).",
    request: z.object({
      bot_id: requiredId(MSG.botMissing),
      cid: optionalId('会话ID'),
      content: requiredText('内容', MSG.chatContentRequired, LIMITS.chatMaxChars),
    }),
    response: z.object({ cid: z.number(), mid: z.number() }),
  }),
  stream: uncheckedCall('GET', '/api/bot/index', {
    summary: 'Unchecked event stream (text/event-stream) of answer mid, as the copy chat\'s: token in the query; closing it stops the answer.',
    request: z.object({
      token: streamToken(),
      cid: requiredId('会话ID格式有误'),
      mid: requiredId('消息ID格式有误'),
    }),
    response: ChatStreamEvent,
  }),
  speech: uncheckedCall('GET', '/api/bot/speech', {
    summary:
      "ours: one sentence of my answer mid spoken in its bot's voice (the offline voice without one), answered as audio/mpeg " +
      'for an <audio> element (token in the query, as the stream\'s); bad input answers the JSON envelope.',
    request: z.object({
      token: streamToken(),
      mid: requiredId('消息ID格式有误'),
      text: requiredText('文本', MSG.chatContentRequired, B.sentenceMaxChars),
    }),
    response: z.object({}),
  }),
  hearing: userRead('/api/bot/hearing', {
    summary: 'ours: whether voice input works (a recognition engine is set); without it the talking screen says why (MSG.botHearNoEngine).',
    response: z.object({ ready: Flag }),
  }),
  hear: multipartCall('/api/bot/hear', {
    summary:
      `ours: hold to talk. Unchecked multipart form with one field \`file\` (${B.hearFormats.join('/')}, at most ${B.hearMaxSeconds} s and ` +
      `${B.hearMaxBytes / 1024 / 1024} MB) and the x-token header → the plain reply { code, msg, data: {text} }: what the recognition engine heard, ` +
      'which the screen then sends as the message. Request schema is empty: the form is multipart.',
    response: z.object({ text: z.string() }),
  }),
  messageList: userCall('GET', '/api/bot/messageList', {
    summary: 'Messages of one of my conversations, oldest first (spec name: bot messageList).',
    request: z.object({ cid: id('会话ID') }),
    response: z.object({ list: z.array(BotMessage), bot_id: z.number() }),
  }),
  messageDetail: userCall('GET', '/api/bot/messageDetail', {
    summary: 'One message of mine (spec name: bot messageDetail).',
    request: z.object({ mid: id('消息ID') }),
    response: BotMessage.extend({ cid: z.number(), bot_id: z.number() }),
  }),

  /** ours: the operator's */
  add: operatorCall('POST', '/api/admin/botAdd', {
    summary: 'Define a bot: category, name, intro, a picture file on the server machine or a public avatar id, system prompt, public voice, opening line, price per answer.',
    request: z.object(botFields),
    response: z.object({ id: z.number() }),
  }),
  /** ours: the operator's */
  adminList: operatorList('/api/admin/botList', 'Every bot (the prompt by its length only).', empty, BotAdminView),
  /** ours: the operator's */
  update: operatorCall('POST', '/api/admin/botUpdate', {
    summary: 'Change some fields of a bot; the others stay.',
    request: z.object({
      id: id('员工ID'),
      type: botFields.type.optional(),
      name: botFields.name.optional(),
      desc: text('简介', B.descMaxChars).optional(),
      avatar: botFields.avatar.optional(),
      prompt: botFields.prompt.optional(),
      voice_id: int('声音ID').optional(),
      welcome: text('开场白', B.welcomeMaxChars).optional(),
      credits: int('每条回答积分', 0, B.maxAnswerCredits).optional(),
    }),
    response: z.object({}),
  }),
  /** ours: the operator's */
  remove: operatorCall('POST', '/api/admin/botRemove', {
    summary: 'Take a bot off the catalogue and off everyone\'s employees; conversations stay readable.',
    request: z.object({ id: id('员工ID') }),
    response: z.object({}),
  }),
});
