/** Text to video and image to video: generation, word bank, recommendations, presets, history (part 2 §2.9, §3, §4, §5, §7, §9). */
import { z } from 'zod';
import { defineGroup, specCall, operatorCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { id, longText, num, oneOf, requiredText, text } from '../schema';
import { Flag, ImagegenStatus, Timestamp, blankToUndefined, generationType, historyRequest, promptSuggestions, intOneOf, listPage, optionalFilter, pictureUrl, removeById, userList, userRead } from './fields';

export const VIDEO_GENERATE_TYPES = ['text', 'image'] as const;
export const VIDEO_MODES = ['std', 'pro'] as const satisfies readonly (keyof typeof LIMITS.videoGenerationCredits)[];
/** ours: image-to-video tab, 1 first/last frame, 2 image reference (part 2 §4). */
export const ImageToVideoMode = { FirstLastFrame: 1, Reference: 2 } as const;
/** ours: a video generation record's status; 1 and 2 show a spinner. */
export const VideoTaskStatus = { Queued: 1, Processing: 2, Success: ImagegenStatus.Success, Failed: ImagegenStatus.Failed } as const;
export type VideoTaskStatus = (typeof VideoTaskStatus)[keyof typeof VideoTaskStatus];
/** ours: what makes a video — Kling (可灵, generative) or the camera motion made on this machine (pictures only). */
export const VIDEO_ENGINES = ['kling', 'local'] as const;
export type VideoEngine = (typeof VIDEO_ENGINES)[number];

/**
 * ours: a video generation's credits, by mode and duration (part 2 §9), times the engine's percent of that price
 * (100 on Kling; the operator's local percent for a camera move made on this machine), at least 1.
 */
export const videoGenerationCredits = (mode: (typeof VIDEO_MODES)[number], duration: number, percent = 100): number => {
  const base = (LIMITS.videoGenerationCredits[mode] as Record<number, number>)[duration] ?? 0;
  return base && Math.max(1, Math.round((base * percent) / 100));
};

/**
 * ours (issue 33): of the offered ratios, the one nearest a picture's own shape (by log of width/height): what image
 * to video frames a picture to unless another ratio is chosen.
 */
export const nearestVideoRatio = (width: number, height: number): (typeof LIMITS.videoRatios)[number] => {
  const shape = Math.log(width / height);
  const of = (r: string) => {
    const [w, h] = r.split(':').map(Number);
    return Math.abs(Math.log(w! / h!) - shape);
  };
  return [...LIMITS.videoRatios].sort((a, b) => of(a) - of(b))[0]!;
};

export const VideoRecord = z.object({
  id: z.number(),
  status: z.number(),
  url: z.string(),
  cover: z.string(),
  duration: z.number(),
  aspect_ratio: z.string(),
  mode: z.string(),
  negative_prompt: z.string(),
  cfg_scale: z.number(),
  image: z.string(),
  image_tail: z.string(),
  /** JSON text: { orgContent, orgChoosedList } of the prompt editor, to refill the form. */
  org_data: z.string(),
  /** ours */
  type: z.enum(VIDEO_GENERATE_TYPES).optional(),
  /** ours */
  prompt: z.string().optional(),
  /** ours */
  image_mode: z.number().optional(),
  /** ours */
  create_time: Timestamp.optional(),
  /** ours: why a failed record failed (its credits were returned). */
  error: z.string().optional(),
  /** ours: kling, or local (camera motion made on this machine, not a generative model). */
  engine: z.string().optional(),
});
export type VideoRecord = z.infer<typeof VideoRecord>;

export const PromptWord = z.object({ name: z.string(), demo_url: z.string(), is_multi: Flag });
export type PromptWord = z.infer<typeof PromptWord>;
export const PromptGroup = z.object({ name: z.string(), list: z.array(PromptWord) });
export type PromptGroup = z.infer<typeof PromptGroup>;

/**
 * ours: what the two screens may offer, per type: the engine, whether it is there, whether 高品质 may be chosen, and
 * the percent of the price list it charges (videoGenerationCredits).
 */
const VideoEngineState = z.object({ engine: z.enum(VIDEO_ENGINES).nullable(), pro: Flag, percent: z.number() });
export const VideoEngines = z.object({ text: VideoEngineState, image: VideoEngineState });
export type VideoEngines = z.infer<typeof VideoEngines>;

export const UserPreset = z.object({ id: z.number(), title: z.string(), content: z.string() });
export type UserPreset = z.infer<typeof UserPreset>;

const isJson = (raw: string) => {
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
};

const videoCredits = Object.entries(LIMITS.videoGenerationCredits)
  .map(([mode, byDuration]) => `${mode}: ${Object.entries(byDuration).map(([s, c]) => `${s} s ${c}`).join(', ')}`)
  .join('; ');
export const videogenCalls = defineGroup('videogen', {
  create: specCall('POST', '/api/user/videoGenerate', {
    summary:
      `Generate a video from text, or from an image (image_mode 1 first/last frame: image + optional image_tail; 2 reference: image). ` +
      `Credits — ${videoCredits}. While the pro channel is down the server answers MSG.highQualityMaintenance. ` +
      'ours (issue 33): the prompt is required by Kling only (MSG.promptRequired; the camera move made on this machine keeps it ' +
      'for reference); without aspect_ratio an image is framed at its own shape (nearestVideoRatio), a text at the first ratio.',
    request: z
      .object({
        type: generationType(VIDEO_GENERATE_TYPES),
        // Kling needs it; the camera move made here does not (the server checks by engine).
        prompt: text('描述词', LIMITS.promptMaxChars).default(''),
        negative_prompt: text('反向描述词', LIMITS.promptMaxChars).default(''),
        cfg_scale: num('想象力', LIMITS.imagination.min, LIMITS.imagination.max).default(LIMITS.imagination.default),
        mode: oneOf('模式', VIDEO_MODES).default(LIMITS.videoModeDefault),
        duration: intOneOf('时长', LIMITS.videoDurations).default(LIMITS.videoDurations[0]),
        aspect_ratio: oneOf('比例', LIMITS.videoRatios).optional(),
        image: pictureUrl(),
        image_tail: pictureUrl(),
        /** ours */
        image_mode: intOneOf('图生视频方式', [ImageToVideoMode.FirstLastFrame, ImageToVideoMode.Reference]).default(ImageToVideoMode.FirstLastFrame),
        org_data: z.preprocess(blankToUndefined, longText('描述词数据').refine(isJson, MSG.orgDataInvalid).optional()),
      })
      .superRefine((v, ctx) => {
        if (v.type !== 'image' || v.image) return;
        const message = v.image_mode === ImageToVideoMode.Reference ? MSG.referenceImageRequired : MSG.firstFrameRequired;
        ctx.addIssue({ code: 'custom', message, path: ['image'] });
      }),
    response: z.object({ id: z.number() }),
  }),
  list: specCall('GET', '/api/user/videoGenerate', {
    summary: `Video generation history of one type, newest first (refreshed every ${LIMITS.generationPollMs} ms while open).`,
    request: historyRequest(VIDEO_GENERATE_TYPES),
    response: listPage(VideoRecord),
  }),
  remove: removeById({ path: '/api/user/videoGenerate', pathFromSpec: true, summary: 'Delete a video generation record.' }, '记录ID'),
  prompts: userList({ path: '/api/user/videoPrompt', pathFromSpec: true, summary: 'Inspiration word bank: groups of prompt words (name, demo_url, is_multi).' }, PromptGroup),
  recommend: promptSuggestions(
    '/api/user/videoPromptRecommend',
    `Recommended video prompts; the client shows ${LIMITS.recommendCount} at random (${LIMITS.recommendCountImageToVideo} for image to video).`,
    VIDEO_GENERATE_TYPES,
  ),
  engine: userRead('/api/user/videoEngine', {
    summary:
      'ours: the engine of each screen (text: Kling or null — no offline engine; image: Kling or local camera motion) and whether 高品质 is open.',
    response: VideoEngines,
  }),
  promptsSet: operatorCall('POST', '/api/admin/videoPrompt', {
    summary: 'ours (operator): replaces the inspiration word bank with these groups, in order.',
    request: z.object({
      list: z
        .array(z.object({
          name: requiredText('分组名称', '请填写分组名称', LIMITS.nameMaxChars),
          list: z.array(z.object({
            name: requiredText('词语', '请填写词语', LIMITS.nameMaxChars),
            demo_url: text('示例地址', 500).default(''),
            is_multi: Flag.default(0),
          })).min(1, '每个分组至少一个词语').max(200),
        }))
        .max(100),
    }),
    response: z.object({ groups: z.number(), words: z.number() }),
  }),
  recommendSet: operatorCall('POST', '/api/admin/videoPromptRecommend', {
    summary: 'ours (operator): replaces the recommendations of one type with these prompts (image: a sample picture, public file or https).',
    request: z.object({
      type: oneOf('类型', VIDEO_GENERATE_TYPES),
      list: z.array(z.object({ content: requiredText('推荐描述词', MSG.promptRequired, LIMITS.promptMaxChars), image: text('示例图片', 500).default('') })).max(500),
    }),
    response: z.object({ count: z.number() }),
  }),
  presets: specCall('GET', '/api/user/userPrompt', {
    summary: 'My presets, by keyword (title or content).',
    request: z.object({ keyword: text('关键词', 100).optional() }),
    response: z.object({ list: z.array(UserPreset) }),
  }),
  presetSave: specCall('POST', '/api/user/userPrompt', {
    summary: 'Save a preset: title and content, or content alone (the title is then taken from the content); with id (ours) it updates.',
    request: z.object({
      /** ours */
      id: optionalFilter(id('预设ID')),
      title: requiredText('预设名称', MSG.presetTitleRequired, LIMITS.nameMaxChars).optional(),
      content: requiredText('预设内容', MSG.presetContentRequired, LIMITS.promptMaxChars),
    }),
    response: z.object({ id: z.number() }),
  }),
  presetRemove: removeById({ path: '/api/user/userPrompt', pathFromSpec: true, summary: 'Delete a preset.' }, '预设ID'),
});
