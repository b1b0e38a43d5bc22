/**
 * 超级助手 (issue 32; part 2 §2.1 /helper/index, /helper/operation, /helper/asyncOperation, contents not shown): a
 * product assistant grounded in the product's own guide, and an operator that calls our own calls as the user through
 * the chat engine's tool calling. The tools are declared once here, from the calls themselves (name, Chinese
 * description, JSON schema of the request); a spending tool stops at a plan the user confirms (one total price), and
 * only then runs, as the user, through the very route the workbench calls.
 */
import { z } from 'zod';
import type { CallDef } from '../call';
import { defineGroup, uncheckedCall, userCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { id, requiredText } from '../schema';
import { Flag, Timestamp, flag, optionalId, removeById, streamToken, userCallById, userList, userRead } from './fields';
import { ChatStreamEvent } from './chat';
import { avatarsCalls } from './avatars';
import { voicesCalls } from './voices';
import { worksCalls } from './works';
import { accountCalls } from './account';
import { writingCalls } from './writing';
import { extractionCalls } from './extraction';

const H = LIMITS.helper;

/** One tool the assistant may call: a call of ours a user may call; `spends` ones wait for the user's confirmation. */
export interface HelperTool {
  call: CallDef;
  spends: boolean;
  /** What the model is told the tool does (Chinese, as it talks to the user in Chinese). */
  description: string;
}

/** The one list of tools. Their names and JSON schemas come from the calls (helperToolName, the request schema). */
export const HELPER_TOOLS: readonly HelperTool[] = [
  { call: avatarsCalls.list, spends: false, description: '列出我的数字分身（source=1 我自己的，source=0 公共的），得到分身ID（video_id）、名称和状态（3 为可用）' },
  { call: voicesCalls.list, spends: false, description: '列出我的声音（source=1 我克隆的，source=0 公共的），得到声音ID（user_voice_id）和名称' },
  { call: worksCalls.list, spends: false, description: '列出我的作品（视频）及其状态：1 排队、2 合成中、3 成功、4 失败' },
  { call: accountCalls.credits, spends: false, description: '查询我的积分余额' },
  { call: worksCalls.videoChannel, spends: false, description: '列出视频合成通道（api 代码、名称、每秒积分）' },
  {
    call: worksCalls.create, spends: true,
    description: '用一段文案、一个数字分身（video_id）和一个声音（user_voice_id）合成一个视频作品，需要 name、text、api（通道代码）。会扣积分，需用户确认',
  },
  { call: voicesCalls.audition, spends: true, description: '用一个声音（voice_id）试听一段文本（text），生成试听音频。需用户确认' },
  { call: writingCalls.aiWriting, spends: true, description: '根据主题描述（keyword）写一段口播文案，length 为大约字数（0 不限）。需用户确认' },
  {
    call: extractionCalls.videoParse, spends: true,
    description: '提取一个短视频（link 为分享链接或视频地址），去水印后存入我的视频提取记录。今日免费次数用完后会扣积分，需用户确认',
  },
];

/** A tool's name as the chat engine's API allows it (letters, digits, _): the call id with `_` for `.`. */
export const helperToolName = (call: CallDef): string => call.id.replace(/\./g, '_');

/** A plan's and an item's state. */
export const HelperPlanStatus = { Awaiting: 1, Running: 2, Done: 3, Cancelled: 4 } as const;
export const HelperItemStatus = { Waiting: 1, Running: 2, Done: 3, Failed: 4, Cancelled: 5 } as const;

export const HelperItem = z.object({
  id: z.number(),
  /** The call id it runs (works.create …). */
  call: z.string(),
  /** What it will do, in words the user reads on the confirmation card. */
  label: z.string(),
  /** Its estimated price (0: free). */
  credits: z.number(),
  status: z.number(),
  /** Done: what it made (a work's id …) in words; failed: why. */
  result: z.string(),
});
export type HelperItem = z.infer<typeof HelperItem>;

export const HelperPlan = z.object({
  id: z.number(),
  /** 1: a background task (/helper/asyncOperation): runs item after item in a job. */
  async: Flag,
  status: z.number(),
  /** What the user asked for. */
  request: z.string(),
  /** The total price the confirmation names. */
  credits: z.number(),
  items: z.array(HelperItem),
  create_time: Timestamp,
});
export type HelperPlan = z.infer<typeof HelperPlan>;

/** One step of the assistant as it happens: a read tool running and its outcome, or a plan waiting for confirmation. */
export const HelperStep = z.object({
  id: z.string(),
  label: z.string(),
  state: z.enum(['running', 'done', 'failed', 'confirm']),
  result: z.string().optional(),
  plan: HelperPlan.optional(),
});
export type HelperStep = z.infer<typeof HelperStep>;

/** A step replaces the one of the same id (running → done), else joins the list (the screen's and the history's). */
export const withStep = (steps: HelperStep[], step: HelperStep): HelperStep[] =>
  steps.some((s) => s.id === step.id) ? steps.map((s) => (s.id === step.id ? step : s)) : [...steps, step];

/** The assistant's stream: the copy chat's events, plus its steps; the operating stream's first event names its conversation. */
export const HelperEvent = ChatStreamEvent.extend({ step: HelperStep.optional(), cid: z.number().optional() });
export type HelperEvent = z.infer<typeof HelperEvent>;

/** One request of a past conversation and what the assistant did for it; plan: the plan as it stands now. */
export const HelperTurn = z.object({
  id: z.number(),
  question: z.string(),
  answer: z.string(),
  steps: z.array(HelperStep),
  plan: HelperPlan.nullable(),
  error: z.string(),
  create_time: Timestamp,
});
export type HelperTurn = z.infer<typeof HelperTurn>;

export const HelperConversation = z.object({ id: z.number(), async: Flag, title: z.string(), update_time: Timestamp });
export type HelperConversation = z.infer<typeof HelperConversation>;

const question = () => requiredText('问题', MSG.chatContentRequired, H.questionMaxChars);

export const helperCalls = defineGroup('helper', {
  status: userRead('/api/helper/status', {
    summary: 'ours: whether the chat engine is set (the screens say so up front without it), and the tools the assistant may call.',
    response: z.object({ chat: Flag, tools: z.array(z.object({ name: z.string(), description: z.string(), spends: Flag })) }),
  }),
  guide: uncheckedCall('GET', '/api/helper/guide', {
    summary: "ours: unchecked event stream (as the copy chat's) of the answer to a how-to question, grounded in the product's guide, routes and prices; free.",
    request: z.object({ token: streamToken(), q: question() }),
    response: ChatStreamEvent,
  }),
  operate: uncheckedCall('GET', '/api/helper/operate', {
    summary:
      'ours: unchecked event stream of the assistant operating the product: read tools run at once as the user (steps), spending ' +
      'tools end the stream with a plan to confirm (helper.confirm); async=1 makes that plan a background task. Each request is kept ' +
      'in my history: cid continues a conversation of mine (the model sees its last turns), else a new one starts, named by the first event.',
    request: z.object({ token: streamToken(), q: question(), async: flag('后台任务').default(0), cid: optionalId('会话ID') }),
    response: HelperEvent,
  }),
  confirm: userCallById('POST', '/api/helper/confirm', '任务ID', {
    summary: 'ours: the user confirms a plan of mine: its items run as me (at once, or in a background job for a task).',
    response: HelperPlan,
  }),
  cancel: userCall('POST', '/api/helper/cancel', {
    summary: 'ours: cancel what has not started of a plan of mine (one item with item_id, else all of them; a plan not yet confirmed is declined).',
    request: z.object({ id: id('任务ID'), item_id: optionalId('子任务ID') }),
    response: HelperPlan,
  }),
  plans: userList({ path: '/api/helper/plans', pathFromSpec: false, summary: 'ours: my background tasks, latest first, each with its items and their states.' }, HelperPlan),
  conversations: userCall('GET', '/api/helper/conversations', {
    summary: 'ours: my past conversations of one helper screen (async 0 /helper/operation, 1 /helper/asyncOperation), latest first.',
    request: z.object({ async: flag('后台任务').default(0) }),
    response: z.object({ list: z.array(HelperConversation) }),
  }),
  conversation: userCallById('GET', '/api/helper/conversation', '会话ID', {
    summary: 'ours: one past conversation of mine reopened: its turns in order, each plan as it stands now.',
    response: HelperConversation.extend({ turns: z.array(HelperTurn) }),
  }),
  removeConversation: removeById(
    { path: '/api/helper/conversation', pathFromSpec: false, summary: 'ours: delete a past conversation of mine (its confirmed tasks run on).' },
    '会话ID',
  ),
});
