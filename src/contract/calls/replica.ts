/**
 * Super replica (超级复刻; part 2 §2.1 /explosiveAnalysis and its children, §7 /api/tikTok/profile, /api/tikTok/product,
 * /api/coze/analysisIp listed as existing, analysisVideo, generateScript, mimicScript, topic by name; issue 30): my
 * personas and my products, a viral video's structured analysis (its copy read as copy extraction reads it, then the
 * chat engine's answer in the shape below), 仿写 for a persona and product, an account's positioning from a pasted
 * description, topic ideas and scripts.
 *
 * The persona, product, analysisVideo and mimicScript fields are the (interfaces other checks use); the rest
 * is ours. Every chat answer is asked for as JSON of the shapes below, checked, asked once more, then refused and
 * refunded; each costs LIMITS.chatAnswerCredits, a video analysis REPLICA_VIDEO_CREDITS.
 */
import { z } from 'zod';
import { defineGroup, userCall, specCall } from '../call';
import { LIMITS } from '../limits';
import { MSG } from '../messages';
import { empty, id, int, num, requiredText, text } from '../schema';
import { CopySegment, REWRITE_STYLE_NAMES, videoSourceRequest } from './copywrite';
import { Timestamp, countedPage, intOneOf, optionalId, recordPageRequest, removeById, requiredId, specPageRead, userPageRead, userRead } from './fields';

const R = LIMITS.replica;

/** A video analysis costs the copy extraction and one chat answer. */
export const REPLICA_VIDEO_CREDITS = LIMITS.copywrite.credits + LIMITS.chatAnswerCredits;

/** ReplicaVideo.status: 1 queued, 2 being read and analysed, 3 done, 4 failed (reason says why; credits given back). */
export const ReplicaStatus = { Queued: 1, Running: 2, Done: 3, Failed: 4 } as const;
export const REPLICA_STATUS_NAMES: Record<number, string> = { 1: '排队中', 2: '分析中', 3: '已完成', 4: '失败' };

/** The styles a script may be written in (the 二创 styles' names, without the custom one). */
export const SCRIPT_STYLES = ['koubo', 'zhongcao', 'zhishi', 'gaoxiao'] as const;
export type ScriptStyle = (typeof SCRIPT_STYLES)[number];
export const SCRIPT_STYLE_NAMES: Record<ScriptStyle, string> = {
  koubo: REWRITE_STYLE_NAMES.koubo, zhongcao: REWRITE_STYLE_NAMES.zhongcao, zhishi: REWRITE_STYLE_NAMES.zhishi, gaoxiao: REWRITE_STYLE_NAMES.gaoxiao,
};

/** A short free-text field of a persona or product ('' when left out). */
const field = (label: string) => z.preprocess((v) => (v === null || v === undefined ? '' : v), text(label, R.fieldMaxChars));

const personaFields = {
  name: requiredText('人设名称', MSG.replicaPersonaNameRequired, R.nameMaxChars),
  industry: field('行业'),
  audience: field('目标人群'),
  tone: field('语气风格'),
  selling_points: field('核心卖点'),
  catchphrases: field('口头禅'),
  taboo: field('禁用词'),
};
export const PersonaDraft = z.object(personaFields);
export type PersonaDraft = z.infer<typeof PersonaDraft>;

export const Persona = z.object({
  id: z.number(), name: z.string(), industry: z.string(), audience: z.string(), tone: z.string(),
  selling_points: z.string(), catchphrases: z.string(), taboo: z.string(), create_time: Timestamp,
});
export type Persona = z.infer<typeof Persona>;

export const Product = z.object({
  id: z.number(), name: z.string(), category: z.string(),
  /** Yuan, two decimals. */
  price: z.number(),
  selling_points: z.string(), audience: z.string(), scenes: z.string(),
  /** The picture's URL, '' without one; image_id: its uploaded file (0 without). */
  image: z.string(), image_id: z.number(), create_time: Timestamp,
});
export type Product = z.infer<typeof Product>;

/** What the chat engine is asked for about a video's copy; the screen renders each part. */
export const VideoAnalysis = z.object({
  /** 开头钩子: the first 3 s as said, and why it stops the scroll. */
  hook: z.object({ text: z.string().min(1), why: z.string().min(1) }),
  /** 结构: the beats with their times (seconds) and purpose. */
  structure: z.array(z.object({ start: z.number().min(0), end: z.number().min(0), beat: z.string().min(1), purpose: z.string().min(1) })).min(1),
  /** 情绪与节奏. */
  emotion: z.string().min(1),
  /** 转化手法. */
  persuasion: z.array(z.string().min(1)).min(1),
  /** 结尾引导. */
  ending: z.string().min(1),
  /** 可复用的句式. */
  patterns: z.array(z.string().min(1)).min(1),
  /** 0–100. */
  score: z.number().min(0).max(100),
  /** One line of why the video works. */
  summary: z.string(),
});
export type VideoAnalysis = z.infer<typeof VideoAnalysis>;

export const ReplicaVideo = z.object({
  id: z.number(),
  status: z.number(),
  /** CopywriteType: 1 link, 2 upload. */
  type: z.number(),
  link: z.string(),
  title: z.string(),
  /** The video's copy and its timed sentences, once read. */
  text: z.string(),
  segments: z.array(CopySegment),
  duration: z.number(),
  analysis: VideoAnalysis.nullable(),
  /** A frame of the video, once it was read ('' before). */
  cover: z.string(),
  reason: z.string().optional(),
  create_time: Timestamp,
});
export type ReplicaVideo = z.infer<typeof ReplicaVideo>;

/** An account's positioning, read from what the user pasted. */
export const AccountAnalysis = z.object({
  positioning: z.string().min(1),
  audience: z.string().min(1),
  pillars: z.array(z.string().min(1)).min(1),
  /** What their top posts share. */
  top_posts: z.string().min(1),
  persona: z.object({
    name: z.string().min(1), industry: z.string(), audience: z.string(), tone: z.string(),
    selling_points: z.string(), catchphrases: z.string(), taboo: z.string(),
  }),
});
export type AccountAnalysis = z.infer<typeof AccountAnalysis>;

export const ReplicaAccount = z.object({ id: z.number(), description: z.string(), analysis: AccountAnalysis, create_time: Timestamp });
export type ReplicaAccount = z.infer<typeof ReplicaAccount>;

export const ScriptVariant = z.object({ title: z.string().min(1), text: z.string().min(1) });
export type ScriptVariant = z.infer<typeof ScriptVariant>;

/** A kept script: a 仿写 of an analysis (kind mimic) or a script from a topic (kind generate). */
export const ReplicaScript = z.object({
  id: z.number(),
  kind: z.enum(['mimic', 'generate']),
  /** The analysis a 仿写 followed (0 for a generated one). */
  analysis_id: z.number(),
  persona_name: z.string(),
  product_name: z.string(),
  topic: z.string(),
  variants: z.array(ScriptVariant),
  create_time: Timestamp,
});
export type ReplicaScript = z.infer<typeof ReplicaScript>;

export const TopicIdea = z.object({ title: z.string().min(1), angle: z.string().min(1) });
export type TopicIdea = z.infer<typeof TopicIdea>;

const personaId = () => requiredId(MSG.replicaPersonaRequired);
const productId = () => optionalId('产品');

export const replicaCalls = defineGroup('replica', {
  engine: userRead('/api/coze/engine', {
    summary:
      'ours: whether the copywriting chat engine is configured (the screens say MSG.replicaChatMissing when not), whether profile links can be read ' +
      '(the link-parse engine has profile routes; /explosiveAnalysis/user says so up front), and the prices.',
    response: z.object({ ready: z.boolean(), profiles: z.boolean(), answer_credits: z.number(), video_credits: z.number() }),
  }),
  personas: specPageRead('/api/tikTok/profile', { summary: 'My personas (人设), newest first.', response: countedPage(Persona) }),
  personaSave: specCall('POST', '/api/tikTok/profile', {
    summary: `Add a persona, or update it with id; at most ${R.maxPersonas}.`,
    request: z.object({ id: optionalId('人设'), ...personaFields }),
    response: z.object({ id: z.number() }),
  }),
  personaRemove: removeById({ path: '/api/tikTok/profile', pathFromSpec: true, summary: 'Delete a persona.' }, '人设'),
  products: specPageRead('/api/tikTok/product', { summary: 'My products, newest first.', response: countedPage(Product) }),
  productSave: specCall('POST', '/api/tikTok/product', {
    summary: `Add a product, or update it with id; image: the file id of an uploaded picture (absent or 0: none); at most ${R.maxProducts}.`,
    request: z.object({
      id: optionalId('产品'),
      name: requiredText('产品名称', MSG.replicaProductNameRequired, R.nameMaxChars),
      category: field('品类'),
      price: z.preprocess((v) => (v === '' || v === null || v === undefined ? 0 : v), num('价格', 0, R.maxPrice)).transform((v) => Math.round(v * 100) / 100),
      selling_points: field('卖点'),
      audience: field('目标人群'),
      scenes: field('使用场景'),
      image: z.preprocess((v) => (v === 0 || v === '0' ? undefined : v), optionalId('产品图片')),
    }),
    response: z.object({ id: z.number() }),
  }),
  productRemove: removeById({ path: '/api/tikTok/product', pathFromSpec: true, summary: 'Delete a product.' }, '产品'),
  analyseVideo: userCall('POST', '/api/coze/analysisVideo', {
    summary: `Analyse a viral video: a link (type 1; a share text is fine) or an uploaded video (type 2); a job reads its copy, then the chat engine its structure. ${REPLICA_VIDEO_CREDITS} credits, given back when it fails.`,
    request: videoSourceRequest,
    response: z.object({ id: z.number() }),
  }),
  videos: userCall('GET', '/api/coze/analysisVideo', {
    summary: 'The user\'s video analyses, newest first; id (ours): that record alone.',
    request: recordPageRequest,
    response: countedPage(ReplicaVideo),
  }),
  videoRemove: removeById({ path: '/api/coze/analysisVideo', pathFromSpec: false, summary: 'ours: delete a video analysis.' }, '记录ID'),
  mimic: userCall('POST', '/api/coze/mimicScript', {
    summary: `仿写: ${R.variants} scripts with the analysed video's structure and rhythm, in the persona's voice, about the product (optional); kept. ${LIMITS.chatAnswerCredits} credits.`,
    request: z.object({ id: id('记录ID'), persona_id: personaId(), product_id: productId() }),
    response: z.object({ id: z.number(), variants: z.array(ScriptVariant) }),
  }),
  analyseAccount: specCall('POST', '/api/coze/analysisIp', {
    summary:
      `An account's positioning, audience, content pillars, what its top posts share and a persona draft, from its profile link (read through the link-parse engine's ` +
      `profile and posts routes: name, bio, followers, latest posts with their likes) and/or a pasted description; kept. ${LIMITS.chatAnswerCredits} credits.`,
    request: z
      .object({
        description: text('账号描述', R.descriptionMaxChars).optional(),
        link: text('主页链接', LIMITS.linkMaxChars).optional(),
      })
      .refine((r) => !!(r.description || r.link), { message: MSG.replicaDescriptionRequired }),
    response: z.object({ id: z.number(), analysis: AccountAnalysis }),
  }),
  accounts: userPageRead('/api/coze/analysisIp', { summary: 'ours: the user\'s account analyses, newest first.', response: countedPage(ReplicaAccount) }),
  accountRemove: removeById({ path: '/api/coze/analysisIp', pathFromSpec: false, summary: 'ours: delete an account analysis.' }, '记录ID'),
  topics: userCall('POST', '/api/coze/topic', {
    summary: `${R.topics} topic ideas with a one-line angle each for a persona and (optionally) a product. ${LIMITS.chatAnswerCredits} credits.`,
    request: z.object({ persona_id: personaId(), product_id: productId() }),
    response: z.object({ list: z.array(TopicIdea) }),
  }),
  generate: userCall('POST', '/api/coze/generateScript', {
    summary: `A script for a persona, a product (optional), a topic, a length in seconds (${R.scriptSeconds.join('/')}) and a style; kept. ${LIMITS.chatAnswerCredits} credits.`,
    request: z.object({
      persona_id: personaId(),
      product_id: productId(),
      topic: requiredText('选题', MSG.replicaTopicRequired, R.topicMaxChars),
      seconds: intOneOf('时长', R.scriptSeconds).default(30),
      style: z.enum(SCRIPT_STYLES, { error: '风格取值有误' }).default('koubo'),
    }),
    response: z.object({ id: z.number(), variants: z.array(ScriptVariant) }),
  }),
  scripts: userPageRead('/api/coze/script', { summary: 'ours: the user\'s kept scripts (仿写 and generated), newest first.', response: countedPage(ReplicaScript) }),
  scriptEdit: userCall('POST', '/api/coze/script', {
    summary: 'ours: keep the user\'s edit of one variant (`index`, from 0) of a kept script. Free.',
    request: z.object({
      id: id('记录ID'),
      index: int('版本序号', 0, R.variants - 1),
      text: requiredText('文案', MSG.replicaScriptTextRequired, LIMITS.scriptMaxChars),
    }),
    response: empty,
  }),
  scriptRemove: removeById({ path: '/api/coze/script', pathFromSpec: false, summary: 'ours: delete a kept script.' }, '记录ID'),
});

