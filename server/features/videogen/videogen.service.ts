/**
 * Text to video and image to video (part 2 §2.9, §9): a submit checks the engine and the pictures, makes the
 * record and reserves its credits in one transaction, and queues its job. The job renders it on this machine
 * (camera motion over the pictures) or submits it to Kling and asks again every few seconds; the result is copied
 * into our storage at once, and a failure refunds the credits.
 */
import path from 'node:path';
import {
  API, ImageToVideoMode, type CallParsedRequest, LIMITS, MSG, VideoTaskStatus, nearestVideoRatio, videoGenerationCredits, type VideoEngine, type VideoEngines, type VideoRecord,
} from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { ApiError } from '../../infra/http';
import { probe } from '../../infra/media-probe';
import { sniffFile } from '../../infra/media-files';
import { formatDateTime } from '../../infra/time';
import { videoEngines } from '../../engines/videogen';
import { refundIn, spendOrRefuse } from '../credits';
import { VideoGenRepository, type VideoRow } from './videogen.repository';

export type VideoSubmit = CallParsedRequest<typeof API.videogen.create>;

/** Pictures must be png/jpg of at least this size on their short side (part 2 §5). */
const MIN_PICTURE_SIDE = 300;

export async function currentEngines(ctx: FeatureContext): Promise<VideoEngines> {
  return videoEngines(await ctx.settings.all());
}

/** The user's picture (their upload or material, or a public sample) behind a URL this server made; checked by content; with its size. */
async function picture(ctx: FeatureContext, userId: number, url: string | undefined): Promise<{ key: string; width: number; height: number } | undefined> {
  if (!url) return undefined;
  const key = ctx.urls.keyOf(url);
  const usable = key ? await new VideoGenRepository(ctx.db).usableImage(userId, key) : undefined;
  if (!usable) throw new ApiError(MSG.videoImageUnusable);
  const size = await ctx.storage.withLocalFile(usable, async (file) => {
    const ext = sniffFile(file);
    if (ext !== 'png' && ext !== 'jpg') return null;
    return (await probe(file, ext)).video;
  });
  if (!size) throw new ApiError(MSG.videoImageUnusable);
  if (Math.min(size.width, size.height) < MIN_PICTURE_SIDE) throw new ApiError(MSG.videoImageTooSmall);
  return { key: usable, width: size.width, height: size.height };
}

export async function submitVideo(ctx: FeatureContext, userId: number, p: VideoSubmit): Promise<number> {
  const engines = await currentEngines(ctx);
  const { engine, pro, percent } = engines[p.type];
  if (!engine) throw new ApiError(MSG.videoTextEngineMissing);
  // Kling draws from the prompt; the camera move made here keeps it for reference only.
  if (engine === 'kling' && !p.prompt) throw new ApiError(MSG.promptRequired);
  if (p.mode === 'pro' && !pro) throw new ApiError(MSG.highQualityMaintenance);
  const credits = videoGenerationCredits(p.mode, p.duration, percent);
  const first = p.type === 'image' ? await picture(ctx, userId, p.image) : undefined;
  const tail = p.type === 'image' && p.image_mode === ImageToVideoMode.FirstLastFrame ? await picture(ctx, userId, p.image_tail) : undefined;
  const [imageKey, tailKey] = [first?.key ?? '', tail?.key ?? ''];
  // Unless chosen: an image at its own shape (a portrait stays a portrait), a text at the first ratio.
  const aspectRatio = p.aspect_ratio ?? (first ? nearestVideoRatio(first.width, first.height) : LIMITS.videoRatios[0]);
  return await ctx.db.tx(async (q) => {
    const repo = new VideoGenRepository(q);
    const id = await repo.create({
      user_id: userId, type: p.type, engine: engine as VideoEngine, prompt: p.prompt, negative_prompt: p.negative_prompt, cfg_scale: p.cfg_scale,
      mode: p.mode, duration: p.duration, aspect_ratio: aspectRatio, image_mode: p.type === 'image' ? p.image_mode : ImageToVideoMode.FirstLastFrame,
      image_key: imageKey, image_tail_key: tailKey, org_data: p.org_data ?? '', credits,
    });
    const spend = await spendOrRefuse(q, { userId, amount: credits, action: p.type === 'text' ? '文生视频' : '图生视频', key: `video-generation:${id}` });
    await repo.setSpend(id, spend.entryId);
    await ctx.queue.send('videogen-run', { recordId: id }, { runsUpToSeconds: 10 * 60 }, q);
    return id;
  });
}

/** Ends a record as failed once, refunding its credits in the same transaction. */
export async function failVideo(ctx: FeatureContext, id: number, reason: string): Promise<void> {
  await ctx.db.tx(async (q) => {
    const repo = new VideoGenRepository(q);
    const v = await repo.lock(id);
    if (!v || (v.status !== VideoTaskStatus.Queued && v.status !== VideoTaskStatus.Processing)) return;
    await repo.failed(id, reason);
    if (v.spend_entry_id) {
      await refundIn(q, {
        userId: v.user_id, spendEntryId: v.spend_entry_id, amount: Number(v.credits), action: v.type === 'text' ? '文生视频失败退回' : '图生视频失败退回', key: `video-generation:${id}:failed`,
      });
    }
  });
}

export function videoRecordView(ctx: FeatureContext, v: VideoRow): VideoRecord {
  const status = Number(v.status);
  return {
    id: v.id, status, type: v.type, prompt: v.prompt, image_mode: Number(v.image_mode),
    url: status === VideoTaskStatus.Success ? ctx.urls.url(v.video_key) : '',
    cover: status === VideoTaskStatus.Success ? ctx.urls.url(v.cover_key) : '',
    duration: Number(v.duration), aspect_ratio: v.aspect_ratio, mode: v.mode, negative_prompt: v.negative_prompt, cfg_scale: Number(v.cfg_scale),
    image: ctx.urls.url(v.image_key), image_tail: ctx.urls.url(v.image_tail_key), org_data: v.org_data,
    create_time: formatDateTime(v.created_at),
    ...(status === VideoTaskStatus.Failed ? { error: v.error || MSG.videogenFailed } : {}),
    engine: v.engine,
  };
}

/** A recommendation's sample picture: a public object's URL, or an https address as given. */
export const sampleImageUrl = (ctx: FeatureContext, image: string) => (!image ? '' : /^https?:\/\//.test(image) ? image : ctx.urls.url(image));

/** A preset saved with content alone is titled after the content's start. */
export const presetTitle = (title: string | undefined, content: string) => title || [...content.trim()].slice(0, 20).join('');

export const extOf = (key: string) => path.extname(key).slice(1);
