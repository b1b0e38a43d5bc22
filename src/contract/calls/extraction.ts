/** Video and audio extraction, and saving a result to the material library (part 2 §2.5, §2.6, §3, §4, §7). */
import { z } from 'zod';
import { defineGroup, userCall, specCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { id, limit, oneOf, page, requiredText, text } from '../schema';
import { intOneOf, optionalFilter, optionalId } from './fields';

/** ExtractionRecord.status: 1 processing, 3 success (download, save), 4 failed. Tabs filter '' / 1 / 4. */
export const ExtractionStatus = { Processing: 1, Success: 3, Failed: 4 } as const;
/** Audio extraction way: 1 online link, 2 uploaded video. */
export const AudioExtractType = { Link: 1, Upload: 2 } as const;
/** status_name of each status. */
export const ANALYSE_STATUS_NAMES: Record<number, string> = { [ExtractionStatus.Processing]: '处理中', [ExtractionStatus.Success]: '成功', [ExtractionStatus.Failed]: '失败' };

export const ExtractionRecord = z.object({
  id: z.number(),
  status: z.number(),
  status_name: z.string(),
  cover: z.string(),
  desc: z.string(),
  /** Bytes (ours reading). */
  size: z.number(),
  url: z.string(),
  /** ours: why a failed record failed (and what was given back). */
  reason: z.string().optional(),
  /** ours: the pasted link, or the uploaded video's name. */
  link: z.string().optional(),
  /** ours: seconds of the media. */
  duration: z.number().optional(),
  /** ours */
  create_time: z.string().optional(),
});
export type ExtractionRecord = z.infer<typeof ExtractionRecord>;

const listRequest = z.object({
  limit: limit(),
  page: page(),
  status: optionalFilter(intOneOf('状态', [ExtractionStatus.Processing, ExtractionStatus.Success, ExtractionStatus.Failed])),
});
/** num: free extractions left today (shown when above zero). */
const listResponse = z.object({
  list: z.array(ExtractionRecord), num: z.number(), total: z.number().optional(),
  /** ours: false when no link parser is configured (the screen says so up front; direct media links still work). */
  parse_ready: z.boolean().optional(),
});

const link = () =>
  z.preprocess(
    (v) => (v === null ? undefined : v),
    text('链接', LIMITS.linkMaxChars).optional(),
  );

export const extractionCalls = defineGroup('extraction', {
  videoList: specCall('GET', '/api/user/videoAnalyse', {
    summary: 'Video extraction records by status; num = free extractions left today.',
    request: listRequest,
    response: listResponse,
  }),
  videoParse: specCall('POST', '/api/user/videoAnalyse', {
    summary: `Parse a short-video link (removes the watermark) in the background; ${LIMITS.extractionCredits} credits unless a free count is left.`,
    request: z.object({
      link: requiredText('链接', MSG.extractionLinkRequired, LIMITS.linkMaxChars),
    }),
    response: z.object({ id: z.number() }),
  }),
  audioList: userCall('GET', '/api/user/audioAnalyse', {
    summary: 'Audio extraction records by status; num = free extractions left today.',
    request: listRequest,
    response: listResponse,
  }),
  audioExtract: userCall('POST', '/api/user/audioAnalyse', {
    summary: `Extract audio from a link (type 1) or a registered video (type 2, ${LIMITS.video.formats.join('/')} ≤ ${LIMITS.video.maxBytes / 1024 / 1024} MB); ${LIMITS.extractionCredits} credits unless a free count is left.`,
    request: z
      .object({
        type: intOneOf('提取方式', [AudioExtractType.Link, AudioExtractType.Upload]).default(AudioExtractType.Link),
        link: link(),
        file_id: optionalId('视频'),
      })
      .superRefine((v, ctx) => {
        if (v.type === AudioExtractType.Link && !v.link) ctx.addIssue({ code: 'custom', message: MSG.extractionLinkRequired, path: ['link'] });
        if (v.type === AudioExtractType.Upload && v.file_id === undefined) {
          ctx.addIssue({ code: 'custom', message: MSG.translationVideoRequired, path: ['file_id'] });
        }
      }),
    response: z.object({ id: z.number() }),
  }),
  saveToMaterial: userCall('POST', '/api/user/material', {
    summary: 'Save an extraction result (analyse record rid) to the material library; processed in the background (MSG.savedToMaterial).',
    request: z.object({
      type: oneOf('素材类型', ['video', 'audio']),
      source: z.literal('analyse', { error: '来源取值有误' }).default('analyse'),
      /** The client sends the first 15 characters of the record's desc; '' becomes 未命名. */
      name: text('名称', LIMITS.analyseNameMaxChars)
        .optional()
        .transform((v) => v || LIMITS.defaultWorkName),
      rid: id('记录ID'),
    }),
    response: z.object({ id: z.number() }),
  }),
});
