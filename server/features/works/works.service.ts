/**
 * What the works routes, the render jobs and multi-scene works share: the speech a work will use, the avatar it
 * shows, reserving its credits, fetching its inputs, and ending a work (done and settled on its actual duration,
 * or failed and refunded). The video engine is the channel's, from lipSyncEngineFor (server/engines/lipsync).
 */
import path from 'node:path';
import { fetchObject } from '../../infra/storage';
import { AvatarStatus, MSG, workCredits, type TimedText } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { prepareAvatar, type PreparedAvatar } from '../../engines/render';
import type { SpeechParams, SpokenStretch } from '../../engines/speech';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { InsufficientCreditsError, refundIn, spendIn, spendOrRefuse } from '../credits';
import { AvatarsRepository, FACE_OK, analyseAndStoreFaces } from '../avatars';
import type { FaceInput } from '../../engines/lipsync';
import { WorksRepository, type RenderRow } from './works.repository';

/** A work that cannot render (an input was deleted, its engine is gone): it fails at once, credits returned. */
export class WorkCannotRender extends Error {}

export interface RenderedWork {
  file: string;
  ext: 'mp4' | 'mp3';
  duration: number;
  coverKey: string;
  /** Why the mouth was left as filmed (lip-sync channel, no usable face), for the work's card. */
  note?: string;
  /** The timed text of its speech (none: it has no subtitles). */
  timed?: TimedText[];
  /** The SRT made of it (a local file), once withSubtitles has made it. */
  srt?: string;
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
  const file = await new WorksRepository(q).ownFile(userId, ref);
  if (!file || file.kind !== 'voice') throw new ApiError(MSG.audioFileRequired);
  return file;
}

/** A ready avatar the user may appear as (own or public); else the spec's message. */
export async function readyAvatar(q: Queryable, id: number, userId: number) {
  const avatar = await new AvatarsRepository(q).usableBy(id, userId);
  if (!avatar) throw new ApiError(MSG.avatarRequired);
  if (Number(avatar.status) !== AvatarStatus.Ready) throw new ApiError(MSG.avatarNotReady);
  return avatar;
}

/**
 * Inside a work's submitting transaction: reserves its credits (MSG.insufficientCredits when short, which rolls
 * everything back) and queues its render — rendered on this machine, at its fair-queue turn —, which runs only if the
 * transaction commits.
 */
export async function reserveAndQueue(ctx: FeatureContext, q: Queryable, work: { userId: number; workId: number; amount: number; action: string; runsUpToSeconds?: number; onThisMachine: boolean }): Promise<number> {
  if (work.amount > 0) {
    const spend = await spendOrRefuse(q, { userId: work.userId, amount: work.amount, action: work.action, key: `work:${work.workId}` });
    await new WorksRepository(q).setSpendEntry(work.workId, spend.entryId);
  }
  // A remote engine's works keep their order of arrival: its own line (first come, first served) orders them there.
  const priority = work.onThisMachine ? -(await new WorksRepository(q).takeTurn(work.workId, work.userId)) : 0;
  await ctx.queue.send('works-render', { workId: work.workId }, { runsUpToSeconds: work.runsUpToSeconds, priority }, q);
  return work.workId;
}

/** Speech for a text: the voice (own or public, still usable) through its channel's engine; answers where its stretches landed. */
export async function speak(ctx: FeatureContext, userId: number, spec: { voice_id: number } & SpeechParams, text: string, output: string): Promise<SpokenStretch[]> {
  const voice = await ctx.speech.readyVoice(spec.voice_id, userId);
  if (!voice) throw new WorkCannotRender('所选声音已不可用，积分已退回');
  return ctx.speech.synthesize(voice, text, spec, output);
}

/**
 * An avatar's normalized video and face track for an engine that moves the mouth, fetched into `dir` (names
 * prefixed by `tag`, so several avatars of one work do not collide). An avatar never analysed (published without a
 * clone, or made before the engine) is analysed now and keeps the result.
 */
export async function avatarFaceInput(
  ctx: FeatureContext,
  avatar: { id: number; user_id: number | null; video_key: string; faces_key: string | null; face_note: string | null },
  dir: string,
  tag = '',
): Promise<FaceInput> {
  const video = await fetchObject(ctx.storage, avatar.video_key, path.join(dir, `${tag}avatar.mp4`));
  let { faces_key: facesKey, face_note: note } = avatar;
  if (!note) {
    ({ facesKey, faceNote: note } = await analyseAndStoreFaces(ctx, avatar.user_id, video, dir));
    if (!(await new AvatarsRepository(ctx.db).setFaces(avatar.id, facesKey, note)) && facesKey) await deleteObjects(ctx, [facesKey]);
  }
  if (note !== FACE_OK || !facesKey) return { note: note || MSG.lipSyncNoFace };
  return { video, faces: await fetchObject(ctx.storage, facesKey, path.join(dir, `${tag}faces.bin`)) };
}

/**
 * A work whose avatar is a video of the user's material library: the video prepared now as a clone would, and its
 * cover stored as the work's own.
 */
export async function materialAvatar(ctx: FeatureContext, work: RenderRow, dir: string): Promise<{ prepared: PreparedAvatar; coverKey: string }> {
  const fileId = work.params.material_video_file_id;
  const key = fileId ? await new WorksRepository(ctx.db).ownFileKey(fileId, work.user_id) : undefined;
  if (!key) throw new WorkCannotRender('数字人或音频已被删除');
  const ext = key.slice(key.lastIndexOf('.') + 1);
  const prepared = await prepareAvatar(await fetchObject(ctx.storage, key, path.join(dir, `material.${ext}`)), ext, dir);
  const cover = await storeUserFile(ctx, work.user_id, prepared.cover, 'jpg', 'image');
  return { prepared, coverKey: cover.key };
}

/**
 * Inside the finishing transaction: what the work costs is its seconds at its price. A measured reservation (the
 * audio the render is cut to) is the most it costs, and the rest is returned. An estimated one (speech synthesized
 * by the job) is topped up by the difference when the balance allows; otherwise the reservation stands and the
 * work's reason says what was not charged — never a silent discount.
 */
async function settle(q: Queryable, workId: number, work: RenderRow, seconds: number): Promise<{ charged: number; reason: string }> {
  const reserved = Number(work.reserved);
  const due = workCredits(seconds, Number(work.price));
  if (due > reserved && work.params.estimated) {
    try {
      await spendIn(q, { userId: work.user_id, amount: due - reserved, action: '视频合成按实际时长补扣', key: `work:${workId}:extra` });
      return { charged: due, reason: '' };
    } catch (err) {
      if (!(err instanceof InsufficientCreditsError)) throw err;
      return { charged: reserved, reason: `余额不足，按预留的${reserved}积分结算（按实际时长应扣${due}积分）` };
    }
  }
  const charged = Math.min(due, reserved);
  if (work.spend_entry_id && reserved > charged) {
    await refundIn(q, { userId: work.user_id, spendEntryId: work.spend_entry_id, amount: reserved - charged, action: '视频合成按实际时长结算退回', key: `work:${workId}:settle` });
  }
  return { charged, reason: '' };
}

/**
 * Stores the rendered file as the user's and finishes the work once, settled on its actual duration. A repeated
 * job finds the work finished and drops its copy. Objects made only for a remote engine go with its task row.
 */
export async function finishWork(ctx: FeatureContext, workId: number, work: RenderRow, rendered: RenderedWork): Promise<void> {
  const stored = await storeUserFile(ctx, work.user_id, rendered.file, rendered.ext, rendered.ext === 'mp4' ? 'video' : 'voice', rendered.duration);
  const srtKey = rendered.srt ? (await storeUserFile(ctx, work.user_id, rendered.srt, 'srt', 'other')).key : '';
  const { done, scratch } = await ctx.db.tx(async (q) => {
    const finishing = new WorksRepository(q);
    if (!(await finishing.lockInProgress(workId))) return { done: false, scratch: [] };
    const { charged, reason } = await settle(q, workId, work, rendered.duration);
    const task = await finishing.endRemoteTask(workId);
    const notes = [rendered.note, reason].filter(Boolean).join('；');
    const marked = await finishing.markDone(workId, { videoKey: stored.key, coverKey: rendered.coverKey, srtKey, duration: rendered.duration, charged, reason: notes });
    return { done: marked, scratch: (task?.scratch_keys ?? []).filter((k) => k !== rendered.coverKey) };
  });
  await deleteObjects(ctx, done ? scratch : [stored.key, srtKey]);
}

/** Fails the work once with the reason, returning its reservation exactly (and a remote task's own objects). */
export async function failWork(ctx: FeatureContext, workId: number, work: RenderRow, reason: string): Promise<void> {
  const scratch = await ctx.db.tx(async (q) => {
    const works = new WorksRepository(q);
    const task = await works.endRemoteTask(workId);
    if ((await works.markFailed(workId, reason)) && work.spend_entry_id) {
      await refundIn(q, { userId: work.user_id, spendEntryId: work.spend_entry_id, amount: Number(work.reserved), action: '视频合成失败退回', key: `work:${workId}:failed` });
    }
    return task?.scratch_keys ?? [];
  });
  await deleteObjects(ctx, scratch);
}

/** Cancels the user's work if it has not started (its reservation returned exactly, once): true when it had not. */
export async function cancelQueuedWork(ctx: FeatureContext, workId: number, userId: number, reason: string): Promise<boolean> {
  return ctx.db.tx(async (q) => {
    const works = new WorksRepository(q);
    const work = await works.renderInput(workId);
    if (!work || !(await works.cancelQueued(workId, userId, reason))) return false;
    if (work.spend_entry_id) {
      await refundIn(q, { userId, spendEntryId: work.spend_entry_id, amount: Number(work.reserved), action: '视频合成取消退回', key: `work:${workId}:failed` });
    }
    return true;
  });
}
