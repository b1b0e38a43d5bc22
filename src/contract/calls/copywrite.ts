/**
 * Copy extraction (/copywrite/index and /store/copywrite/trace; part 2 §2.1, §7 `/api/text/analyse`; issue 28): a
 * share link or an uploaded video becomes its spoken copy, read from the speech (a recognition engine) or from the
 * captions on screen (offline), as text and timed sentences; edit, save to the material library, rewrite (二创).
 */
import { z } from 'zod';
import { defineGroup, uncheckedCall, userCall, specCall } from '../call';
import { LIMITS } from '../limits';
import { MSG } from '../messages';
import { id, longText, oneOf, requiredText, text } from '../schema';
import { ChatStreamEvent } from './chat';
import { countedPage, intOneOf, optionalId, recordPageRequest, removeById, streamToken } from './fields';

/** CopyRecord.status: 1 queued, 2 being read, 3 done, 4 failed (reason says why and what was given back). */
export const CopywriteStatus = { Queued: 1, Running: 2, Done: 3, Failed: 4 } as const;
export const COPYWRITE_STATUS_NAMES: Record<number, string> = { 1: '排队中', 2: '识别中', 3: '已完成', 4: '失败' };
/** Where a record's copy was read: the speech (recognition engine) or the captions on screen (offline reader). */
export const COPY_SOURCES = ['asr', 'ocr'] as const;
export type CopySource = (typeof COPY_SOURCES)[number];
export const COPY_SOURCE_NAMES: Record<CopySource, string> = { asr: '语音识别', ocr: '画面字幕' };
/** The submit's way: 1 a link (or a whole share text), 2 an uploaded video. */
export const CopywriteType = { Link: 1, Upload: 2 } as const;

/** The 二创 styles; `custom` takes the user's own instruction. */
export const REWRITE_STYLES = ['koubo', 'zhongcao', 'zhishi', 'gaoxiao', 'custom'] as const;
export type RewriteStyle = (typeof REWRITE_STYLES)[number];
export const REWRITE_STYLE_NAMES: Record<RewriteStyle, string> = { koubo: '口播', zhongcao: '种草', zhishi: '知识分享', gaoxiao: '搞笑', custom: '自定义' };

export const CopySegment = z.object({ start: z.number(), end: z.number(), text: z.string() });
export type CopySegment = z.infer<typeof CopySegment>;

export const CopyRecord = z.object({
  id: z.number(),
  status: z.number(),
  /** The whole copy with punctuation (the user's edit once edited). */
  text: z.string(),
  /** The sentences as read, with their times (seconds). */
  segments: z.array(CopySegment),
  /** '' until read. */
  source: z.enum(['asr', 'ocr', '']),
  cover: z.string(),
  /** Seconds of the video. */
  duration: z.number(),
  /** The link found in the pasted text, or '' for an upload. */
  link: z.string(),
  /** ours: the upload's name, or the post's title when the parse engine gave one. */
  title: z.string(),
  reason: z.string().optional(),
  create_time: z.string(),
});
export type CopyRecord = z.infer<typeof CopyRecord>;

/** A video to read: a pasted share text's link (type 1) or the user's uploaded video (type 2); super replica's analyses take the same. */
export const videoSourceRequest = z
  .object({
    type: intOneOf('提取方式', [CopywriteType.Link, CopywriteType.Upload]).default(CopywriteType.Link),
    link: z.preprocess((v) => (v === null ? undefined : v), text('链接', LIMITS.linkMaxChars).optional()),
    file_id: optionalId('视频'),
  })
  .superRefine((v, ctx) => {
    if (v.type === CopywriteType.Link && !v.link) ctx.addIssue({ code: 'custom', message: MSG.extractionLinkRequired, path: ['link'] });
    if (v.type === CopywriteType.Upload && v.file_id === undefined) ctx.addIssue({ code: 'custom', message: MSG.translationVideoRequired, path: ['file_id'] });
  });

/** videoSourceRequest of an uploaded video or of a pasted share text. */
export const videoSource = (source: { fileId: number } | { link: string }): z.input<typeof videoSourceRequest> =>
  'fileId' in source ? { type: CopywriteType.Upload, file_id: source.fileId } : { type: CopywriteType.Link, link: source.link };

export const copywriteCalls = defineGroup('copywrite', {
  submit: specCall('POST', '/api/text/analyse', {
    summary: `Extract the copy of a link (type 1; a whole share text is fine) or an uploaded video (type 2, ${LIMITS.video.formats.join('/')} ≤ ${LIMITS.video.maxBytes / 1024 / 1024} MB); ${LIMITS.copywrite.credits} credits unless a free extraction is left.`,
    request: videoSourceRequest,
    response: z.object({ id: z.number() }),
  }),
  list: specCall('GET', '/api/text/analyse', {
    summary: 'The user\'s copy records, newest first; num (ours): free extractions left today; id (ours): that record alone (re-open).',
    request: recordPageRequest,
    response: countedPage(CopyRecord).extend({ num: z.number() }),
  }),
  remove: removeById({ path: '/api/text/analyse', pathFromSpec: true, summary: 'Delete a copy record (its cover goes with it).' }, '记录ID'),
  edit: userCall('POST', '/api/text/analyse/edit', {
    summary: 'ours: keep the user\'s edit of a finished record\'s copy (its timed sentences stay as read).',
    request: z.object({ id: id('记录ID'), text: requiredText('文案', MSG.copyTextRequired, LIMITS.copywrite.textMaxChars) }),
    response: z.object({}),
  }),
  save: userCall('POST', '/api/text/analyse/material', {
    summary: 'ours: save a finished record\'s copy (or the given text, e.g. a rewrite) to the material library as text (origin copywrite, 文案提取).',
    request: z.object({ id: id('记录ID'), text: z.preprocess((v) => (v === '' || v === null ? undefined : v), longText('文案', LIMITS.copywrite.textMaxChars).optional()) }),
    response: z.object({ id: z.number() }),
  }),
  rewrite: uncheckedCall('GET', '/api/text/analyse/rewrite', {
    summary:
      `ours: unchecked event stream (text/event-stream, ChatStreamEvent events as chat.stream) of a 二创 rewrite of record id's copy in a style; ` +
      `${LIMITS.chatAnswerCredits} credits as a chat answer, not charged when it fails before any text. The token rides in the query.`,
    request: z
      .object({
        token: streamToken(),
        id: id('记录ID'),
        style: oneOf('风格', REWRITE_STYLES).default('koubo'),
        instruction: text('改写要求', LIMITS.copywrite.instructionMaxChars).optional(),
      })
      .superRefine((v, ctx) => {
        if (v.style === 'custom' && !v.instruction) ctx.addIssue({ code: 'custom', message: MSG.copyRewriteInstructionRequired, path: ['instruction'] });
      }),
    response: ChatStreamEvent,
  }),
});
