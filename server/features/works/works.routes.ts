/**
 * Single-video works: submission reserves credits at the channel's price per second for the estimated
 * duration and queues a render in the same transaction; the render (of single and multi-scene works) posts
 * the actual duration's price and returns the rest; a failure returns everything. The works list, rename, delete.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { API, MSG, estimateSeconds, type CallParsedRequest } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { JOB_RETRY_LIMIT } from '../../infra/queue';
import { formatDateTime } from '../../infra/time';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { prepareAvatar, renderTalkingVideo } from '../../engines/video/local-engine';
import { SpeechEngineError, type SpeechParams } from '../../engines/speech/speech-engine';
import { InsufficientCreditsError, refundIn, spendIn } from '../credits';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { renderMulti, type MultiParams } from './multi-render';

export const WorkStatus = { Queued: 1, Rendering: 2, Done: 3, Failed: 4 } as const;

interface ChannelRow {
  api: string;
  name: string;
  description: string;
  version_name: string;
  credits: number;
  enabled: boolean;
  engine: string;
}

export async function videoChannel(q: Queryable, api: string): Promise<ChannelRow | undefined> {
  const { rows } = await q.query<ChannelRow>(`SELECT * FROM channels WHERE kind = 'video' AND api = $1`, [api]);
  return rows[0];
}

interface WorkRow {
  id: number;
  is_multi: number;
  user_id: number;
  name: string;
  api: string;
  status: number;
  video_key: string;
  cover_key: string;
  duration: number;
  reason: string;
  created_at: Date;
  channel_name: string | null;
}

/** What a work speaks, as stored with it: params.speech is set when the render job must synthesize first. */
export interface WorkParams {
  language?: string;
  emotion?: string;
  /** A material-library video used as the avatar: the render prepares it as a clone would. */
  material_video_file_id?: number;
  speech?: { voice_id: number } & SpeechParams;
}

/** The voice's saved speed/volume/pitch, unless the request carries its own (the public-voice tab sends them). */
export function speechSettings(voice: { rate: number; volume: number; pitch: number }, given: { rate?: number; volume?: number; pitch?: number; language?: string; emotion?: string }): SpeechParams {
  return {
    rate: given.rate ?? Number(voice.rate),
    volume: given.volume ?? Number(voice.volume),
    pitch: given.pitch ?? Number(voice.pitch),
    language: given.language ?? '',
    emotion: given.emotion ?? '',
  };
}

/** The user's own audio file behind a file id or a material id; else the spec's message. */
export async function ownAudio(q: Queryable, userId: number, ref: { fileId?: number; materialId?: number }) {
  const { rows } = ref.materialId !== undefined
    ? await q.query<{ id: number; duration: number; kind: string }>(
      `SELECT f.id, f.duration, f.kind FROM materials m JOIN files f ON f.id = m.file_id WHERE m.id = $1 AND m.user_id = $2`, [ref.materialId, userId])
    : await q.query<{ id: number; duration: number; kind: string }>('SELECT id, duration, kind FROM files WHERE id = $1 AND user_id = $2', [ref.fileId, userId]);
  if (!rows[0] || rows[0].kind !== 'voice') throw new ApiError(MSG.audioFileRequired);
  return rows[0];
}

/** Who appears: a ready avatar (own or public), or a video of the user's material library. */
async function faceInput(q: Queryable, userId: number, params: CallParsedRequest<typeof API.works.create>): Promise<{ avatarId?: number; materialFileId?: number; duration: number }> {
  if (params.material_video_id !== undefined) {
    const { rows } = await q.query<{ id: number; duration: number }>(
      `SELECT f.id, f.duration FROM materials m JOIN files f ON f.id = m.file_id WHERE m.id = $1 AND m.user_id = $2 AND f.kind = 'video'`,
      [params.material_video_id, userId],
    );
    if (!rows[0]) throw new ApiError(MSG.avatarRequired);
    return { materialFileId: rows[0].id, duration: Number(rows[0].duration) };
  }
  const { rows } = await q.query<{ id: number; status: number; duration: number }>('SELECT id, status, duration FROM avatars WHERE id = $1 AND (user_id = $2 OR user_id IS NULL)', [params.video_id, userId]);
  if (!rows[0]) throw new ApiError(MSG.avatarRequired);
  if (Number(rows[0].status) !== 3) throw new ApiError(MSG.avatarNotReady);
  return { avatarId: rows[0].id, duration: Number(rows[0].duration) };
}

async function spokenInput(ctx: FeatureContext, q: Queryable, userId: number, params: CallParsedRequest<typeof API.works.create>) {
  const context = { language: params.language, emotion: params.emotion };
  if (params.voice_id !== undefined || params.material_audio_id !== undefined) {
    if (params.user_voice_id !== undefined) await ctx.speech.usableVoice(q, params.user_voice_id, userId);
    return { audio: await ownAudio(q, userId, { fileId: params.voice_id, materialId: params.material_audio_id }), params: context as WorkParams };
  }
  const voice = await ctx.speech.usableVoice(q, params.user_voice_id!, userId);
  return { audio: undefined, params: { ...context, speech: { voice_id: voice.id, ...speechSettings(voice, params) } } as WorkParams };
}

/**
 * Inside a work's submitting transaction: reserves its credits (MSG.insufficientCredits when short, which rolls
 * everything back) and queues its render, which runs only if the transaction commits.
 */
export async function reserveAndQueue(ctx: FeatureContext, q: Queryable, work: { userId: number; workId: number; amount: number; action: string }): Promise<number> {
  if (work.amount > 0) {
    try {
      const spend = await spendIn(q, { userId: work.userId, amount: work.amount, action: work.action, key: `work:${work.workId}` });
      await q.query('UPDATE works SET spend_entry_id = $2 WHERE id = $1', [work.workId, spend.entryId]);
    } catch (err) {
      if (err instanceof InsufficientCreditsError) throw new ApiError(MSG.insufficientCredits);
      throw err;
    }
  }
  await ctx.queue.send('work-render', { workId: work.workId }, {}, q);
  return work.workId;
}

export function registerWorksRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;

  router.handle(API.works.videoChannel, async () => {
    const { rows } = await db.query<ChannelRow>(`SELECT * FROM channels WHERE kind = 'video' AND enabled ORDER BY sort, api`);
    return {
      list: rows.map((c) => ({ api: c.api, name: c.name, desc: c.description, version_name: c.version_name, credits: Number(c.credits) })),
      tips: '效果排序：3.0 深度 > 2.0 极速 > 1.0 免费',
    };
  });

  router.handle(API.works.create, async ({ params, user }) => {
    const channel = await videoChannel(db, params.api);
    if (!channel || !channel.enabled) throw new ApiError(MSG.channelUnavailable);
    if (params.photo_id !== undefined) throw new ApiError(MSG.comingSoon);
    const face = await faceInput(db, user.id, params);
    if (params.api === 'gj' && !(face.duration >= 30 && face.duration <= 300)) throw new ApiError(MSG.gjDurationInvalid);

    // What is spoken: an uploaded audio or a material audio (audio mode); in text mode the audition the client
    // synthesized (voice_id), or, without one, speech the render job synthesizes from the text and the voice.
    const speech = await spokenInput(ctx, db, user.id, params);
    const seconds = speech.audio ? Number(speech.audio.duration) : estimateSeconds(params.text ?? '');
    const price = Number(channel.credits);
    const reserve = Math.ceil(seconds * price);
    return db.tx(async (q) => {
      const { rows } = await q.query<{ id: number }>(
        `INSERT INTO works (user_id, name, api, status, avatar_id, audio_file_id, text, params, price, reserved)
         VALUES ($1, $2, $3, 1, $4, $5, $6, $7, $8, $9) RETURNING id`,
        [user.id, params.name, params.api, face.avatarId ?? null, speech.audio?.id ?? null, params.text ?? '', JSON.stringify({ ...speech.params, material_video_file_id: face.materialFileId }), price, reserve],
      );
      return { id: await reserveAndQueue(ctx, q, { userId: user.id, workId: rows[0]!.id, amount: reserve, action: `视频合成·${channel.name}` }) };
    });
  });

  router.handle(API.works.list, async ({ params, user }) => {
    const where = ['w.user_id = $1'];
    const args: unknown[] = [user.id];
    const add = (sql: string, value: unknown) => {
      args.push(value);
      where.push(sql.replace('?', `$${args.length}`));
    };
    if (params.status !== undefined) add('w.status = ?', params.status);
    if (params.name) add('w.name ILIKE ?', `%${params.name}%`);
    if (params.is_multi !== undefined) add('w.is_multi = ?', params.is_multi);
    if (params.only_audio !== undefined) add('w.only_audio = ?', params.only_audio);
    if (params.photo_type !== undefined) add('w.photo_type = ?', params.photo_type);
    const filter = where.join(' AND ');
    const { rows: counts } = await db.query<{ total: number; generate: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE w.status IN (1, 2))::int AS generate FROM works w WHERE ${filter}`,
      args,
    );
    const { total, generate } = counts[0]!;
    if (params.page === 0 && params.limit === 0) return { list: [], total, generate };
    const limit = params.limit > 0 ? Math.min(params.limit, 200) : 20;
    const offset = (Math.max(params.page, 1) - 1) * limit;
    const { rows } = await db.query<WorkRow>(
      `SELECT w.*, c.name AS channel_name FROM works w LEFT JOIN channels c ON c.kind = 'video' AND c.api = w.api
        WHERE ${filter} ORDER BY w.id DESC LIMIT ${limit} OFFSET ${offset}`,
      args,
    );
    return {
      list: rows.map((w) => ({
        id: w.id,
        name: w.name,
        url: Number(w.status) === 3 ? urls.url(w.video_key) : '',
        cover: urls.url(w.cover_key),
        status: Number(w.status),
        // Multi-scene works are submitted as fy (V3.0) but rendered by the local engine: say what really renders them.
        api_name: Number(w.is_multi) ? '多场景 V3.0 · 本地合成' : (w.channel_name ?? w.api),
        api_key: Number(w.is_multi) ? 'local' : w.api,
        create_time: formatDateTime(w.created_at),
        duration: Number(w.duration),
        reason: w.reason,
      })),
      total,
      generate,
    };
  });

  router.handle(API.works.rename, async ({ params, user }) => {
    const { rowCount } = await db.query('UPDATE works SET name = $3 WHERE id = $1 AND user_id = $2 AND status = 3', [params.id, user.id, params.name]);
    if (rowCount === 0) throw new ApiError(MSG.notFound);
    return {};
  });

  router.handle(API.works.remove, async ({ params, user }) => {
    const { rows } = await db.query<{ video_key: string; cover_key: string; params: WorkParams }>(
      'DELETE FROM works WHERE id = $1 AND user_id = $2 AND status IN (3, 4) RETURNING video_key, cover_key, params',
      [params.id, user.id],
    );
    if (!rows[0]) throw new ApiError(MSG.workBusyOrMissing);
    // A cover made from a material video is the work's own; an avatar's cover stays with the avatar.
    await deleteObjects(ctx, [rows[0].video_key, rows[0].params.material_video_file_id ? rows[0].cover_key : '']);
    return {};
  });
}

/** A work's input disappeared (avatar, audio or voice deleted): the work fails at once, credits returned. */
export class WorkInputGone extends Error {}

export interface RenderedWork {
  file: string;
  ext: 'mp4' | 'mp3';
  duration: number;
  coverKey: string;
}

export interface RenderRow {
  user_id: number;
  status: number;
  is_multi: number;
  loop_key: string | null;
  cover_key: string | null;
  audio_key: string | null;
  text: string;
  params: WorkParams & MultiParams;
  price: number;
  reserved: number;
  spend_entry_id: number | null;
}

/** Copies a stored object into the job's directory (inputs of ffmpeg must be local files). */
export async function fetchObject(ctx: FeatureContext, key: string, file: string): Promise<string> {
  await pipeline(ctx.storage.get(key), fs.createWriteStream(file));
  return file;
}

/** Speech for a text: the voice (own or public, still usable) through its channel's engine. */
export async function speak(ctx: FeatureContext, userId: number, spec: { voice_id: number } & SpeechParams, text: string, output: string): Promise<string> {
  const voice = await ctx.speech.readyVoice(spec.voice_id, userId);
  if (!voice) throw new WorkInputGone('所选声音已不可用，积分已退回');
  await ctx.speech.synthesize(voice, text, spec, output);
  return output;
}

/** The clip a work loops and its cover: the avatar's, or one prepared now from a material-library video. */
async function faceOf(ctx: FeatureContext, work: RenderRow, dir: string): Promise<{ loop: string; coverKey: string }> {
  if (work.loop_key) return { loop: await fetchObject(ctx, work.loop_key, path.join(dir, 'loop.mp4')), coverKey: work.cover_key ?? '' };
  const fileId = work.params.material_video_file_id;
  const { rows } = fileId ? await ctx.db.query<{ key: string }>('SELECT object_key AS key FROM files WHERE id = $1 AND user_id = $2', [fileId, work.user_id]) : { rows: [] };
  if (!rows[0]) throw new WorkInputGone('数字人或音频已被删除');
  const ext = rows[0].key.slice(rows[0].key.lastIndexOf('.') + 1);
  const prepared = await prepareAvatar(await fetchObject(ctx, rows[0].key, path.join(dir, `material.${ext}`)), ext, dir);
  const cover = await storeUserFile(ctx, work.user_id, prepared.cover, 'jpg', 'image');
  return { loop: prepared.loop, coverKey: cover.key };
}

async function renderSingle(ctx: FeatureContext, work: RenderRow, dir: string): Promise<RenderedWork> {
  let audio: { file: string; ext: string };
  if (work.audio_key) {
    const ext = work.audio_key.slice(work.audio_key.lastIndexOf('.') + 1);
    audio = { file: await fetchObject(ctx, work.audio_key, path.join(dir, `audio.${ext}`)), ext };
  } else if (work.params.speech) {
    audio = { file: await speak(ctx, work.user_id, work.params.speech, work.text, path.join(dir, 'speech.mp3')), ext: 'mp3' };
  } else {
    throw new WorkInputGone('数字人或音频已被删除');
  }
  const face = await faceOf(ctx, work, dir);
  const output = path.join(dir, 'work.mp4');
  const { duration } = await renderTalkingVideo(face.loop, audio.file, audio.ext, output);
  return { file: output, ext: 'mp4', duration, coverKey: face.coverKey };
}

/**
 * The render job (single and multi-scene). At-least-once delivery: a finished or failed work is left alone,
 * credits are posted or returned under idempotency keys, and only the last attempt turns an error into a
 * failed work.
 */
export async function runWorkRender(ctx: FeatureContext, workId: number, attempt: number): Promise<void> {
  const { db } = ctx;
  const { rows } = await db.query<RenderRow>(
    `SELECT w.user_id, w.status, w.is_multi, a.loop_key, a.cover_key, f.object_key AS audio_key, w.text, w.params, w.price, w.reserved, w.spend_entry_id
       FROM works w LEFT JOIN avatars a ON a.id = w.avatar_id LEFT JOIN files f ON f.id = w.audio_file_id WHERE w.id = $1`,
    [workId],
  );
  const work = rows[0];
  if (!work || Number(work.status) >= 3) return;

  const fail = (reason: string) =>
    db.tx(async (q) => {
      const { rowCount } = await q.query(`UPDATE works SET status = 4, reason = $2, finished_at = now() WHERE id = $1 AND status < 3`, [workId, reason]);
      if (rowCount && work.spend_entry_id) {
        await refundIn(q, { userId: work.user_id, spendEntryId: work.spend_entry_id, amount: Number(work.reserved), action: '视频合成失败退回', key: `work:${workId}:failed` });
      }
    });

  await db.query('UPDATE works SET status = 2 WHERE id = $1 AND status = 1', [workId]);
  try {
    await withWorkDir(ctx.config.dataDir, async (dir) => {
      const rendered = Number(work.is_multi) ? await renderMulti(ctx, work, dir) : await renderSingle(ctx, work, dir);
      const stored = await storeUserFile(ctx, work.user_id, rendered.file, rendered.ext, rendered.ext === 'mp4' ? 'video' : 'voice', rendered.duration);
      const cost = Math.min(Math.ceil(rendered.duration * Number(work.price)), Number(work.reserved));
      const done = await db.tx(async (q) => {
        const { rowCount } = await q.query(
          `UPDATE works SET status = 3, video_key = $2, cover_key = $3, duration = $4, charged = $5, finished_at = now() WHERE id = $1 AND status < 3`,
          [workId, stored.key, rendered.coverKey, rendered.duration, cost],
        );
        if (rowCount && work.spend_entry_id && Number(work.reserved) > cost) {
          await refundIn(q, { userId: work.user_id, spendEntryId: work.spend_entry_id, amount: Number(work.reserved) - cost, action: '视频合成按实际时长结算退回', key: `work:${workId}:settle` });
        }
        return rowCount > 0;
      });
      if (!done) await deleteObjects(ctx, [stored.key]);
    });
  } catch (err) {
    if (err instanceof WorkInputGone) return void (await fail(err.message));
    const permanent = err instanceof SpeechEngineError && !err.transient;
    if (permanent || attempt >= JOB_RETRY_LIMIT) return void (await fail(permanent ? `${(err as Error).message}，积分已退回` : '视频合成失败，积分已退回'));
    throw err;
  }
}
