/**
 * What super replica asks the chat engine, and how each answer is read: every ask names the JSON it wants, and the
 * reader checks it against the contract's shape (askJson asks once more when it does not fit).
 */
import { z } from 'zod';
import { AccountAnalysis, LIMITS, SCRIPT_STYLE_NAMES, ScriptVariant, TopicIdea, VideoAnalysis, type CopySegment, type PersonaDraft, type ScriptStyle } from '../../../src/contract';
import type { ChatMessage } from '../../engines/chat';
import type { ParsedProfile } from '../../engines/parse';
import type { ProductFields } from './replica.repository';

const R = LIMITS.replica;
const ONLY_JSON = '只输出一个 JSON 对象，不要任何解释、标题或代码块标记。';

/** A checked value of `schema`, or undefined. */
const reader =
  <T>(schema: z.ZodType<T>) =>
  (json: unknown): T | undefined => {
    const parsed = schema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
  };

const Variants = z.object({ variants: z.array(ScriptVariant).min(1) }).transform((v) => v.variants);
const Topics = z.object({ topics: z.array(TopicIdea).min(1) }).transform((v) => v.topics);

export const readVideoAnalysis = reader(VideoAnalysis);
export const readAccountAnalysis = reader(AccountAnalysis);
export const readVariants = (max: number) => (json: unknown) => reader(Variants)(json)?.slice(0, max);
export const readTopics = (json: unknown) => reader(Topics)(json)?.slice(0, R.topics);

/** What a prompt tells of a product: its stored fields but the picture. */
export type ProductBrief = Omit<ProductFields, 'image_file_id'>;

const lines = (pairs: [string, string][]) => pairs.filter(([, v]) => v.trim()).map(([k, v]) => `${k}：${v.trim()}`).join('\n');

export const personaBrief = (p: PersonaDraft) =>
  `【人设】\n${lines([['名称', p.name], ['行业', p.industry], ['目标人群', p.audience], ['语气风格', p.tone], ['核心卖点', p.selling_points], ['口头禅', p.catchphrases], ['禁用词（绝不能出现）', p.taboo]])}`;

export const productBrief = (p: ProductBrief | undefined) =>
  p
    ? `【产品】\n${lines([['名称', p.name], ['品类', p.category], ['价格', p.price > 0 ? `${p.price}元` : ''], ['卖点', p.selling_points], ['目标人群', p.audience], ['使用场景', p.scenes]])}`
    : '【产品】无（只做人设内容，不带货）';

export function videoAnalysisAsk(segments: readonly CopySegment[], title: string): ChatMessage[] {
  const system =
    '你是短视频爆款拆解专家。用户给出一条视频的口播文案，每句带开始和结束时间（秒）。请拆解它为什么能火，' +
    '输出 JSON 对象，字段为：hook {text: 前3秒说了什么, why: 为什么能让人停止划走}；' +
    'structure: 数组，每项 {start, end（秒，取自句子时间）, beat: 这一段做了什么, purpose: 目的}；emotion: 情绪与节奏；' +
    'persuasion: 转化手法（字符串数组）；ending: 结尾引导；patterns: 可复用的句式（字符串数组，用【】标出可替换处）；' +
    `score: 0-100 的爆款潜力分；summary: 一句话总结。${ONLY_JSON}`;
  const copy = segments.map((s) => ({ start: s.start, end: s.end, text: s.text }));
  return [
    { role: 'system', content: system },
    { role: 'user', content: `${title ? `标题：${title}\n` : ''}文案：${JSON.stringify(copy)}` },
  ];
}

export function mimicAsk(analysis: VideoAnalysis, copy: string, persona: PersonaDraft, product: ProductBrief | undefined): ChatMessage[] {
  const system =
    '你是短视频编剧。请仿写一条爆款视频：保留原视频的结构、节奏、钩子方式和可复用句式，但换成用户人设的口吻，' +
    `内容围绕用户的产品（没有产品就围绕人设的领域），不得照抄原文，不得出现禁用词。写 ${R.variants} 个不同的版本，` +
    `输出 JSON 对象 {variants: [{title: 版本标题, text: 可直接口播的完整文案}]}。${ONLY_JSON}`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: `【原视频文案】\n${copy}\n\n【原视频拆解】\n${JSON.stringify(analysis)}\n\n${personaBrief(persona)}\n\n${productBrief(product)}` },
  ];
}

/** A profile as the account analysis reads it: who, their bio, their reach, and their posts with the most liked first. */
export function profileText(p: ParsedProfile): string {
  const posts = [...p.posts].sort((a, b) => b.likes - a.likes).map((post, i) => `${i + 1}. ${post.desc}（点赞 ${post.likes}）`);
  return [`【账号】${p.nickname}（粉丝 ${p.followers}）`, `【简介】${p.signature || '（无）'}`, `【近期作品】\n${posts.join('\n') || '（无）'}`].join('\n');
}

export function accountAsk(description: string): ChatMessage[] {
  const system =
    '你是短视频账号定位分析师。用户粘贴了一个账号的主页简介和近期作品描述。请分析并输出 JSON 对象：' +
    'positioning: 账号定位；audience: 目标人群；pillars: 内容支柱（字符串数组）；top_posts: 爆款作品的共同点；' +
    'persona: 可借鉴的人设草稿 {name, industry, audience, tone, selling_points, catchphrases, taboo}（均为字符串）。' +
    ONLY_JSON;
  return [{ role: 'system', content: system }, { role: 'user', content: description }];
}

export function topicAsk(persona: PersonaDraft, product: ProductBrief | undefined): ChatMessage[] {
  const system =
    `你是短视频选题策划。根据人设和产品给出 ${R.topics} 个选题，每个附一句切入角度，` +
    `输出 JSON 对象 {topics: [{title: 选题, angle: 一句话切入角度}]}。${ONLY_JSON}`;
  return [{ role: 'system', content: system }, { role: 'user', content: `${personaBrief(persona)}\n\n${productBrief(product)}` }];
}

export function generateAsk(persona: PersonaDraft, product: ProductBrief | undefined, g: { topic: string; seconds: number; style: ScriptStyle }): ChatMessage[] {
  const system =
    `你是短视频编剧。按人设口吻、围绕选题写一条约 ${g.seconds} 秒的${SCRIPT_STYLE_NAMES[g.style]}风格口播脚本（约每秒4个字），` +
    `开头三秒要有钩子，结尾要有引导，不得出现禁用词。输出 JSON 对象 {variants: [{title: 标题, text: 完整口播文案}]}，只写一个版本。${ONLY_JSON}`;
  return [{ role: 'system', content: system }, { role: 'user', content: `【选题】${g.topic}\n\n${personaBrief(persona)}\n\n${productBrief(product)}` }];
}
