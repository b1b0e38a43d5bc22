/**
 * 二创改写: a finished record's copy rewritten by the chat engine in a style, streamed to the browser as the copy chat
 * streams its answers (ChatStreamEvent) and priced like one of them (LIMITS.chatAnswerCredits): charged when the
 * stream opens, given back when it fails or stops before any text. Nothing is stored: the user copies, saves or
 * takes the rewrite to creation from the screen.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { CopywriteStatus, LIMITS, MSG, type ChatStreamEvent, type RewriteStyle } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ChatEngineError, OpenAiCompatibleChat, resolveChatConfig } from '../../engines/chat';
import { InsufficientCreditsError, refundIn, spendIn } from '../credits';
import { CopywriteRepository } from './copywrite.repository';

const SYSTEM_PROMPT = '你是一名资深的短视频文案编辑，擅长在保留原意和关键信息的前提下对文案进行二次创作。只输出改写后的文案正文，不要解释，不要加标题。';

const STYLE_ASK: Record<Exclude<RewriteStyle, 'custom'>, string> = {
  koubo: '改写成适合真人出镜口播的文案：口语化、短句、节奏紧凑，开头三秒抓住注意力。',
  zhongcao: '改写成种草风格的文案：真实体验感，突出亮点和使用场景，结尾引导关注或下单。',
  zhishi: '改写成知识分享风格的文案：条理清晰，先抛出问题再分点讲解，语气专业而亲切。',
  gaoxiao: '改写成幽默搞笑风格的文案：加入反转和接地气的梗，保持原意，轻松有趣。',
};

export function rewritePrompt(text: string, style: RewriteStyle, instruction?: string): string {
  const ask = style === 'custom' ? `按以下要求改写：${instruction ?? ''}` : STYLE_ASK[style];
  return `${ask}\n\n原文案：\n${text}`;
}

export type RewriteSink = (event: ChatStreamEvent) => void;

export async function streamRewrite(
  ctx: FeatureContext,
  userId: number,
  p: { id: number; style: RewriteStyle; instruction?: string },
  sink: RewriteSink,
  signal: AbortSignal,
  log: FastifyBaseLogger,
): Promise<void> {
  const record = await new CopywriteRepository(ctx.db).own(p.id, userId);
  if (!record || Number(record.status) !== CopywriteStatus.Done || !record.text.trim()) return sink({ message: '', error: MSG.copyRecordMissing, done: 1 });
  const engine = resolveChatConfig(ctx.config.chat, await ctx.settings.all());
  if (!engine) return sink({ message: '', error: MSG.chatEngineMissing, done: 1 });

  const key = `copywrite-rewrite:${record.id}:${randomUUID()}`;
  let spendEntryId: number;
  try {
    spendEntryId = (await ctx.db.tx((q) => spendIn(q, { userId, amount: LIMITS.chatAnswerCredits, action: '文案改写', key }))).entryId;
  } catch (err) {
    if (err instanceof InsufficientCreditsError) return sink({ message: '', error: MSG.insufficientCredits, done: 1 });
    throw err;
  }
  const refund = (error: string) =>
    ctx.db
      .tx((q) => refundIn(q, { userId, spendEntryId, amount: LIMITS.chatAnswerCredits, action: '文案改写失败退回', key: `${key}:failed` }))
      .then(() => sink({ message: '', error, done: 1 }));

  let got = '';
  try {
    const deltas = new OpenAiCompatibleChat(engine).stream(
      [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: rewritePrompt(record.text, p.style, p.instruction) }],
      { model: engine.model, maxTokens: 4096, temperature: 1, signal },
    );
    for await (const delta of deltas) {
      if (!delta.content) continue;
      got += delta.content;
      sink({ message: delta.content });
    }
  } catch (err) {
    if (signal.aborted) {
      log.info({ copyId: record.id, chars: got.length }, 'rewrite stopped by the browser');
      return got ? undefined : refund(MSG.copyRewriteFailed);
    }
    if (!(err instanceof ChatEngineError)) {
      await refund(MSG.copyRewriteFailed);
      throw err;
    }
    log.warn({ copyId: record.id, detail: err.detail, transient: err.transient }, 'rewrite failed');
    return got ? sink({ message: '', error: err.message, done: 1 }) : refund(err.message);
  }
  if (!got.trim()) return refund(MSG.chatEngineBadReply);
  sink({ message: '', done: 1 });
}
