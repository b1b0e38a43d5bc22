/**
 * The videogen-run job (at-least-once, through the paid-job runner: a record no longer queued or processing is left alone).
 * Offline engine: renders the camera motion and stores it. Kling: submits the task once, then asks every
 * `pollSeconds` until it succeeds (the result is copied into our storage at once) or fails (credits refunded).
 */
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { MSG, VideoTaskStatus } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import type { JobRun } from '../../infra/queue';
import { runPaidJob } from '../../infra/paid-job';
import { probe } from '../../infra/media-probe';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { pictureFaceBox } from '../../engines/lipsync';
import { cameraMotionClip, downloadWithDeadline, KlingClient, ProviderUnreachable, resolveKlingConfig, VideoGenError, type KlingTaskKind } from '../../engines/videogen';
import { makeSmallCover } from '../../engines/media';
import { VideoGenRepository, type VideoRow } from './videogen.repository';
import { extOf, failVideo } from './videogen.service';

/** How often a provider's task is asked about, and for how long before it is given up (refunded). */
export const DEFAULT_POLL_SECONDS = 10;
const GIVE_UP_SECONDS = 60 * 60;
const RESULT_MAX_BYTES = 500 * 1024 * 1024;
const RESULT_DOWNLOAD_MS = 5 * 60_000;

const pollSeconds = (ctx: FeatureContext) => ctx.config.videoGen?.pollSeconds ?? DEFAULT_POLL_SECONDS;

/** Copies a finished mp4 into the user's storage with its cover; the record takes them unless it ended meanwhile. */
async function keepResult(ctx: FeatureContext, v: VideoRow, video: string, dir: string): Promise<void> {
  const { duration } = await probe(video, 'mp4');
  const cover = await makeSmallCover(video, 'mp4', path.join(dir, 'cover.jpg'));
  const stored = await storeUserFile(ctx, v.user_id, video, 'mp4', 'video', duration);
  const storedCover = await storeUserFile(ctx, v.user_id, cover, 'jpg', 'image');
  if (!(await new VideoGenRepository(ctx.db).succeeded(v.id, { videoKey: stored.key, coverKey: storedCover.key, duration }))) {
    await deleteObjects(ctx, [stored.key, storedCover.key]);
  }
}

/** The record's pictures as local files in `dir` (first frame, optional last frame). */
async function pictures(ctx: FeatureContext, v: VideoRow, dir: string): Promise<{ first?: { file: string; ext: string }; last?: { file: string; ext: string } }> {
  const fetchOne = async (key: string, name: string) => {
    if (!key) return undefined;
    const file = path.join(dir, `${name}.${extOf(key)}`);
    await ctx.storage.withLocalFile(key, (local) => copyFile(local, file));
    return { file, ext: extOf(key) };
  };
  return { first: await fetchOne(v.image_key, 'first'), last: await fetchOne(v.image_tail_key, 'last') };
}

async function renderLocal(ctx: FeatureContext, v: VideoRow): Promise<void> {
  await new VideoGenRepository(ctx.db).processing(v.id);
  await withWorkDir(ctx.config.dataDir, async (dir) => {
    const { first, last } = await pictures(ctx, v, dir);
    if (!first) return failVideo(ctx, v.id, MSG.videoImageUnusable);
    const output = path.join(dir, 'video.mp4');
    // A face found in a picture is kept whole in every frame (issue 33: a portrait at 16:9 lost its head).
    const withFace = async (pic: { file: string; ext: string }) => ({ ...pic, face: await pictureFaceBox(pic.file) });
    await cameraMotionClip({ first: await withFace(first), last: last && (await withFace(last)), duration: Number(v.duration), aspectRatio: v.aspect_ratio, output, shortSide: ctx.config.renderShortSide });
    await keepResult(ctx, v, output, dir);
  });
}

async function runKling(ctx: FeatureContext, v: VideoRow): Promise<void> {
  const config = resolveKlingConfig(await ctx.settings.all());
  if (!config) return failVideo(ctx, v.id, MSG.videoTextEngineMissing);
  const kling = new KlingClient(config);
  const kind: KlingTaskKind = v.type === 'text' ? 'text2video' : 'image2video';
  const repo = new VideoGenRepository(ctx.db);
  if (!v.remote_id) {
    const remoteId = await withWorkDir(ctx.config.dataDir, async (dir) => {
      const { first, last } = await pictures(ctx, v, dir);
      return kling.submit({
        kind, prompt: v.prompt, negativePrompt: v.negative_prompt, cfgScale: Number(v.cfg_scale), mode: v.mode, duration: Number(v.duration),
        aspectRatio: v.aspect_ratio, image: first?.file, imageTail: last?.file,
      });
    });
    await repo.processing(v.id, remoteId);
  } else {
    const state = await kling.state(kind, v.remote_id);
    if (state.state === 'failed') return failVideo(ctx, v.id, state.reason);
    if (state.state === 'succeed') {
      return withWorkDir(ctx.config.dataDir, async (dir) => {
        const output = path.join(dir, 'video.mp4');
        try {
          const got = await downloadWithDeadline(state.url, output, RESULT_DOWNLOAD_MS, RESULT_MAX_BYTES);
          if (got.status < 200 || got.status >= 300) throw new VideoGenError(MSG.klingServerError, `result download HTTP ${got.status}`, true);
        } catch (err) {
          if (err instanceof ProviderUnreachable) throw new VideoGenError(MSG.klingUnreachable, err.message, true);
          throw err;
        }
        await keepResult(ctx, v, output, dir);
      });
    }
    if ((await repo.countPoll(v.id)) * pollSeconds(ctx) > GIVE_UP_SECONDS) return failVideo(ctx, v.id, MSG.videogenTimeout);
  }
  await ctx.queue.send('videogen-run', { recordId: v.id }, { startAfter: pollSeconds(ctx) });
}

export function runVideoGeneration(ctx: FeatureContext, recordId: number, job: JobRun): Promise<void> {
  return runPaidJob(job, {
    load: () => new VideoGenRepository(ctx.db).record(recordId),
    isOpen: (v) => v.status === VideoTaskStatus.Queued || v.status === VideoTaskStatus.Processing,
    run: (v) => (v.engine === 'local' ? renderLocal(ctx, v) : runKling(ctx, v)),
    fail: (v, reason) => failVideo(ctx, v.id, reason),
    permanent: (err) => (err instanceof VideoGenError && !err.transient ? err.message : undefined),
    lastReason: (err) => (err instanceof VideoGenError ? err.message : MSG.videogenFailed),
  });
}
