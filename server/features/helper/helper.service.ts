/**
 * The 超级助手 (issue 32). Every tool is one of our calls (src/contract/calls/helper.ts), and it runs as the user
 * through that call's own route (app.inject with the user's session): the same parsing, ownership checks, limits and
 * spending as the workbench's, so the assistant can reach nothing the user could not. Read tools run at once; the
 * spending ones become a plan the user confirms (helper.confirm) before any of it runs.
 */
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import {
  API, HELPER_TOOLS, HelperItemStatus, HelperPlanStatus, LIMITS, MSG, PhotoType, ROUTES, TOKEN_HEADER, estimateSeconds, helperToolName, openReply, paramsInQuery,
  sealRequest, withStep, workCredits, type CallDef, type HelperConversation, type HelperTurn, type HelperEvent, type HelperPlan, type HelperStep, type HelperTool,
} from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { serverEnvelopeKeys } from '../../infra/envelope-keys';
import { ApiError, validationMessage } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import { ChatEngineError, OpenAiCompatibleChat, resolveChatConfig, type ChatMessage, type ChatTool, type ChatToolCall } from '../../engines/chat';
import { creditBalance } from '../credits';
import { GuideRepository } from '../guide';
import { HelperRepository, type ConversationRow, type ItemRow, type NewItem, type NewTurn, type PlanRow } from './helper.repository';

const H = LIMITS.helper;
type Emit = (event: HelperEvent) => void;
interface Answer { code: number; msg: string; data: unknown }

/** Calls `call` as the holder of `token`, through its route: exactly what the browser's call would do. */
export async function callAs(ctx: FeatureContext, token: string, call: CallDef, params: unknown): Promise<Answer> {
  const fields: Record<string, string> = call.checked
    ? sealRequest(params, undefined, serverEnvelopeKeys)
    : Object.fromEntries(Object.entries(params as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
  const form = new URLSearchParams(fields).toString();
  const inQuery = paramsInQuery(call.method);
  const res = await ctx.app.inject({
    method: call.method, url: inQuery ? `${call.path}?${form}` : call.path, remoteAddress: '127.0.0.1',
    headers: { [TOKEN_HEADER]: token, ...(inQuery ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
    ...(inQuery ? {} : { payload: form }),
  });
  const body = res.json() as Record<string, unknown>;
  if (!call.checked || !('sign' in body)) return { code: Number(body.code), msg: String(body.msg ?? ''), data: body.data ?? null };
  const opened = openReply(body, undefined, serverEnvelopeKeys);
  if (!opened.ok) return { code: 1, msg: MSG.serverError, data: null };
  return opened.value;
}

/** The tools as the chat engine is told them: each call's name, description and request schema. */
export const CHAT_TOOLS: ChatTool[] = HELPER_TOOLS.map((t) => {
  const { $schema: _schema, ...parameters } = z.toJSONSchema(t.call.request, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return { name: helperToolName(t.call), description: t.description, parameters };
});
const toolByName = new Map(HELPER_TOOLS.map((t) => [helperToolName(t.call), t]));

/** The first `max` characters of `text`, with … when cut. */
function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}

/** A tool's answer in a few words for its step (the model reads the whole answer). */
function summary(a: Answer): string {
  if (a.code !== 0) return a.msg;
  const data = a.data as Record<string, unknown> | null;
  if (Array.isArray(data?.list)) return `共 ${data.list.length} 项`;
  if (typeof data?.credits === 'number') return `${data.credits} 积分`;
  if (typeof data?.content === 'string') return data.content;
  if (typeof data?.id === 'number') return `已创建（ID ${data.id}）`;
  if (typeof data?.job_id === 'string') return '已开始';
  return '已完成';
}

const STEP_NAMES: Record<string, string> = {
  'avatars.list': '查看数字分身', 'voices.list': '查看声音', 'works.list': '查看作品', 'account.credits': '查询积分', 'works.videoChannel': '查看视频通道',
  'works.create': '合成视频', 'voices.audition': '试听声音', 'writing.aiWriting': 'AI写文案', 'extraction.videoParse': '提取视频',
};
const stepName = (t: HelperTool) => STEP_NAMES[t.call.id] ?? t.call.id;

const conversationView = (c: ConversationRow): HelperConversation => ({ id: c.id, async: Number(c.async) ? 1 : 0, title: c.title, update_time: formatDateTime(c.updated_at) });

export class HelperService {
  constructor(private readonly ctx: FeatureContext) {}

  private get repo() {
    return new HelperRepository(this.ctx.db);
  }

  async engine() {
    return resolveChatConfig(this.ctx.config.chat, await this.ctx.settings.all());
  }

  /** The guide the how-to answers stand on: the pages, the tutorials, the prices (the video channels' from the operator). */
  private async guideFacts(token: string): Promise<string> {
    const pages = ROUTES.filter((r) => r.nav).map((r) => `${r.title}（${r.path}）`).join('、');
    const tutorials = (await new GuideRepository(this.ctx.db).listAll()).map((g) => `${g.category}·${g.name}`).join('、') || '暂无';
    const channels = await callAs(this.ctx, token, API.works.videoChannel, {});
    const data = channels.data as { list?: { name: string; api: string; credits: number }[]; multi?: { name: string; credits: number } } | null;
    const list = (data?.list ?? []).map((c) => `${c.name}（${c.api}）每秒 ${c.credits} 积分`).join('；');
    const multi = data?.multi ? `多场景创作由${data.multi.name}合成，每秒 ${data.multi.credits} 积分` : '多场景创作暂无可用通道';
    return [
      `页面：${pages}`,
      `教程（使用教程 /use）：${tutorials}`,
      `视频合成价格：${list || '暂无可用通道'}。${MSG.estimateSettles}`,
      `${multi}；文案对话每条回答 ${LIMITS.chatAnswerCredits} 积分；文案提取每条 ${LIMITS.copywrite.credits} 积分。`,
      `常见提示：${[MSG.insufficientCredits, MSG.avatarNotReady, MSG.chatEngineMissing].join('；')}`,
    ].join('\n');
  }

  /** A how-to answer from the guide, streamed. Free. */
  async guide(user: { token: string }, q: string, emit: Emit, signal: AbortSignal, log: FastifyBaseLogger): Promise<void> {
    const engine = await this.engine();
    if (!engine) return emit({ message: '', error: MSG.chatEngineMissing, done: 1 });
    const system = `你是「AI超级分身」产品的使用助手，用简洁的中文回答用户关于如何使用本产品的问题。只依据下面的产品资料回答，资料里没有的就说不清楚并建议联系客服。\n${await this.guideFacts(user.token)}`;
    await this.relay(new OpenAiCompatibleChat(engine), [{ role: 'system', content: system }, { role: 'user', content: q }], emit, signal, log);
  }

  /** Streams the model's text to `emit`; answers the tools it asks for (none when it answered in words). */
  private async relay(chat: OpenAiCompatibleChat, messages: ChatMessage[], emit: Emit, signal: AbortSignal, log: FastifyBaseLogger, tools?: ChatTool[]): Promise<{ content: string; calls: ChatToolCall[] } | null> {
    let content = '';
    let calls: ChatToolCall[] = [];
    try {
      for await (const delta of chat.stream(messages, { temperature: 0.3, maxTokens: 2048, signal, tools })) {
        if (delta.content) {
          content += delta.content;
          emit({ message: delta.content });
        }
        if (delta.toolCalls) calls = delta.toolCalls;
      }
    } catch (err) {
      if (signal.aborted) return null;
      if (!(err instanceof ChatEngineError)) throw err;
      log.warn({ detail: err.detail, transient: err.transient }, 'helper answer failed');
      emit({ message: '', error: err.message, done: 1 });
      return null;
    }
    if (!tools) emit({ message: '', done: 1, ...(content.trim() ? {} : { error: MSG.helperNoAnswer }) });
    return { content, calls };
  }

  /**
   * Operates the product for the request `q`: rounds of the model asking for tools, read tools answered at once (each a
   * step), until it answers in words or asks for spending tools, which end the stream as a plan to confirm.
   */
  async operate(user: { id: number; token: string }, input: { q: string; async: number; cid?: number }, emit: Emit, signal: AbortSignal, log: FastifyBaseLogger): Promise<void> {
    const engine = await this.engine();
    if (!engine) return emit({ message: '', error: MSG.chatEngineMissing, done: 1 });
    const isAsync = input.async === 1;
    const conversation = input.cid === undefined ? undefined : await this.repo.conversation(user.id, input.cid, isAsync);
    if (input.cid !== undefined && !conversation) return emit({ message: '', error: MSG.helperConversationMissing, done: 1 });
    const earlier = conversation ? await this.repo.turns(conversation.id, H.historyTurns) : [];
    const cid = conversation?.id ?? (await this.repo.addConversation(user.id, isAsync, clip(input.q, H.titleMaxChars)));
    emit({ message: '', cid });
    // What the user saw, kept as the turn when the stream ends (however it ends).
    const kept: NewTurn = { question: input.q, answer: '', steps: [], planId: null, error: '' };
    const record: Emit = (e) => {
      kept.answer += e.message;
      if (e.error) kept.error = e.error;
      if (e.step?.plan) kept.planId = e.step.plan.id;
      else if (e.step) kept.steps = withStep(kept.steps, e.step);
      emit(e);
    };
    const context: ChatMessage[] = earlier.flatMap((t) => [
      { role: 'user' as const, content: t.question },
      { role: 'assistant' as const, content: t.answer || t.error || (t.plan_id ? '已提出操作，等待用户确认。' : '（无回答）') },
    ]);
    try {
      await this.rounds(new OpenAiCompatibleChat(engine), user, input, context, record, signal, log);
    } finally {
      await this.repo.addTurn(cid, kept);
    }
  }

  /** The model's rounds for one request, after the conversation's earlier turns. */
  private async rounds(
    chat: OpenAiCompatibleChat, user: { id: number; token: string }, input: { q: string; async: number }, context: ChatMessage[], emit: Emit, signal: AbortSignal, log: FastifyBaseLogger,
  ): Promise<void> {
    const system =
      '你是「AI超级分身」的运营助手，通过工具替用户操作本产品，用简洁的中文说明你做了什么。先用查询工具找到需要的ID（数字分身、声音、通道），不要编造ID。' +
      '需要花积分或生成内容的操作直接调用对应工具，系统会先请用户确认价格，你不必再问。' +
      (input.async ? '这是后台批量任务：用户要求对多段内容分别处理时，在同一轮里为每一项各调用一次工具。' : '');
    const messages: ChatMessage[] = [{ role: 'system', content: system }, ...context, { role: 'user', content: input.q }];
    for (let round = 0; round < H.maxRounds; round++) {
      const turn = await this.relay(chat, messages, emit, signal, log, CHAT_TOOLS);
      if (!turn) return;
      if (!turn.calls.length) return emit({ message: '', done: 1, ...(turn.content.trim() ? {} : { error: MSG.helperNoAnswer }) });
      messages.push({ role: 'assistant', content: turn.content, toolCalls: turn.calls });
      const proposed: NewItem[] = [];
      for (const call of turn.calls) {
        const answer = await this.toolCall(user, call, proposed, emit);
        messages.push({ role: 'tool', toolCallId: call.id, content: answer.slice(0, H.toolAnswerMaxChars) });
      }
      if (proposed.length > H.maxItems) return emit({ message: '', error: MSG.helperTooManyItems(H.maxItems), done: 1 });
      if (proposed.length) {
        const planId = await this.repo.addPlan(user.id, { async: input.async === 1, request: input.q, items: proposed });
        const plan = await this.view(user.id, planId);
        emit({ message: '', step: { id: `plan-${planId}`, label: '请确认以下操作', state: 'confirm', plan } });
        return emit({ message: '', done: 1 });
      }
    }
    emit({ message: '', error: MSG.helperNoAnswer, done: 1 });
  }

  /** One tool call of the model: a read tool runs now (a step); a spending one is checked, priced and kept for the plan. */
  private async toolCall(user: { token: string }, call: ChatToolCall, proposed: NewItem[], emit: Emit): Promise<string> {
    const tool = toolByName.get(call.name);
    if (!tool) return MSG.helperToolUnknown;
    let args: unknown;
    try {
      args = call.arguments.trim() ? JSON.parse(call.arguments) : {};
    } catch {
      args = undefined;
    }
    const parsed = tool.call.request.safeParse(args ?? null);
    const step = (s: Omit<HelperStep, 'id' | 'label'>) => emit({ message: '', step: { id: call.id, label: stepName(tool), ...s } });
    if (!parsed.success || typeof args !== 'object' || args === null) {
      const why = parsed.success ? MSG.helperArgsInvalid : validationMessage(parsed.error);
      step({ state: 'failed', result: why });
      return why;
    }
    if (tool.spends) {
      const card = await this.card(user.token, tool, parsed.data as Record<string, unknown>);
      if ('refused' in card) {
        step({ state: 'failed', result: card.refused });
        return card.refused;
      }
      proposed.push({ callId: tool.call.id, params: args, ...card });
      return '已加入待确认的操作，等待用户确认';
    }
    step({ state: 'running' });
    const answer = await callAs(this.ctx, user.token, tool.call, args);
    step({ state: answer.code === 0 ? 'done' : 'failed', result: summary(answer) });
    return answer.code === 0 ? JSON.stringify(answer.data) : answer.msg;
  }

  /**
   * What a spending item will do and its price, for the confirmation card: the avatar, voice and channel by their names,
   * looked up as the user through the list calls, so an id the user may not use is refused before any card.
   */
  private async card(token: string, tool: HelperTool, p: Record<string, unknown>): Promise<{ label: string; credits: number } | { refused: string }> {
    const short = (v: unknown) => clip(String(v ?? ''), H.labelClipChars);
    if (tool.call === API.works.create) {
      const avatar = typeof p.video_id === 'number' ? await this.nameOf(token, API.avatars.list, p.video_id) : '';
      if (avatar === undefined) return { refused: MSG.helperAvatarMissing };
      // A photo-speak picture (person or pet) as the avatar.
      const photo = typeof p.photo_id === 'number' ? await this.nameOf(token, API.photo.list, p.photo_id, [{ type: PhotoType.Person }, { type: PhotoType.Pet }]) : '';
      if (photo === undefined) return { refused: MSG.photoMissing };
      const voice = typeof p.user_voice_id === 'number' ? await this.nameOf(token, API.voices.list, p.user_voice_id) : '';
      if (voice === undefined) return { refused: MSG.helperVoiceMissing };
      const channels = await callAs(this.ctx, token, API.works.videoChannel, {});
      const channel = (channels.data as { list?: { api: string; name: string; credits: number }[] } | null)?.list?.find((c) => c.api === p.api);
      if (!channel) return { refused: MSG.channelUnavailable };
      const text = String(p.text ?? '');
      const credits = workCredits(estimateSeconds(text, typeof p.rate === 'number' ? p.rate : 1), channel.credits);
      const who = [avatar && `分身「${avatar}」`, photo && `照片「${photo}」`, voice && `声音「${voice}」`, `通道「${channel.name}」`].filter(Boolean).join('，');
      return { label: `合成视频「${String(p.name ?? '')}」：${who}，文案「${short(text)}」`, credits };
    }
    if (tool.call === API.voices.audition) {
      const voice = await this.nameOf(token, API.voices.list, Number(p.voice_id));
      return voice === undefined ? { refused: MSG.helperVoiceMissing } : { label: `试听声音「${voice}」：「${short(p.text)}」`, credits: 0 };
    }
    if (tool.call === API.writing.aiWriting) return { label: `AI写文案：「${short(p.keyword)}」`, credits: 0 };
    if (tool.call === API.extraction.videoParse) {
      // The operator's free daily extractions pay first, as the extraction route charges.
      const list = await callAs(this.ctx, token, API.extraction.videoList, { page: 1, limit: 1 });
      const free = Number((list.data as { num?: number } | null)?.num ?? 0);
      return { label: `提取视频：「${short(p.link)}」${free > 0 ? `（今日免费次数还剩 ${free} 次）` : ''}`, credits: free > 0 ? 0 : LIMITS.extractionCredits };
    }
    return { label: stepName(tool), credits: 0 };
  }

  /** The name of one of the user's own or a public avatar or voice, by id, as the user sees it (undefined: not theirs to use). */
  /** The name of a thing the user may use (theirs, then public), through its list call; `kinds` adds each kind's own filter. */
  private async nameOf(token: string, list: CallDef, id: number, kinds: Record<string, unknown>[] = [{}]): Promise<string | undefined> {
    for (const kind of kinds) {
      for (const source of [1, 2]) {
        const answer = await callAs(this.ctx, token, list, { ...kind, source, page: 1, limit: LIMITS.listLimitAll });
        const found = (answer.data as { list?: { id: number; name: string }[] } | null)?.list?.find((x) => x.id === id);
        if (found) return found.name;
      }
    }
    return undefined;
  }

  async view(userId: number, planId: number): Promise<HelperPlan> {
    const plan = await this.repo.plan(userId, planId);
    if (!plan) throw new ApiError(MSG.helperPlanMissing);
    return (await this.views([plan]))[0]!;
  }

  async views(plans: PlanRow[]): Promise<HelperPlan[]> {
    const items = await this.repo.items(plans.map((p) => p.id));
    return plans.map((p) => {
      const mine = items.filter((i) => i.plan_id === p.id);
      return {
        id: p.id, async: Number(p.async) ? 1 : 0, status: Number(p.status), request: p.request, create_time: formatDateTime(p.created_at),
        credits: mine.reduce((sum, i) => sum + Number(i.credits), 0),
        items: mine.map((i) => ({ id: i.id, call: i.call_id, label: i.label, credits: Number(i.credits), status: Number(i.status), result: i.result })),
      };
    });
  }

  // ---- history

  async conversations(userId: number, async: boolean): Promise<HelperConversation[]> {
    return (await this.repo.conversations(userId, async, H.historySize)).map(conversationView);
  }

  /** A past conversation of mine reopened, each turn's plan as it stands now. */
  async conversation(userId: number, id: number): Promise<HelperConversation & { turns: HelperTurn[] }> {
    const conversation = await this.repo.conversation(userId, id);
    if (!conversation) throw new ApiError(MSG.helperConversationMissing);
    const turns = await this.repo.turns(conversation.id);
    const plans = new Map((await this.views(await this.repo.plansOf(userId, turns.flatMap((t) => (t.plan_id ? [t.plan_id] : []))))).map((p) => [p.id, p]));
    return {
      ...conversationView(conversation),
      turns: turns.map((t) => ({
        id: t.id, question: t.question, answer: t.answer, steps: JSON.parse(t.steps) as HelperStep[], plan: (t.plan_id && plans.get(t.plan_id)) || null, error: t.error,
        create_time: formatDateTime(t.created_at),
      })),
    };
  }

  async removeConversation(userId: number, id: number): Promise<Record<string, never>> {
    if (!(await this.repo.removeConversation(userId, id))) throw new ApiError(MSG.helperConversationMissing);
    return {};
  }

  /** The user confirms: checked against the balance for the total, then run now, or queued as a background task. */
  async confirm(user: { id: number; token: string }, planId: number): Promise<HelperPlan> {
    const plan = await this.repo.plan(user.id, planId);
    if (!plan) throw new ApiError(MSG.helperPlanMissing);
    if (Number(plan.status) !== HelperPlanStatus.Awaiting) throw new ApiError(MSG.helperPlanNotAwaiting);
    const total = (await this.views([plan]))[0]!.credits;
    if ((await creditBalance(this.ctx.db, user.id)) < total) throw new ApiError(MSG.insufficientCredits);
    if (!(await this.repo.startPlan(plan.id))) throw new ApiError(MSG.helperPlanNotAwaiting);
    if (Number(plan.async)) await this.ctx.queue.send('helper-run', { planId: plan.id });
    else await this.runItems(plan.id, user.token);
    return this.view(user.id, plan.id);
  }

  async cancel(userId: number, planId: number, itemId?: number): Promise<HelperPlan> {
    const plan = await this.repo.plan(userId, planId);
    if (!plan) throw new ApiError(MSG.helperPlanMissing);
    if (!(await this.repo.cancel(plan.id, itemId))) throw new ApiError(MSG.helperNothingToCancel);
    return this.view(userId, plan.id);
  }

  /** Runs the waiting items one after another as the holder of `token`; each item's outcome is its call's answer. */
  async runItems(planId: number, token: string): Promise<void> {
    for (let item: ItemRow | undefined; (item = await this.repo.claimNext(planId)); ) {
      const tool = HELPER_TOOLS.find((t) => t.call.id === item!.call_id);
      const answer = tool ? await callAs(this.ctx, token, tool.call, JSON.parse(item.params)) : { code: 1, msg: MSG.helperToolUnknown, data: null };
      await this.repo.finishItem(item.id, answer.code === 0 ? HelperItemStatus.Done : HelperItemStatus.Failed, summary(answer));
    }
    await this.repo.endIfSettled(planId);
  }

  /** The background task's job: as its user, through a session of its own that ends with it. */
  async runTask(planId: number): Promise<void> {
    const plan = await this.repo.planById(planId);
    if (!plan || Number(plan.status) !== HelperPlanStatus.Running) return;
    // A retried job: an item the stopped attempt had started may or may not have run.
    await this.repo.failRunning(plan.id, MSG.helperInterrupted);
    const token = await this.ctx.sessions.create(this.ctx.db, plan.user_id, '127.0.0.1');
    try {
      await this.runItems(plan.id, token);
    } finally {
      await this.ctx.sessions.revoke(token);
    }
  }
}
