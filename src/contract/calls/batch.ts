/**
 * ours (issue 35): batch creation from a table. Each row is one ordinary work, checked exactly as works.create checks
 * it (WorkSubmission, then the same server checks), priced at its channel, reserved together at submit and settled
 * per work on its real length.
 */
import { z } from 'zod';
import { defineGroup, userCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { text } from '../schema';
import { Timestamp, listPage, jsonText, userCallById, userPageRead } from './fields';

/** A row's state: its work's, or cancelled before it started. */
export const BatchRowStatus = { Queued: 1, Rendering: 2, Done: 3, Failed: 4, Cancelled: 5 } as const;

/** A work field a row carries as the table had it: the server checks it as works.create does (WorkSubmission). */
const carried = z.unknown().optional();

/** What a row of the table carries into its work (the client has turned the avatar's and voice's names into ids). */
export const BatchRowFields = z.object({
  name: z.string().optional(),
  text: z.string().optional(),
  video_id: carried,
  user_voice_id: carried,
  api: carried,
  subtitles: carried,
  bgm: carried,
});
export type BatchRowFields = z.infer<typeof BatchRowFields>;

/** `rows`: JSON text of the rows in, the rows out (each checked on its own by the server, with its row number). */
const batchRows = jsonText(MSG.batchRowsInvalid).pipe(z.array(BatchRowFields, { error: MSG.batchRowsInvalid }).min(1, MSG.batchEmpty).max(LIMITS.batch.maxRows, MSG.batchTooManyRows(LIMITS.batch.maxRows)));

/** One row's check: its error (absent: it would be accepted) and its estimated credits. */
export const BatchRowCheck = z.object({ index: z.number(), error: z.string().optional(), credits: z.number() });
export type BatchRowCheck = z.infer<typeof BatchRowCheck>;

export const BatchCounts = z.object({ queued: z.number(), running: z.number(), done: z.number(), failed: z.number(), cancelled: z.number() });
export type BatchCounts = z.infer<typeof BatchCounts>;

export const BatchRow = z.object({
  /** 1-based, as the table numbered it. */
  index: z.number(),
  name: z.string(),
  status: z.number(),
  work_id: z.number(),
  reason: z.string().optional(),
});
export type BatchRow = z.infer<typeof BatchRow>;

export const BatchSummary = z.object({ id: z.number(), name: z.string(), create_time: Timestamp, total: z.number(), counts: BatchCounts });
export type BatchSummary = z.infer<typeof BatchSummary>;

export const BatchDetail = z.object({ id: z.number(), name: z.string(), create_time: Timestamp, rows: z.array(BatchRow), counts: BatchCounts });
export type BatchDetail = z.infer<typeof BatchDetail>;

const batchName = () => text('批次名称', LIMITS.nameMaxChars).optional().transform((v) => v || LIMITS.batch.defaultName);

export const batchCalls = defineGroup('batch', {
  check: userCall('POST', '/api/batch/check', {
    summary: 'Checks each row as works.create would (nothing is created): each row\'s Chinese error, its estimated credits, and the total.',
    request: z.object({ rows: batchRows }),
    response: z.object({ rows: z.array(BatchRowCheck), total: z.number() }),
  }),
  create: userCall('POST', '/api/batch/create', {
    summary:
      'Submits a batch: refused whole (each bad row\'s number and reason) if any row is invalid, or with MSG.insufficientCredits ' +
      'when the whole estimate does not fit; else every row becomes a queued work.',
    request: z.object({ name: batchName(), rows: batchRows }),
    response: z.object({ id: z.number() }),
  }),
  list: userPageRead('/api/batch/list', { summary: 'My batches, newest first, with their rows\' counts.', response: listPage(BatchSummary) }),
  detail: userCallById('GET', '/api/batch/detail', '批次ID', {
    summary: 'One batch: each row\'s state and work, and the counts.',
    response: BatchDetail,
  }),
  cancel: userCallById('POST', '/api/batch/cancel', '批次ID', {
    summary: 'Cancels the rows not yet started (their credits returned); answers how many.',
    response: z.object({ cancelled: z.number() }),
  }),
  zip: userCallById('POST', '/api/batch/zip', '批次ID', {
    summary: 'One zip of every finished row (mp4 and, where it has one, SRT, named after the rows): answers its download URL.',
    response: z.object({ url: z.string() }),
  }),
  retry: userCallById('POST', '/api/batch/retry', '批次ID', {
    summary: 'Submits the failed rows again, each as a new work (checked and reserved as at create); answers how many.',
    response: z.object({ retried: z.number() }),
  }),
});
