/**
 * Video and audio extraction (part 2 §2.5, §2.6, §9). A submit finds the link in the pasted text (or takes the
 * user's uploaded video), charges it — a free daily extraction when the operator grants some and one is left,
 * else LIMITS.extractionCredits — and queues the record's job. The job asks the link-parse engine for the post's
 * media (a direct media link needs none), downloads it into our storage at once through the guarded fetcher, checks
 * it by its bytes and probes it; a video record keeps the video and a cover, an audio record an mp3 of the sound.
 * A failure refunds the charge (or gives the free count back) and the record says why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ExtractionStatus, AudioExtractType, findLink, isDirectMediaLink, LIMITS, linkRefusal, MSG } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ApiError } from '../../infra/http';
import { FetchRefused, guardedDownload, type FetchFailure } from '../../infra/guarded-fetch';
import { sniffFile } from '../../infra/media-files';
import { probe, type ProbeResult } from '../../infra/media-probe';
import type { JobRun } from '../../infra/queue';
import { JobRefused, runPaidJob } from '../../infra/paid-job';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { extractMp3, makeCover } from '../../engines/media';
import { ParseFailed, parserFromSettings } from '../../engines/parse';
import { UploadRepository } from '../upload';
import { addCharged, failCharged, freeDaily } from './charged-record';
import { ExtractionType, ExtractionRepository, type ExtractionTypeValue, type ExtractionRow } from './extraction.repository';
import { fetchObject } from '../../infra/storage';

const ACTION: Record<ExtractionTypeValue, string> = { [ExtractionType.Video]: '视频提取', [ExtractionType.Audio]: '音频提取' };

export async function freeLeftToday(ctx: FeatureContext, userId: number, kind: ExtractionTypeValue): Promise<number> {
  const daily = await freeDaily(ctx);
  if (daily === 0) return 0;
  return Math.max(0, daily - (await new ExtractionRepository(ctx.db).freeUsedToday(userId, kind)));
}

/** Share links can be parsed (an operator configured a parser); direct media links need none. */
export const linksParsable = async (ctx: FeatureContext): Promise<boolean> => parserFromSettings(await ctx.settings.all()) !== null;

/** The link of a pasted share text, refused at once when we would never fetch it or cannot parse it. */
export async function submittedLink(ctx: FeatureContext, text: string): Promise<string> {
  const link = linkIn(ctx, text, MSG.extractionLinkMissing);
  if (!isDirectMediaLink(link) && !(await linksParsable(ctx))) throw new ApiError(MSG.parseEngineMissing);
  return link;
}

/** The first link in a pasted text, held to the rules of any link a user gives (no private addresses); `missing` when there is none. */
export function linkIn(ctx: FeatureContext, text: string, missing: string): string {
  const link = findLink(text);
  if (!link) throw new ApiError(missing);
  if (linkRefusal(link, (port) => !!ctx.config.fetchLoopbackPorts?.includes(port))) throw new ApiError(MSG.extractionLinkRefused);
  return link;
}

export interface Submission {
  kind: ExtractionTypeValue;
  /** A pasted text with a link in it (way 1). */
  text?: string;
  /** The user's uploaded video (audio extraction, way 2). */
  fileId?: number;
}

/** Records, charges and queues one extraction; answers its id. */
export async function submitExtraction(ctx: FeatureContext, userId: number, s: Submission): Promise<number> {
  let link = '';
  let description = '';
  let way: number = AudioExtractType.Link;
  if (s.fileId !== undefined) {
    const video = await new UploadRepository(ctx.db).ownVideoFile(s.fileId, userId);
    if (!video) throw new ApiError(MSG.extractionVideoMissing);
    way = AudioExtractType.Upload;
    description = video.name.replace(/\.[^.]+$/, '') || '本地视频';
  } else link = await submittedLink(ctx, s.text ?? '');

  return addCharged(ctx, charge(s.kind, userId), {
    usedToday: (q) => new ExtractionRepository(q).freeUsedToday(userId, s.kind, true),
    add: (q, free) => new ExtractionRepository(q).add({ userId, kind: s.kind, way, link, fileId: s.fileId ?? null, description, free }),
    setSpend: (q, id, entryId) => new ExtractionRepository(q).setSpend(id, entryId),
    queue: (q, id) => ctx.queue.send('extraction-run', { extractionId: id }, {}, q),
  });
}

const charge = (kind: ExtractionTypeValue, userId = 0) => ({ userId, credits: LIMITS.extractionCredits, action: ACTION[kind], key: (id: number) => `analyse:${id}` });

/** Fails a record once with the user's reason, giving back its credits or its free count. */
async function failRecord(ctx: FeatureContext, r: ExtractionRow, why: string): Promise<void> {
  await failCharged(ctx, { ...charge(r.kind as ExtractionTypeValue), id: r.id }, (q) =>
    new ExtractionRepository(q).fail(r.id, { free: MSG.extractionFailed(why, true), paid: MSG.extractionFailed(why, false) }),
  );
}

/** A failure the user's input or the engine caused: the record fails at once, no retry. */
class ExtractionRefused extends JobRefused {}

const FETCH_REASONS: Record<FetchFailure, string> = {
  address: MSG.fetchAddressRefused, scheme: MSG.fetchAddressRefused, invalid: MSG.fetchAddressRefused,
  redirects: MSG.fetchTooManyRedirects, size: MSG.fetchTooLarge, timeout: MSG.fetchTimeout, status: MSG.fetchFailed, network: MSG.fetchFailed,
};

/** The user's reason for a refused fetch or a failed parse; undefined for other errors (worth another try). */
export function fetchFailureReason(err: unknown): string | undefined {
  return err instanceof FetchRefused ? FETCH_REASONS[err.failure] : err instanceof ParseFailed ? err.message : undefined;
}

/** The job of a record, through the paid-job runner: a record no longer processing is left alone. */
export function runExtraction(ctx: FeatureContext, extractionId: number, job: JobRun): Promise<void> {
  return runPaidJob(job, {
    load: () => new ExtractionRepository(ctx.db).get(extractionId),
    isOpen: (record) => Number(record.status) === ExtractionStatus.Processing,
    run: (record) => withWorkDir(ctx.config.dataDir, (dir) => extract(ctx, record, dir)),
    fail: (record, why) => failRecord(ctx, record, why),
    // Anything else (the database, the disk) is tried again; the last attempt fails the record and refunds it.
    permanent: fetchFailureReason,
    lastReason: MSG.extractFailedUnknown,
  });
}

/** Where the record's media comes from: the user's upload, a direct media link, or the engine's answer for the link. */
async function fetchSource(ctx: FeatureContext, record: ExtractionRow, dir: string): Promise<{ file: string; description: string }> {
  const file = path.join(dir, 'source');
  if (Number(record.way) === AudioExtractType.Upload) {
    const video = record.file_id === null ? undefined : await new UploadRepository(ctx.db).ownVideoFile(record.file_id, record.user_id);
    if (!video) throw new ExtractionRefused(MSG.extractionVideoMissing);
    await fetchObject(ctx.storage, video.key, file);
    return { file, description: record.description };
  }
  if (Number(record.kind) === ExtractionType.Video) return downloadLinkedVideo(ctx, record.link, file);
  const guard = { maxBytes: LIMITS.video.maxBytes, allowLoopbackPorts: ctx.config.fetchLoopbackPorts };
  if (isDirectMediaLink(record.link)) {
    await guardedDownload(record.link, file, guard);
    return { file, description: linkName(record.link) };
  }
  const parser = parserFromSettings(await ctx.settings.all());
  if (!parser) throw new ExtractionRefused(MSG.parseEngineMissing);
  const post = await parser.parse(record.link);
  // Audio: the video's own sound, or the post's music when it has no video (a picture post with music).
  const url = post.videoUrl ?? post.musicUrl;
  if (!url) throw new ExtractionRefused(MSG.parseNoAudio);
  await guardedDownload(url, file, guard);
  return { file, description: post.desc.trim() };
}

/** A direct media link's file name, without its extension. */
const linkName = (link: string) => decodeURIComponent(new URL(link).pathname.split('/').pop() ?? '').replace(/\.[^.]+$/, '');

/**
 * The video of a submitted link (submittedLink) into `file`, under the guarded fetcher: a direct media link as it is,
 * else the link-parse engine's answer for the post. Also the post's title (or the file's name). Refusals are
 * JobRefused; fetchFailureReason words the fetcher's and the engine's failures.
 */
export async function downloadLinkedVideo(ctx: FeatureContext, link: string, file: string): Promise<{ file: string; description: string }> {
  const guard = { maxBytes: LIMITS.video.maxBytes, allowLoopbackPorts: ctx.config.fetchLoopbackPorts };
  if (isDirectMediaLink(link)) {
    await guardedDownload(link, file, guard);
    return { file, description: linkName(link) };
  }
  const parser = parserFromSettings(await ctx.settings.all());
  if (!parser) throw new ExtractionRefused(MSG.parseEngineMissing);
  const post = await parser.parse(link);
  if (!post.videoUrl) throw new ExtractionRefused(MSG.parseNotVideo);
  await guardedDownload(post.videoUrl, file, guard);
  return { file, description: post.desc.trim() };
}

const VIDEO_FORMATS = ['mp4', 'mov'];
const AUDIO_SOURCES = ['mp4', 'mov', 'm4a', 'mp3', 'wav'];

/** Checks the downloaded bytes as uploads are checked: the format by its magic bytes, then ffprobe. */
export async function checkedMedia(file: string, kind: ExtractionTypeValue): Promise<{ ext: string; info: ProbeResult }> {
  const ext = sniffFile(file);
  if (!ext || !(kind === ExtractionType.Video ? VIDEO_FORMATS : AUDIO_SOURCES).includes(ext)) throw new ExtractionRefused(MSG.extractMediaInvalid);
  let info: ProbeResult;
  try {
    info = await probe(file, ext);
  } catch {
    throw new ExtractionRefused(MSG.extractMediaInvalid);
  }
  if (kind === ExtractionType.Video && !info.video) throw new ExtractionRefused(MSG.extractMediaInvalid);
  if (kind === ExtractionType.Audio && !info.audio) throw new ExtractionRefused(MSG.extractNoSound);
  if (!(info.duration > 0)) throw new ExtractionRefused(MSG.extractMediaInvalid);
  return { ext, info };
}

async function extract(ctx: FeatureContext, record: ExtractionRow, dir: string): Promise<void> {
  const kind = Number(record.kind) as ExtractionTypeValue;
  const source = await fetchSource(ctx, record, dir);
  const { ext, info } = await checkedMedia(source.file, kind);
  const media = path.join(dir, `media.${ext}`);
  fs.renameSync(source.file, media);

  let cover: string | undefined;
  if (info.video) {
    cover = await makeCover(media, ext, path.join(dir, 'cover.jpg'), { at: Math.min(1, info.duration / 3), maxWidth: 480, timeoutMs: 60_000 });
  }
  let result: { file: string; ext: string; kind: 'video' | 'voice'; duration: number } = { file: media, ext, kind: 'video', duration: info.duration };
  if (kind === ExtractionType.Audio) {
    const mp3 = path.join(dir, 'sound.mp3');
    await extractMp3(media, ext, mp3);
    result = { file: mp3, ext: 'mp3', kind: 'voice', duration: (await probe(mp3, 'mp3')).duration };
  }
  const stored = await storeUserFile(ctx, record.user_id, result.file, result.ext, result.kind, result.duration);
  const coverKey = cover ? (await storeUserFile(ctx, record.user_id, cover, 'jpg', 'image')).key : '';
  const size = fs.statSync(result.file).size;
  const description = source.description || record.description || (kind === ExtractionType.Audio ? '提取的音频' : '提取的视频');
  const done = await new ExtractionRepository(ctx.db).succeed(record.id, { description, mediaKey: stored.key, coverKey, size, duration: result.duration });
  // A repeated job that lost the race keeps nothing.
  if (!done) await deleteObjects(ctx, [stored.key, coverKey]);
}

/** Saves a finished record's media to the user's material library as a copy (source 2, origin analyse). */
export async function saveToMaterial(ctx: FeatureContext, userId: number, p: { rid: number; type: 'video' | 'audio'; name: string }): Promise<number> {
  const repo = new ExtractionRepository(ctx.db);
  const record = await repo.get(p.rid);
  const kind = p.type === 'video' ? ExtractionType.Video : ExtractionType.Audio;
  if (!record || record.user_id !== userId || Number(record.status) !== ExtractionStatus.Success || Number(record.kind) !== kind) {
    throw new ApiError(MSG.extractionRecordMissing);
  }
  return withWorkDir(ctx.config.dataDir, async (dir) => {
    const ext = record.media_key.split('.').pop()!;
    const copy = path.join(dir, `media.${ext}`);
    await fetchObject(ctx.storage, record.media_key, copy);
    return ctx.db.tx(async (q) => {
      const stored = await storeUserFile({ db: q, storage: ctx.storage }, userId, copy, ext, kind === ExtractionType.Video ? 'video' : 'voice', Number(record.duration));
      return new ExtractionRepository(q).addMaterial({ userId, type: p.type, name: p.name, fileId: stored.fileId });
    });
  });
}
