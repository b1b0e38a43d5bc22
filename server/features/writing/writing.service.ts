/**
 * Creation helpers on the chat engine (part 2 §2.2, §5): text polish (or emotion marks with action=emotion)
 * and AI writing. Pause markers `<#s#>` come back exactly as sent (pause-guard.ts).
 * Free: the specification prices none of these (only chat answers cost credits); a per-user rate limit
 * keeps the operator's provider bill in check.
 */
import { PerUserRate } from '../../infra/rate-limit';
import type { FastifyBaseLogger } from 'fastify';
import { EMOTION_MARKS, LIMITS, MSG, countChars, emotionMark, type EmotionMark } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { ServerConfig } from '../../infra/config';
import { ChatEngineError, OpenAiCompatibleChat, resolveChatConfig, type ChatCompletion, type ChatMessage, type ChatOptions } from '../../engines/chat';
import type { SiteSettings } from '../../app-context';
import { protectPauses, restorePauses } from './pause-guard';
import { dropUnknownTags } from './emotion-marks';

/** Engine calls per user per minute, across polish and AI writing. */
export const WRITING_CALLS_PER_MINUTE = 30;

const POLISH_PROMPT = [
  '你是一名专业的短视频口播文案编辑。请润色用户发来的口播台词：修正错别字和病句，让表达更通顺、更口语化、更有感染力。',
  '保持原意、原有语言和大致篇幅，不要扩写成新的内容。',
  '文中形如 {{P1}}、{{P2}} 的标记是停顿占位符：必须原样保留每一个占位符，不得删除、修改、合并或新增，并让它留在语义对应的位置。',
  '只输出润色后的台词正文，不要标题、解释、引号或 Markdown 格式。',
].join('\n');

const EMOTION_PROMPT = [
  '你是一名口播配音导演。请在用户发来的口播台词中加入语气标记，让配音更有情绪。',
  `只能使用以下标记（半角括号、英文小写，原样书写）：${Object.entries(EMOTION_MARKS).map(([k, v]) => `${emotionMark(k as EmotionMark)}${v}`).join('，')}。`,
  '标记紧跟在对应的字句之后，用量适度，通常每两三句话最多一个；不要改动台词的任何文字和标点。',
  '文中形如 {{P1}}、{{P2}} 的标记是停顿占位符：必须原样保留每一个占位符，不得删除、修改、合并或新增。',
  '只输出加好标记的台词，不要任何解释。',
].join('\n');

const WRITING_PROMPT = [
  '你是一名资深的短视频口播文案策划。请根据用户给出的主题描述，写一篇适合数字人口播的中文文案。',
  '要求：口语化、开头三句内抓住注意力、结构清晰、结尾有总结或行动号召；内容真实可信，不编造具体数据。',
  '只输出文案正文：不要标题、不要分镜或画面说明、不要 Markdown 格式、不要表情符号。',
].join('\n');

const clamp = (n: number, min: number, max: number) => Math.min(Math.max(n, min), max);

/** Fences, "以下是…：" lead-ins and wrapping quotes that models add around the text asked for. */
export function cleanModelText(raw: string, original = ''): string {
  let text = raw.replace(/\r\n?/g, '\n').trim();
  const fenced = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(text);
  if (fenced) text = fenced[1]!.trim();
  text = text.replace(/^(?:以下是|下面是|这是)[^\n]{0,40}[：:]\s*\n+/, '').replace(/^(?:润色后(?:的)?(?:文本|台词|文案)?|文案(?:正文)?)[：:]\s*/, '');
  const quoted = /^[“"「]([\s\S]*)[”"」]$/.exec(text);
  if (quoted && !/^[“"「]/.test(original.trim())) text = quoted[1]!.trim();
  return text;
}

/** Markdown a writing answer may carry despite the prompt: headings, bold, list bullets, quotes. */
export function stripMarkdown(text: string): string {
  return text
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/^>\s?/gm, '')
    .replace(/^\s*[-*]\s+/gm, '')
    .replace(/\*\*([^*\n]+)\*\*/g, '$1')
    .replace(/__([^_\n]+)__/g, '$1')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** An answer cut at the token limit ends at its last full sentence (when that keeps most of it). */
function endAtSentence(text: string): string {
  const last = Math.max(...['。', '！', '？', '!', '?', '…'].map((p) => text.lastIndexOf(p)));
  return last >= text.length * 0.6 ? text.slice(0, last + 1) : text;
}

/** One per server: holds the per-user rate limit of engine calls. */
export class WritingService {
  private readonly rate = new PerUserRate(WRITING_CALLS_PER_MINUTE);

  constructor(
    private readonly settings: SiteSettings,
    private readonly chat: ServerConfig['chat'],
  ) {}

  private async complete(call: Caller, messages: ChatMessage[], options: ChatOptions): Promise<ChatCompletion> {
    const resolved = resolveChatConfig(this.chat, await this.settings.all());
    if (!resolved) throw new ApiError(MSG.chatEngineMissing);
    this.rate.take(call.userId);
    try {
      return await new OpenAiCompatibleChat(resolved).complete(messages, options);
    } catch (err) {
      if (err instanceof ChatEngineError) {
        call.log.warn({ call: call.callId, detail: err.detail, transient: err.transient }, 'chat engine failed');
        throw new ApiError(err.message);
      }
      throw err;
    }
  }

  /** The script polished, or with emotion marks added; its pause markers exactly as sent. */
  async polish(call: Caller, original: string, action: 'polish' | 'emotion'): Promise<string> {
    const emotion = action === 'emotion';
    const script = protectPauses(original);
    const answer = await this.complete(
      call,
      [
        { role: 'system', content: emotion ? EMOTION_PROMPT : POLISH_PROMPT },
        { role: 'user', content: script.masked },
      ],
      { temperature: emotion ? 0.3 : 0.7, maxTokens: clamp(Math.ceil(countChars(original) * 2) + 256, 512, 8192) },
    );
    if (answer.finishReason === 'length') throw new ApiError(MSG.polishTooLong);
    let text = cleanModelText(answer.content, original);
    if (emotion) text = dropUnknownTags(text, original);
    let restored;
    try {
      restored = restorePauses(text, script);
    } catch (err) {
      // restorePauses verifies its own result; this is the "cannot happen" path, refused rather than returned wrong.
      call.log.error({ err, markers: script.sites.length }, 'pause markers could not be restored');
      throw new ApiError(MSG.chatEngineBadReply);
    }
    if (restored.reinserted > 0) call.log.info({ reinserted: restored.reinserted, markers: script.sites.length }, 'pause markers put back by position');
    if (!restored.text.trim()) throw new ApiError(MSG.chatEngineBadReply);
    return restored.text;
  }

  /** A script on the theme, of about `length` characters (0: as long as the theme needs). */
  async write(call: Caller, keyword: string, length: number): Promise<string> {
    const lengthRule =
      length > 0
        ? `字数要求：约${length}字（上下浮动不超过10%），约${Math.round(length / LIMITS.charsPerSecond)}秒的口播。`
        : '字数要求：不限，按主题需要自然成文。';
    const answer = await this.complete(
      call,
      [
        { role: 'system', content: WRITING_PROMPT },
        { role: 'user', content: `主题描述：${keyword}\n${lengthRule}` },
      ],
      { temperature: 1.3, maxTokens: length > 0 ? clamp(length * 2 + 256, 512, 4096) : 2048 },
    );
    let content = stripMarkdown(cleanModelText(answer.content));
    if (answer.finishReason === 'length') content = endAtSentence(content);
    if (!content) throw new ApiError(MSG.chatEngineBadReply);
    if (countChars(content) > LIMITS.scriptMaxChars) content = [...content].slice(0, LIMITS.scriptMaxChars).join('');
    return content;
  }
}

/** Who is asking, for the rate limit and the logs. */
export interface Caller {
  userId: number;
  log: FastifyBaseLogger;
  callId?: string;
}
