/**
 * The render job (single and multi-scene). At-least-once delivery: a finished or failed work is left alone,
 * credits are posted or returned under idempotency keys, and only the last attempt turns an error into a
 * failed work.
 */
import path from 'node:path';
import { MSG, WORK_IN_PROGRESS } from '../../../src/contract';
import { JOB_RETRY_LIMIT } from '../../infra/queue';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { prepareAvatar } from '../../engines/video/local-engine';
import { SpeechEngineError } from '../../engines/speech/speech-engine';
import { InsufficientCreditsError, refundIn, spendIn } from '../credits';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { WorksRepository, type RenderRow } from './works.repository';
import { WorkCannotRender, fetchObject, renderWithEngine, speak, type LipSyncInput, type RenderedWork } from './works.service';
import { AvatarsRepository, FACE_OK, analyseAndStoreFaces, analyseFaces } from '../avatars';
import { renderMulti } from './multi-scene';

/** The clip a work loops and its cover: the avatar's, or one prepared now from a material-library video. */
async function faceOf(ctx: FeatureContext, work: RenderRow, dir: string): Promise<{ loop: string; coverKey: string; normalized?: string }> {
  if (work.loop_key) return { loop: await fetchObject(ctx, work.loop_key, path.join(dir, 'loop.mp4')), coverKey: work.cover_key ?? '' };
  const fileId = work.params.material_video_file_id;
  const key = fileId ? await new WorksRepository(ctx.db).ownFileKey(fileId, work.user_id) : undefined;
  if (!key) throw new WorkCannotRender('数字人或音频已被删除');
  const ext = key.slice(key.lastIndexOf('.') + 1);
  const prepared = await prepareAvatar(await fetchObject(ctx, key, path.join(dir, `material.${ext}`)), ext, dir);
  const cover = await storeUserFile(ctx, work.user_id, prepared.cover, 'jpg', 'image');
  return { loop: prepared.loop, coverKey: cover.key, normalized: prepared.normalized };
}

/**
 * What the lip-sync engine needs: the avatar's normalized video and face track. An avatar never analysed (published
 * without a clone, or made before the engine) is analysed now and keeps the result; a material video is analysed
 * for this work only.
 */
async function lipSyncInputOf(ctx: FeatureContext, work: RenderRow, face: { normalized?: string }, dir: string): Promise<LipSyncInput> {
  if (face.normalized) {
    const { track, faceNote } = await analyseFaces(ctx, face.normalized, dir);
    return track ? { video: face.normalized, faces: track } : { note: faceNote };
  }
  if (!work.avatar_id || !work.video_key) return { note: MSG.lipSyncNoFace };
  const video = await fetchObject(ctx, work.video_key, path.join(dir, 'avatar.mp4'));
  let { faces_key: facesKey, face_note: note } = work;
  if (!note) {
    ({ facesKey, faceNote: note } = await analyseAndStoreFaces(ctx, work.avatar_user_id, video, dir));
    if (!(await new AvatarsRepository(ctx.db).setFaces(work.avatar_id, facesKey, note)) && facesKey) await deleteObjects(ctx, [facesKey]);
  }
  if (note !== FACE_OK || !facesKey) return { note: note || MSG.lipSyncNoFace };
  return { video, faces: await fetchObject(ctx, facesKey, path.join(dir, 'faces.bin')) };
}

async function renderSingle(ctx: FeatureContext, work: RenderRow, dir: string): Promise<RenderedWork> {
  let audio: { file: string; ext: string };
  if (work.audio_key) {
    const ext = work.audio_key.slice(work.audio_key.lastIndexOf('.') + 1);
    audio = { file: await fetchObject(ctx, work.audio_key, path.join(dir, `audio.${ext}`)), ext };
  } else if (work.params.speech) {
    audio = { file: await speak(ctx, work.user_id, work.params.speech, work.text, path.join(dir, 'speech.mp3')), ext: 'mp3' };
  } else {
    throw new WorkCannotRender('数字人或音频已被删除');
  }
  const engine = work.engine ?? 'none';
  const face = await faceOf(ctx, work, dir);
  const lipSync = engine === 'lipsync' ? await lipSyncInputOf(ctx, work, face, dir) : undefined;
  const output = path.join(dir, 'work.mp4');
  const { duration, note } = await renderWithEngine(engine, { loop: face.loop, audio, output, lipSync });
  return { file: output, ext: 'mp4', duration, coverKey: face.coverKey, note };
}

/**
 * Inside the finishing transaction: what the work costs is its seconds at its price. A measured reservation (the
 * audio the render is cut to) is the most it costs, and the rest is returned. An estimated one (speech synthesized
 * by the job) is topped up by the difference when the balance allows; otherwise the reservation stands and the
 * work's reason says what was not charged — never a silent discount.
 */
async function settle(q: Queryable, workId: number, work: RenderRow, seconds: number): Promise<{ charged: number; reason: string }> {
  const reserved = Number(work.reserved);
  const due = Math.ceil(seconds * Number(work.price));
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

export async function runWorkRender(ctx: FeatureContext, workId: number, attempt: number): Promise<void> {
  const { db } = ctx;
  const works = new WorksRepository(db);
  const work = await works.renderInput(workId);
  if (!work || !(WORK_IN_PROGRESS as readonly number[]).includes(work.status)) return;

  const fail = (reason: string) =>
    db.tx(async (q) => {
      if ((await new WorksRepository(q).markFailed(workId, reason)) && work.spend_entry_id) {
        await refundIn(q, { userId: work.user_id, spendEntryId: work.spend_entry_id, amount: Number(work.reserved), action: '视频合成失败退回', key: `work:${workId}:failed` });
      }
    });

  await works.markRendering(workId);
  try {
    await withWorkDir(ctx.config.dataDir, async (dir) => {
      const rendered = Number(work.is_multi) ? await renderMulti(ctx, work, dir) : await renderSingle(ctx, work, dir);
      const stored = await storeUserFile(ctx, work.user_id, rendered.file, rendered.ext, rendered.ext === 'mp4' ? 'video' : 'voice', rendered.duration);
      const done = await db.tx(async (q) => {
        const finishing = new WorksRepository(q);
        if (!(await finishing.lockInProgress(workId))) return false;
        const { charged, reason } = await settle(q, workId, work, rendered.duration);
        const notes = [rendered.note, reason].filter(Boolean).join('；');
        return finishing.markDone(workId, { videoKey: stored.key, coverKey: rendered.coverKey, duration: rendered.duration, charged, reason: notes });
      });
      if (!done) await deleteObjects(ctx, [stored.key]);
    });
  } catch (err) {
    if (err instanceof WorkCannotRender) return void (await fail(err.message));
    const permanent = err instanceof SpeechEngineError && !err.transient;
    if (permanent || attempt >= JOB_RETRY_LIMIT) return void (await fail(permanent ? `${(err as Error).message}，积分已退回` : '视频合成失败，积分已退回'));
    throw err;
  }
}
