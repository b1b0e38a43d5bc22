/**
 * The render job (single and multi-scene, on this machine or on a remote lip-sync engine). At-least-once delivery
 * through the paid-job runner: a finished or failed work is left alone, credits are posted or returned under
 * idempotency keys, and only the last attempt turns an error into a failed work (an engine's permanent error does at once).
 */
import path from 'node:path';
import { LIMITS, MSG, WORK_IN_PROGRESS, WorkStatus } from '../../../src/contract';
import { runPaidJob } from '../../infra/paid-job';
import type { FeatureContext } from '../../app-context';
import { SpeechEngineError } from '../../engines/speech';
import { LipSyncEngineError, lipSyncEngineFor, type FaceInput, type LipSyncEngine, type LocalLipSyncEngine } from '../../engines/lipsync';
import { fetchObject } from '../../infra/storage';
import { withWorkDir } from '../../infra/work-dirs';
import { WorksRepository, type RenderRow } from './works.repository';
import { WorkCannotRender, avatarFaceInput, failWork, finishWork, materialAvatar, speak, type RenderedWork } from './works.service';
import { analyseFaces } from '../avatars';
import { renderMulti } from './multi-scene';
import { runRemoteRender } from './remote-render';
import { PictureGone, renderPictureWork } from '../photo';
import { captionsOfWork, withSubtitles } from './subtitles';
import { withBackgroundMusic } from './background-music';

/** The clip a work loops and its cover: the avatar's, or one prepared now from a material-library video. */
async function faceOf(ctx: FeatureContext, work: RenderRow, dir: string): Promise<{ loop: string; coverKey: string; normalized?: string }> {
  if (work.loop_key) return { loop: await fetchObject(ctx.storage, work.loop_key, path.join(dir, 'loop.mp4')), coverKey: work.cover_key ?? '' };
  const { prepared, coverKey } = await materialAvatar(ctx, work, dir);
  return { loop: prepared.loop, coverKey, normalized: prepared.normalized };
}

/**
 * What an engine that moves the mouth needs: the avatar's normalized video and face track (avatarFaceInput); a
 * material video is analysed for this work only.
 */
export async function faceInputOf(ctx: FeatureContext, work: RenderRow, face: { normalized?: string }, dir: string): Promise<FaceInput> {
  if (face.normalized) {
    const { track, faceNote } = await analyseFaces(ctx, face.normalized, dir);
    return track ? { video: face.normalized, faces: track } : { note: faceNote };
  }
  if (!work.avatar_id || !work.avatar_video_key) return { note: MSG.lipSyncNoFace };
  return avatarFaceInput(ctx, { id: work.avatar_id, user_id: work.avatar_user_id, video_key: work.avatar_video_key, faces_key: work.faces_key, face_note: work.face_note }, dir);
}

/** How often a local render's progress reaches the works card (the list polls about this often too). */
const PROGRESS_EVERY_MS = 2000;

/** Writes a local render's progress to its work at most every PROGRESS_EVERY_MS, never holding the render up. */
function progressReporter(ctx: FeatureContext, workId: number): (done: number) => void {
  const works = new WorksRepository(ctx.db);
  let last = 0;
  let shown = -1;
  return (done) => {
    const percent = Math.min(99, Math.floor(done * 100));
    if (percent === shown || Date.now() - last < PROGRESS_EVERY_MS) return;
    last = Date.now();
    shown = percent;
    works.setLocalProgress(workId, percent).catch((err: unknown) => console.warn(`[works] progress of ${workId} not saved: ${String(err)}`));
  };
}

async function renderSingle(ctx: FeatureContext, workId: number, work: RenderRow, engine: LipSyncEngine | undefined, dir: string): Promise<RenderedWork> {
  let audio: { file: string; ext: string };
  let spoken;
  if (work.audio_key) {
    const ext = work.audio_key.slice(work.audio_key.lastIndexOf('.') + 1);
    audio = { file: await fetchObject(ctx.storage, work.audio_key, path.join(dir, `audio.${ext}`)), ext };
  } else if (work.params.speech) {
    audio = { file: path.join(dir, 'speech.mp3'), ext: 'mp3' };
    spoken = await speak(ctx, work.user_id, work.params.speech, work.text, audio.file);
  } else {
    throw new WorkCannotRender('数字人或音频已被删除');
  }
  const timed = await captionsOfWork(ctx, workId, work, audio, dir, spoken);
  if (work.params.photo_id) return { ...(await renderPictureWork(ctx, { userId: work.user_id, photoId: work.params.photo_id, engine, audio, script: timed, dir })), timed };
  const face = await faceOf(ctx, work, dir);
  if (engine?.kind !== 'local') throw new WorkCannotRender('该通道的视频引擎不可用，积分已退回');
  const faceInput = engine.movesMouth ? await faceInputOf(ctx, work, face, dir) : undefined;
  const output = path.join(dir, 'work.mp4');
  const { duration, note } = await engine.render({ loop: face.loop, audio, output, face: faceInput, script: timed, onProgress: progressReporter(ctx, workId) });
  return { file: output, ext: 'mp4', duration, coverKey: face.coverKey, note, timed };
}

const OFFLINE = lipSyncEngineFor('lipsync') as LocalLipSyncEngine;

/**
 * A multi-scene work's engine: its channel's when that moves the mouth (stored on multiSceneChannel's channel at
 * submit), else the offline lip-sync engine — also for works submitted before multi-scene works lip-synced (stored
 * on fy without an engine).
 */
function multiSceneEngine(work: RenderRow): LipSyncEngine {
  const engine = lipSyncEngineFor(work.engine, work.engine_config);
  return engine && (engine.kind === 'remote' || engine.movesMouth) ? engine : OFFLINE;
}

/** Errors that end the work at once: the work cannot be rendered, or an engine calls its error permanent. */
function permanentReason(err: unknown): string | undefined {
  if (err instanceof WorkCannotRender || err instanceof PictureGone) return err.message;
  const engineError = err instanceof SpeechEngineError || err instanceof LipSyncEngineError ? err : undefined;
  return engineError && !engineError.transient ? `${engineError.message}，积分已退回` : undefined;
}

/**
 * The fair queue's per-user limit: a work not yet started whose user already has LIMITS.batch.perUserRunning renders
 * on this machine goes back to the queue at its own turn, asked again after one poll, and the queue takes the next.
 */
async function waitsForItsUser(ctx: FeatureContext, workId: number, work: RenderRow): Promise<boolean> {
  if (work.status !== WorkStatus.Queued) return false;
  if ((await new WorksRepository(ctx.db).renderingOf(work.user_id)) < LIMITS.batch.perUserRunning) return false;
  const price = Number(work.price);
  const engine = lipSyncEngineFor(work.engine, work.engine_config);
  const runsUpToSeconds = engine?.kind === 'local' && price > 0 ? engine.renderJobSeconds(Number(work.reserved) / price) : undefined;
  await ctx.queue.send('works-render', { workId }, { startAfter: ctx.config.jobPollSeconds, priority: -(work.turn ?? 0), runsUpToSeconds });
  return true;
}

/**
 * Through the paid-job runner. `step` is the chain token of a work on a remote engine (each poll re-queues the job
 * with the next one); local renders run once and ignore it.
 */
export function runWorkRender(ctx: FeatureContext, workId: number, attempt: number, step = 0): Promise<void> {
  const works = new WorksRepository(ctx.db);
  return runPaidJob({ retryCount: attempt }, {
    load: () => works.renderInput(workId),
    isOpen: (work) => (WORK_IN_PROGRESS as readonly number[]).includes(work.status),
    run: async (work) => {
      try {
        const multi = Number(work.is_multi) === 1;
        const engine = multi ? multiSceneEngine(work) : lipSyncEngineFor(work.engine, work.engine_config);
        const onThisMachine = work.params.photo_id || (multi && work.params.output_mode === 'audio');
        if (engine?.kind === 'remote' && !onThisMachine) return await runRemoteRender(ctx, workId, work, engine, step);
        if (await waitsForItsUser(ctx, workId, work)) return;
        await works.markRendering(workId);
        await withWorkDir(ctx.config.dataDir, async (dir) => {
          const rendered = multi ? await renderMulti(ctx, workId, work, engine?.kind === 'local' ? engine : OFFLINE, dir) : await renderSingle(ctx, workId, work, engine, dir);
          const scored = await withBackgroundMusic(ctx, work.params.bgm, rendered, dir);
          await finishWork(ctx, workId, work, await withSubtitles(work, scored, dir));
        });
      } catch (err) {
        if (err instanceof LipSyncEngineError && err.detail) ctx.app.log.warn({ workId, detail: err.detail }, `lip-sync engine: ${err.message}`);
        throw err;
      }
    },
    fail: (work, reason) => failWork(ctx, workId, work, reason),
    permanent: permanentReason,
    // A lip-sync engine still down (or garbled) after the retries: its own reason, which says what is wrong.
    lastReason: (err) => (err instanceof LipSyncEngineError ? `${err.message}，积分已退回` : '视频合成失败，积分已退回'),
  });
}
