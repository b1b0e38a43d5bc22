/**
 * AI music. A submit checks the engine and the input, records the task and reserves its price (music_credits,
 * default 50) in one transaction, and queues one job. The job writes the lyrics of a song submitted without them
 * (kept on the task, so a retry sings the same), has the engine make the music, checks the result by content like
 * an upload and copies it into the user's storage at once (provider links expire). A failure marks the task with its
 * reason and refunds the price; a transient provider failure is retried by the queue. The library (the operator's
 * published tracks, loudness-normalised) needs no engine.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LIMITS, MSG, MUSIC_IN_PROGRESS, MusicStatus, type API, type CallParsedRequest, type MusicEngine as MusicEngineName, type MusicTask } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ApiError } from '../../infra/http';
import type { JobRun } from '../../infra/queue';
import { JobRefused, runPaidJob } from '../../infra/paid-job';
import { formatDateTime } from '../../infra/time';
import { deleteObjects, localFileSize, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { normaliseLoudness } from '../../engines/media';
import { MUSIC_SETTING_KEYS, MusicEngineError, musicEngineFor, resolveMusicConfig, type MusicEngine } from '../../engines/music';
import { refundIn, spendOrRefuse } from '../credits';
import { checkMedia, MediaRefused } from '../upload';
import { VoicesRepository } from '../voices';
import { MusicRepository, type MusicRow } from './music.repository';

type Submission = CallParsedRequest<typeof API.music.create>;
const M = LIMITS.music;

/** A song's price: the operator's music_credits, or the default when unset or not a number. */
export function musicCredits(settings: Record<string, string | undefined>): number {
  const raw = settings[MUSIC_SETTING_KEYS.credits]?.trim() ?? '';
  const value = raw === '' ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? Math.floor(value) : M.defaultCredits;
}

/** The engine the settings make (its key may be the voice channel mm's), or null: generation is off. */
export async function musicConfig(ctx: FeatureContext) {
  const settings = await ctx.settings.all();
  const voiceChannel = settings[MUSIC_SETTING_KEYS.engine]?.trim() === 'minimax' ? await new VoicesRepository(ctx.db).voiceChannel('mm') : undefined;
  return { settings, resolved: resolveMusicConfig(settings, voiceChannel?.config) };
}

export async function engineState(ctx: FeatureContext): Promise<{ engine: MusicEngineName | null; credits: number }> {
  const { settings, resolved } = await musicConfig(ctx);
  return { engine: resolved ? 'minimax' : null, credits: musicCredits(settings) };
}

export async function submitMusic(ctx: FeatureContext, userId: number, s: Submission): Promise<number> {
  const { settings, resolved } = await musicConfig(ctx);
  if (!resolved) throw new ApiError(MSG.musicEngineMissing);
  const instrumental = s.instrumental === 1;
  const lyrics = instrumental ? '' : s.lyrics;
  if (lyrics && [...lyrics.replace(/\[[^\]]*\]/g, '').replace(/\s/g, '')].length < M.lyricsMinChars) throw new ApiError(MSG.musicLyricsTooShort(M.lyricsMinChars));
  const credits = musicCredits(settings);
  return await ctx.db.tx(async (q) => {
    const repo = new MusicRepository(q);
    const id = await repo.add({ userId, title: s.title, prompt: s.prompt, lyrics, instrumental, credits });
    if (credits > 0) {
      const spend = await spendOrRefuse(q, { userId, amount: credits, action: 'AI音乐', key: `music:${id}` });
      await repo.setSpend(id, spend.entryId);
    }
    // A song takes the provider a minute or two, a written song twice that: the queue must not take it for stuck.
    await ctx.queue.send('music-generate', { musicId: id }, { runsUpToSeconds: 25 * 60 }, q);
    return id;
  });
}

export function musicView(ctx: FeatureContext, r: MusicRow): MusicTask {
  const status = Number(r.status);
  const done = status === MusicStatus.Done;
  return {
    id: r.id, title: r.title, status,
    url: done && r.audio_key ? ctx.urls.url(r.audio_key) : '',
    duration: done ? Math.round(Number(r.duration) * 100) / 100 : 0,
    lyrics: r.lyrics, instrumental: r.instrumental ? 1 : 0,
    ...(status === MusicStatus.Failed ? { reason: r.reason || MSG.musicFailedUnknown } : {}),
    create_time: formatDateTime(r.created_at), prompt: r.prompt, background: r.background ? 1 : 0,
    credits: status === MusicStatus.Failed ? 0 : Number(r.credits),
  };
}

/** Deletes a finished or failed task and its file (a copy saved to the material library stays). */
export async function removeMusic(ctx: FeatureContext, userId: number, id: number): Promise<void> {
  const removed = await new MusicRepository(ctx.db).removeFinished(id, userId, { missing: MSG.musicTaskMissing, busy: MSG.musicBusy });
  await deleteObjects(ctx, [removed.audio_key]);
}

async function failMusic(ctx: FeatureContext, id: number, why: string): Promise<void> {
  await ctx.db.tx(async (q) => {
    const failed = await new MusicRepository(q).failPaid(id, (refunded) => (refunded ? MSG.musicFailed(why) : why));
    if (failed?.refund) await refundIn(q, { ...failed.refund, action: 'AI音乐失败退回', key: `music:${id}:failed` });
  });
}

/** A file the engine answered, checked by content like an upload; answers its format and length. */
async function checkedResult(file: string): Promise<{ ext: string; duration: number }> {
  try {
    return await checkMedia(file, 'voice', localFileSize(file) ?? 0);
  } catch (err) {
    if (err instanceof MediaRefused) throw new JobRefused(MSG.musicResultInvalid);
    throw err;
  }
}

async function generate(ctx: FeatureContext, engine: MusicEngine, record: MusicRow, dir: string): Promise<void> {
  const repo = new MusicRepository(ctx.db);
  let lyrics = record.lyrics;
  if (!record.instrumental && !lyrics) {
    lyrics = await engine.writeLyrics(record.prompt, record.title);
    await repo.setLyrics(record.id, lyrics);
  }
  const raw = await engine.generate({ prompt: record.prompt, lyrics, instrumental: record.instrumental }, dir);
  const { ext, duration } = await checkedResult(raw);
  const file = path.join(dir, `music.${ext}`);
  fs.renameSync(raw, file);
  const stored = await storeUserFile(ctx, record.user_id, file, ext, 'voice', duration);
  if (!(await repo.succeed(record.id, { audioKey: stored.key, duration }))) await deleteObjects(ctx, [stored.key]);
}

/** The job of a task, on the paid-job runner. */
export async function runMusic(ctx: FeatureContext, musicId: number, job: JobRun): Promise<void> {
  const repo = new MusicRepository(ctx.db);
  await runPaidJob(job, {
    load: () => repo.get(musicId),
    isOpen: (record) => (MUSIC_IN_PROGRESS as readonly number[]).includes(Number(record.status)),
    run: async (record) => {
      const { resolved } = await musicConfig(ctx);
      if (!resolved) throw new JobRefused(MSG.musicEngineMissing);
      await repo.start(musicId);
      await withWorkDir(ctx.config.dataDir, (dir) => generate(ctx, musicEngineFor(resolved.config), record, dir));
    },
    fail: (_record, why) => failMusic(ctx, musicId, why),
    permanent: (err) => (err instanceof MusicEngineError && !err.transient ? err.message : undefined),
    lastReason: (err) => (err instanceof MusicEngineError ? err.message : MSG.musicFailedUnknown),
  });
}

/** The operator publishes a library track from a local file: checked like an upload, then loudness-normalised. */
export async function publishTrack(ctx: FeatureContext, p: { name: string; audio: string; mood: string }): Promise<{ id: number; duration: number }> {
  const file = path.resolve(p.audio);
  const size = localFileSize(file);
  if (size === null) throw new ApiError(`文件不存在：${p.audio}`);
  const repo = new MusicRepository(ctx.db);
  if (await repo.libraryNameTaken(p.name)) throw new ApiError(MSG.publicNameTaken('音乐', p.name));
  let ext: string;
  try {
    ext = (await checkMedia(file, 'voice', size)).ext;
  } catch (err) {
    if (err instanceof MediaRefused) throw new ApiError(`${p.audio}：${err.message}`);
    throw err;
  }
  return withWorkDir(ctx.config.dataDir, async (dir) => {
    const output = path.join(dir, 'track.mp3');
    const { duration } = await normaliseLoudness({ file, ext }, M.loudnessLufs, output);
    const stored = await storeUserFile(ctx, null, output, 'mp3', 'voice', duration);
    return { id: await repo.addLibrary({ name: p.name, mood: p.mood, audioKey: stored.key, duration }), duration: Math.round(duration * 100) / 100 };
  });
}
