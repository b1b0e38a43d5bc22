/** Text to image: generation, suggested prompts, history, save to material (part 2 §2.8, §3, §5, §7, §9). */
import { z } from 'zod';
import { defineGroup, userCall, specCall, operatorCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { id, int, oneOf, requiredText, text } from '../schema';
import { Timestamp, blankToUndefined, generationPrompt, generationType, historyRequest, promptSuggestions, listPage, pictureUrl, removeById, urlField, userRead } from './fields';

/**
 * ours: the image engines an operator can choose (`npm run admin -- image set …`): the OpenAI images API shape
 * (also Zhipu CogView's), SiliconFlow's, Kling's asynchronous image task, or none (text to image says it is not configured).
 */
export const IMAGE_ENGINES = ['openai', 'siliconflow', 'kling', 'none'] as const;
export type ImageEngineKind = (typeof IMAGE_ENGINES)[number];

export const IMAGE_GENERATE_TYPES = ['text'] as const;

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

export const imagegenCalls = defineGroup('imagegen', {
  create: specCall('POST', '/api/user/imageGenerate', {
    summary: `Generate ${LIMITS.imageCountRange[0]} to ${LIMITS.imageCountRange[1]} images from a description, optional reference image; ${LIMITS.imageCreditsEach} credits per image.`,
    request: z.object({
      type: generationType(IMAGE_GENERATE_TYPES),
      text: generationPrompt(),
      image: pictureUrl(),
      ratio: oneOf('比例', LIMITS.imageRatios).default(LIMITS.imageRatios[0]),
      num: int('数量', LIMITS.imageCountRange[0], LIMITS.imageCountRange[1]).default(LIMITS.imageCountRange[0]),
    }),
    response: z.object({ id: z.number() }),
  }),
  list: specCall('GET', '/api/user/imageGenerate', {
    summary: `Image generation history, newest first (refreshed every ${LIMITS.generationPollMs} ms while open).`,
    request: historyRequest(IMAGE_GENERATE_TYPES),
    response: listPage(ImageRecord),
  }),
  remove: removeById({ path: '/api/user/imageGenerate', pathFromSpec: false, summary: 'ours path: delete an image generation record (the spec shows delete in the UI, not its call).' }, '记录ID'),
  prompts: promptSuggestions('/api/user/imagePrompt', `Suggested image prompts; the client shows ${LIMITS.recommendCount} at random, with refresh.`, IMAGE_GENERATE_TYPES),
  /** ours */
  engine: userRead('/api/user/imageEngine', {
    summary: 'ours: whether an image engine is configured (the screen says so and disables generating when not).',
    response: z.object({ configured: z.union([z.literal(0), z.literal(1)]) }),
  }),
  /** ours */
  save: userCall('POST', '/api/user/imageGenerate/material', {
    summary: 'ours: save one generated image (record id, index in its url list) to the material library as its own copy.',
    request: z.object({ id: id('记录ID'), index: int('图片序号', 0, LIMITS.imageCountRange[1] - 1).default(0) }),
    response: z.object({ id: z.number() }),
  }),
  /** ours: operator */
  engineSet: operatorCall('POST', '/api/admin/imageEngine', {
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
  promptAdd: operatorCall('POST', '/api/admin/imagePrompt', {
    summary: 'ours: add a suggested image prompt.',
    request: z.object({ content: requiredText('描述词', MSG.promptRequired, LIMITS.promptMaxChars) }),
    response: z.object({ id: z.number() }),
  }),
});
