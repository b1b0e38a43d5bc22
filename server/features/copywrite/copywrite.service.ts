/**
 * Copy extraction (issue 28). A submit takes the link of a pasted share text (checked as extraction checks it) or the
 * user's uploaded video, charges it — a free daily extraction while one is left (extraction_free_daily, counted apart
 * from video and audio extraction), else LIMITS.copywrite.credits — and queues `copywrite-read`. The job fetches the
 * video (the extraction feature's guarded download and link-parse engine), checks it by its bytes, makes a cover and
 * reads the copy: the speech first when a recognition engine is configured, else (or when the speech gave nothing)
 * the captions on screen with the offline reader. Nothing read fails the record and gives back what it took.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CopywriteStatus, CopywriteType, LIMITS, MSG, type CopySegment, type CopySource } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ApiError } from '../../infra/http';
import { JobRefused, runPaidJob } from '../../infra/paid-job';
import type { JobRun } from '../../infra/queue';
import { fetchObject } from '../../infra/storage';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { AsrFailed, asrConfigFromSettings, transcribe } from '../../engines/asr';
import { extractSpeechWav, makeCover } from '../../engines/media';
import { readCaptions } from '../../engines/ocr';
import { ExtractionType, addCharged, checkedMedia, downloadLinkedVideo, failCharged, fetchFailureReason, freeDaily, submittedLink } from '../extraction';
import { UploadRepository } from '../upload';
import { CopywriteRepository, type CopyRow } from './copywrite.repository';

export async function freeLeftToday(ctx: FeatureContext, userId: number): Promise<number> {
  const daily = await freeDaily(ctx);
  if (daily === 0) return 0;
  return Math.max(0, daily - (await new CopywriteRepository(ctx.db).freeUsedToday(userId)));
}

/**
 * The video a submit names, checked before anything is charged: the user's own uploaded video (titled by its file
 * name) or a link the guard lets through.
 */
export async function submittedVideo(ctx: FeatureContext, userId: number, s: { type: number; link?: string; fileId?: number }): Promise<VideoSource & { title: string }> {
  if (s.type !== CopywriteType.Upload) return { userId, way: s.type, link: await submittedLink(ctx, s.link ?? ''), fileId: null, title: '' };
  const video = s.fileId === undefined ? undefined : await new UploadRepository(ctx.db).ownVideoFile(s.fileId, userId);
  if (!video) throw new ApiError(MSG.extractionVideoMissing);
  return { userId, way: s.type, link: '', fileId: s.fileId!, title: video.name.replace(/\.[^.]+$/, '') || '本地视频' };
}

/** Records, charges and queues one extraction; answers its id. */
export async function submitCopy(ctx: FeatureContext, userId: number, s: { type: number; link?: string; fileId?: number }): Promise<number> {
  const video = await submittedVideo(ctx, userId, s);
  return addCharged(ctx, { ...CHARGE, userId }, {
    usedToday: (q) => new CopywriteRepository(q).freeUsedToday(userId, true),
    add: (q, free) => new CopywriteRepository(q).add({ ...video, free }),
    setSpend: (q, id, entryId) => new CopywriteRepository(q).setSpend(id, entryId),
    queue: (q, id) => ctx.queue.send('copywrite-read', { copyId: id }, { runsUpToSeconds: 20 * 60 }, q),
  });
}

const CHARGE = { credits: LIMITS.copywrite.credits, action: '文案提取', key: (id: number) => `copywrite:${id}` };

/** Fails a record once with the user's reason, giving back its credits or its free count. */
async function failRecord(ctx: FeatureContext, id: number, why: string): Promise<void> {
  await failCharged(ctx, { ...CHARGE, id }, (q) => new CopywriteRepository(q).fail(id, { free: MSG.extractionFailed(why, true), paid: MSG.extractionFailed(why, false) }));
}

/** The job of a record, through the paid-job runner: a record no longer open (done, failed, deleted) is left alone. */
export function runCopyRead(ctx: FeatureContext, copyId: number, job: JobRun): Promise<void> {
  return runPaidJob(job, {
    load: () => new CopywriteRepository(ctx.db).get(copyId),
    isOpen: (r) => Number(r.status) === CopywriteStatus.Queued || Number(r.status) === CopywriteStatus.Running,
    run: (r) => withWorkDir(ctx.config.dataDir, (dir) => readCopy(ctx, r, dir)),
    fail: (r, why) => failRecord(ctx, r.id, why),
    // A recognition engine that refuses for good is no reason to retry; the database or the disk may be.
    permanent: (err) => fetchFailureReason(err) ?? (err instanceof AsrFailed && !err.transient ? err.message : undefined),
    lastReason: (err) => (err instanceof AsrFailed ? err.message : MSG.extractFailedUnknown),
  });
}

/** Where a video to read comes from: the user's upload, or a link already checked at submit. */
export interface VideoSource {
  userId: number;
  way: number;
  link: string;
  fileId: number | null;
}

async function sourceVideo(ctx: FeatureContext, s: VideoSource, file: string): Promise<{ title: string }> {
  if (Number(s.way) === CopywriteType.Upload) {
    const video = s.fileId === null ? undefined : await new UploadRepository(ctx.db).ownVideoFile(s.fileId, s.userId);
    if (!video) throw new JobRefused(MSG.extractionVideoMissing);
    await fetchObject(ctx.storage, video.key, file);
    return { title: '' };
  }
  return { title: (await downloadLinkedVideo(ctx, s.link, file)).description };
}

/** Sentence ends a copy keeps; a sentence read without one gets a full stop. */
const ENDS = /[。！？!?…，,；;：:、~～]$/;

/** The whole copy from its sentences, with punctuation. */
export function copyText(segments: readonly CopySegment[]): string {
  return segments.map((s) => (ENDS.test(s.text) ? s.text : `${s.text}。`)).join('');
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A video's copy as read, and its cover (a file in the work folder). */
export interface ReadCopy {
  source: CopySource;
  segments: CopySegment[];
  text: string;
  title: string;
  duration: number;
  cover: string;
}

/**
 * Fetches a video into `dir`, checks it by its bytes, makes a cover and reads its copy (the speech first when a
 * recognition engine is set, else the captions); throws JobRefused when nothing is read. Super replica reads its
 * videos through here too.
 */
export async function readVideoCopy(ctx: FeatureContext, s: VideoSource, dir: string): Promise<ReadCopy> {
  const source = path.join(dir, 'source');
  const { title } = await sourceVideo(ctx, s, source);
  const { ext, info } = await checkedMedia(source, ExtractionType.Video);
  const video = path.join(dir, `video.${ext}`);
  fs.renameSync(source, video);
  const cover = await makeCover(video, ext, path.join(dir, 'cover.jpg'), { at: Math.min(1, info.duration / 3), maxWidth: 480, timeoutMs: 60_000 });

  let read: { source: CopySource; segments: CopySegment[] } | null = null;
  const asr = asrConfigFromSettings(await ctx.settings.all());
  if (asr && info.audio) {
    const sound = path.join(dir, 'sound.wav');
    await extractSpeechWav(video, ext, sound);
    try {
      const { segments } = await transcribe(asr, sound, 'zh');
      if (segments.length) read = { source: 'asr', segments };
    } catch (err) {
      // A service that is down is tried again; one that refuses this video leaves the captions to read.
      if (!(err instanceof AsrFailed) || err.transient) throw err;
    }
  }
  if (!read) {
    const { sentences } = await readCaptions(video, ext, { workDir: dir });
    if (sentences.length) read = { source: 'ocr', segments: sentences };
  }
  if (!read) throw new JobRefused(MSG.copyNothingFound);

  const segments = read.segments.map((x) => ({ start: round2(x.start), end: round2(x.end), text: x.text.trim() })).filter((x) => x.text);
  return { source: read.source, segments, text: copyText(segments), title, duration: round2(info.duration), cover };
}

async function readCopy(ctx: FeatureContext, r: CopyRow, dir: string): Promise<void> {
  const repo = new CopywriteRepository(ctx.db);
  await repo.start(r.id);
  const read = await readVideoCopy(ctx, { userId: r.user_id, way: r.way, link: r.link, fileId: r.file_id }, dir);
  const coverKey = (await storeUserFile(ctx, r.user_id, read.cover, 'jpg', 'image')).key;
  const done = await repo.succeed(r.id, { source: read.source, text: read.text, segments: read.segments, title: read.title, coverKey, duration: read.duration });
  // A repeated job that lost the race (or a record deleted meanwhile) keeps nothing.
  if (!done) await deleteObjects(ctx, [coverKey]);
}

/** Deletes the user's record and its cover; false when there is none. */
export async function removeCopy(ctx: FeatureContext, userId: number, id: number): Promise<boolean> {
  const removed = await new CopywriteRepository(ctx.db).remove(id, userId);
  if (!removed) return false;
  await deleteObjects(ctx, [removed.cover_key]);
  return true;
}
