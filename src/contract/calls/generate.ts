/** Text to image, text to video, image to video, prompts and presets (part 2 §2.8, §2.9, §3, §4, §5, §7, §9). */
import { z } from 'zod';
import { defineCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { empty, id, int, longText, num, oneOf, page, requiredText, text } from '../schema';
import { Flag, Timestamp, blankToUndefined, intOneOf, listPage, optionalFilter, removeById, urlField } from './fields';

/** Generation record status: 3 success (choose, download, delete), 4 failed (delete only), other in progress (ours: 1). */
export const GenerateStatus = { Pending: 1, Success: 3, Failed: 4 } as const;

/**
 * ours: the image engines an operator can choose (`npm run admin -- image set …`): the OpenAI images API shape
 * (also Zhipu CogView's), SiliconFlow's, Kling's asynchronous image task, or none (text to image says it is not configured).
 */
export const IMAGE_ENGINES = ['openai', 'siliconflow', 'kling', 'none'] as const;
export type ImageEngineKind = (typeof IMAGE_ENGINES)[number];

export const IMAGE_GENERATE_TYPES = ['text'] as const;
export const VIDEO_GENERATE_TYPES = ['text', 'image'] as const;
export const VIDEO_MODES = ['std', 'pro'] as const satisfies readonly (keyof typeof LIMITS.videoGenerationCredits)[];
/** ours: image-to-video tab, 1 first/last frame, 2 image reference (part 2 §4). */
export const ImageToVideoMode = { FirstLastFrame: 1, Reference: 2 } as const;
/** ours: a video generation record's status; 1 and 2 show a spinner. */
export const VideoTaskStatus = { Queued: 1, Processing: 2, Success: GenerateStatus.Success, Failed: GenerateStatus.Failed } as const;
export type VideoTaskStatus = (typeof VideoTaskStatus)[keyof typeof VideoTaskStatus];
/** ours: what makes a video — Kling (可灵, generative) or the camera motion made on this machine (pictures only). */
export const VIDEO_ENGINES = ['kling', 'local'] as const;
export type VideoEngine = (typeof VIDEO_ENGINES)[number];

/** ours: a video generation's credits, by mode and duration (part 2 §9). */
export const videoGenerationCredits = (mode: (typeof VIDEO_MODES)[number], duration: number): number =>
  (LIMITS.videoGenerationCredits[mode] as Record<number, number>)[duration] ?? 0;

export const ImageRecord = z.object({
  id: z.number(),
  status: z.number(),
  /** The generated images' urls. */
  url: z.array(z.string()),
  text: z.string(),
  ratio: z.string(),
  num: z.number(),
  /** Reference image url, '' when none. */
  image: z.string(),
  /** ours: why a record failed, or a partial result's note. */
  reason: z.string().optional(),
  /** ours */
  create_time: Timestamp.optional(),
});
export type ImageRecord = z.infer<typeof ImageRecord>;

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

/** A suggested prompt (image prompts, video recommendations); shape ours. */
export const PromptSuggestion = z.object({
  id: z.number(),
  content: z.string(),
  /** ours: sample image, for image-to-video recommendations. */
  image: z.string().optional(),
});
export type PromptSuggestion = z.infer<typeof PromptSuggestion>;

export const PromptWord = z.object({ name: z.string(), demo_url: z.string(), is_multi: Flag });
export type PromptWord = z.infer<typeof PromptWord>;
export const PromptGroup = z.object({ name: z.string(), list: z.array(PromptWord) });
export type PromptGroup = z.infer<typeof PromptGroup>;

/** ours: what the two screens may offer, per type: the engine, whether it is there, whether 高品质 may be chosen. */
const VideoEngineState = z.object({ engine: z.enum(VIDEO_ENGINES).nullable(), pro: Flag });
export const VideoEngines = z.object({ text: VideoEngineState, image: VideoEngineState });
export type VideoEngines = z.infer<typeof VideoEngines>;

export const UserPreset = z.object({ id: z.number(), title: z.string(), content: z.string() });
export type UserPreset = z.infer<typeof UserPreset>;

const prompt = () => requiredText('描述词', MSG.promptRequired, LIMITS.promptMaxChars);
const imageUrl = () => z.preprocess(blankToUndefined, urlField('图片').optional());
const isJson = (raw: string) => {
  try {
    JSON.parse(raw);
    return true;
  } catch {
    return false;
  }
};

const historyRequest = <T extends readonly [string, ...string[]]>(types: T) =>
  z.object({
    type: oneOf('类型', types).default(types[0]),
    page: page(),
    limit: int('条数', 0, LIMITS.historyLimit).default(LIMITS.historyLimit),
  });

const videoCredits = Object.entries(LIMITS.videoGenerationCredits)
  .map(([mode, byDuration]) => `${mode}: ${Object.entries(byDuration).map(([s, c]) => `${s} s ${c}`).join(', ')}`)
  .join('; ');

export const generateCalls = {
  image: defineCall({
    id: 'generate.image', method: 'POST', path: '/api/user/imageGenerate', checked: true, auth: 'user', pathFromSpec: true,
    summary: `Generate ${LIMITS.imageCountRange[0]} to ${LIMITS.imageCountRange[1]} images from a description, optional reference image; ${LIMITS.imageCreditsEach} credits per image.`,
    request: z.object({
      type: oneOf('类型', IMAGE_GENERATE_TYPES).default('text'),
      text: prompt(),
      image: imageUrl(),
      ratio: oneOf('比例', LIMITS.imageRatios).default(LIMITS.imageRatios[0]),
      num: int('数量', LIMITS.imageCountRange[0], LIMITS.imageCountRange[1]).default(LIMITS.imageCountRange[0]),
    }),
    response: z.object({ id: z.number() }),
  }),
  imageList: defineCall({
    id: 'generate.imageList', method: 'GET', path: '/api/user/imageGenerate', checked: true, auth: 'user', pathFromSpec: true,
    summary: `Image generation history, newest first (refreshed every ${LIMITS.generationPollMs} ms while open).`,
    request: historyRequest(IMAGE_GENERATE_TYPES),
    response: listPage(ImageRecord),
  }),
  imageRemove: removeById({ id: 'generate.imageRemove', path: '/api/user/imageGenerate', pathFromSpec: false, summary: 'ours path: delete an image generation record (the spec shows delete in the UI, not its call).' }, '记录ID'),
  imagePrompt: defineCall({
    id: 'generate.imagePrompt', method: 'GET', path: '/api/user/imagePrompt', checked: true, auth: 'user', pathFromSpec: true,
    summary: `Suggested image prompts; the client shows ${LIMITS.recommendCount} at random, with refresh.`,
    request: z.object({ type: oneOf('类型', IMAGE_GENERATE_TYPES).default('text') }),
    response: z.object({ list: z.array(PromptSuggestion) }),
  }),
  /** ours */
  imageEngine: defineCall({
    id: 'generate.imageEngine', method: 'GET', path: '/api/user/imageEngine', checked: true, auth: 'user', pathFromSpec: false,
    summary: 'ours: whether an image engine is configured (the screen says so and disables generating when not).',
    request: empty,
    response: z.object({ configured: z.union([z.literal(0), z.literal(1)]) }),
  }),
  /** ours */
  imageSave: defineCall({
    id: 'generate.imageSave', method: 'POST', path: '/api/user/imageGenerate/material', checked: true, auth: 'user', pathFromSpec: false,
    summary: 'ours: save one generated image (record id, index in its url list) to the material library as its own copy.',
    request: z.object({ id: id('记录ID'), index: int('图片序号', 0, LIMITS.imageCountRange[1] - 1).default(0) }),
    response: z.object({ id: z.number() }),
  }),
  /** ours: operator */
  imageEngineSet: defineCall({
    id: 'generate.imageEngineSet', method: 'POST', path: '/api/admin/imageEngine', checked: false, auth: 'operator', pathFromSpec: false,
    summary: 'ours: choose and configure the image engine (kept in the settings; the key is never sent to browsers).',
    request: z.object({
      engine: oneOf('引擎', IMAGE_ENGINES),
      base_url: z.preprocess(blankToUndefined, urlField('接口地址').refine((v) => /^https?:\/\//.test(v), '接口地址需以 http:// 或 https:// 开头').optional()),
      /** Kling: the access key. */
      api_key: text('密钥', 500).optional(),
      /** Kling only: the secret key that signs its tokens. */
      secret_key: text('密钥', 500).optional(),
      model: text('模型', 200).optional(),
      timeout_ms: int('超时毫秒', 1000, 600_000).optional(),
    }),
    response: z.object({ engine: z.string(), base_url: z.string(), model: z.string(), configured: z.boolean() }),
  }),
  /** ours: operator */
  imagePromptAdd: defineCall({
    id: 'generate.imagePromptAdd', method: 'POST', path: '/api/admin/imagePrompt', checked: false, auth: 'operator', pathFromSpec: false,
    summary: 'ours: add a suggested image prompt.',
    request: z.object({ content: requiredText('描述词', MSG.promptRequired, LIMITS.promptMaxChars) }),
    response: z.object({ id: z.number() }),
  }),
  video: defineCall({
    id: 'generate.video', method: 'POST', path: '/api/user/videoGenerate', checked: true, auth: 'user', pathFromSpec: true,
    summary:
      `Generate a video from text, or from an image (image_mode 1 first/last frame: image + optional image_tail; 2 reference: image). ` +
      `Credits — ${videoCredits}. While the pro channel is down the server answers MSG.highQualityMaintenance.`,
    request: z
      .object({
        type: oneOf('类型', VIDEO_GENERATE_TYPES).default('text'),
        prompt: prompt(),
        negative_prompt: text('反向描述词', LIMITS.promptMaxChars).default(''),
        cfg_scale: num('想象力', LIMITS.imagination.min, LIMITS.imagination.max).default(LIMITS.imagination.default),
        mode: oneOf('模式', VIDEO_MODES).default(LIMITS.videoModeDefault),
        duration: intOneOf('时长', LIMITS.videoDurations).default(LIMITS.videoDurations[0]),
        aspect_ratio: oneOf('比例', LIMITS.videoRatios).default(LIMITS.videoRatios[0]),
        image: imageUrl(),
        image_tail: imageUrl(),
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
  videoList: defineCall({
    id: 'generate.videoList', method: 'GET', path: '/api/user/videoGenerate', checked: true, auth: 'user', pathFromSpec: true,
    summary: `Video generation history of one type, newest first (refreshed every ${LIMITS.generationPollMs} ms while open).`,
    request: historyRequest(VIDEO_GENERATE_TYPES),
    response: listPage(VideoRecord),
  }),
  videoRemove: removeById({ id: 'generate.videoRemove', path: '/api/user/videoGenerate', pathFromSpec: true, summary: 'Delete a video generation record.' }, '记录ID'),
  videoPrompt: defineCall({
    id: 'generate.videoPrompt', method: 'GET', path: '/api/user/videoPrompt', checked: true, auth: 'user', pathFromSpec: true,
    summary: 'Inspiration word bank: groups of prompt words (name, demo_url, is_multi).',
    request: empty,
    response: z.object({ list: z.array(PromptGroup) }),
  }),
  videoPromptRecommend: defineCall({
    id: 'generate.videoPromptRecommend', method: 'GET', path: '/api/user/videoPromptRecommend', checked: true, auth: 'user', pathFromSpec: true,
    summary: `Recommended video prompts; the client shows ${LIMITS.recommendCount} at random (${LIMITS.recommendCountImageToVideo} for image to video).`,
    request: z.object({ type: oneOf('类型', VIDEO_GENERATE_TYPES).default('text') }),
    response: z.object({ list: z.array(PromptSuggestion) }),
  }),
  videoEngine: defineCall({
    id: 'generate.videoEngine', method: 'GET', path: '/api/user/videoEngine', checked: true, auth: 'user', pathFromSpec: false,
    summary:
      'ours: the engine of each screen (text: Kling or null — no offline engine; image: Kling or local camera motion) and whether 高品质 is open.',
    request: empty,
    response: VideoEngines,
  }),
  videoPromptSet: defineCall({
    id: 'generate.videoPromptSet', method: 'POST', path: '/api/admin/videoPrompt', checked: false, auth: 'operator', pathFromSpec: false,
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
  videoPromptRecommendSet: defineCall({
    id: 'generate.videoPromptRecommendSet', method: 'POST', path: '/api/admin/videoPromptRecommend', checked: false, auth: 'operator', pathFromSpec: false,
    summary: 'ours (operator): replaces the recommendations of one type with these prompts (image: a sample picture, public file or https).',
    request: z.object({
      type: oneOf('类型', VIDEO_GENERATE_TYPES),
      list: z.array(z.object({ content: requiredText('推荐描述词', MSG.promptRequired, LIMITS.promptMaxChars), image: text('示例图片', 500).default('') })).max(500),
    }),
    response: z.object({ count: z.number() }),
  }),
  presets: defineCall({
    id: 'generate.presets', method: 'GET', path: '/api/user/userPrompt', checked: true, auth: 'user', pathFromSpec: true,
    summary: 'My presets, by keyword (title or content).',
    request: z.object({ keyword: text('关键词', 100).optional() }),
    response: z.object({ list: z.array(UserPreset) }),
  }),
  presetSave: defineCall({
    id: 'generate.presetSave', method: 'POST', path: '/api/user/userPrompt', checked: true, auth: 'user', pathFromSpec: true,
    summary: 'Save a preset: title and content, or content alone (the title is then taken from the content); with id (ours) it updates.',
    request: z.object({
      /** ours */
      id: optionalFilter(id('预设ID')),
      title: requiredText('预设名称', MSG.presetTitleRequired, LIMITS.nameMaxChars).optional(),
      content: requiredText('预设内容', MSG.presetContentRequired, LIMITS.promptMaxChars),
    }),
    response: z.object({ id: z.number() }),
  }),
  presetRemove: removeById({ id: 'generate.presetRemove', path: '/api/user/userPrompt', pathFromSpec: true, summary: 'Delete a preset.' }, '预设ID'),
};
