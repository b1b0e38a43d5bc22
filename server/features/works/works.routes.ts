/**
 * Works: submission (single and multi-scene) reserves credits at the channel's price per second for the
 * expected duration and queues a render in the same transaction (works.jobs.ts settles the actual price);
 * the works list, rename, delete, and the video channels.
 */
import { API, MSG, WorkStatus, effectOrderTip, multiSceneChannel, multiSceneCredits } from '../../../src/contract';
import { ApiError, found } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { deleteObjects } from '../../infra/user-files';
import { engineConcurrency, engineSlot, lipSyncEngineFor, rendersPictures } from '../../engines/lipsync';
import { WorksRepository, type WorkRow } from './works.repository';
import { workBgm } from './background-music';
import { reserveAndQueue } from './works.service';
import { planWork, queueWork, subtitleStyle } from './submission';
import { multiSceneOffer, planScenes } from './multi-scene';
import { VoicesRepository } from '../voices';
import { recognitionConfigured } from './subtitles';

/**
 * A work in progress: waiting in our queue (the fair queue of this machine, or a remote lip-sync engine's line), how
 * many go before it, or the remote engine's progress; rendering on this machine, its progress and the seconds left at the pace so far.
 */
function progressLine(w: WorkRow): { queue_ahead?: number; progress?: number; seconds_left?: number } {
  if (Number(w.status) === WorkStatus.Rendering && w.local_progress !== null && w.render_started_at && !w.remote_state) {
    const progress = Number(w.local_progress);
    const elapsed = (Date.now() - new Date(w.render_started_at).getTime()) / 1000;
    return progress > 0 ? { progress, seconds_left: Math.max(1, Math.round((elapsed * (100 - progress)) / progress)) } : { progress };
  }
  // Waiting for this machine: its place in the fair queue.
  if (!w.remote_state || !w.remote_engine) return w.fair_ahead === null ? {} : { queue_ahead: Number(w.fair_ahead) };
  if (w.remote_state !== 'queued') return { progress: Number(w.remote_progress) };
  const slot = engineSlot(engineConcurrency(w.remote_engine, w.channel_config), Number(w.remote_running), Number(w.remote_waiting_ahead));
  return { queue_ahead: slot.start ? 0 : slot.position };
}

export function registerWorksRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;
  const works = new WorksRepository(db);

  router.handle(API.works.videoChannel, async () => {
    const channels = await works.enabledVideoChannels();
    const list = channels.map((c) => ({ api: c.api, name: c.name, desc: c.description, version_name: c.version_name, credits: Number(c.credits), pictures: rendersPictures(c.engine) }));
    const multi = multiSceneChannel(channels);
    // The spec's tip named 3.0/2.0 channels that may not be enabled: the order is of the channels offered.
    return { list, tips: effectOrderTip(list), ...(multi ? { multi: multiSceneOffer(multi) } : {}) };
  });

  router.handle(API.works.create, async ({ params, user }) => {
    const plan = await planWork(ctx, db, user.id, params);
    return db.tx(async (q) => ({ id: await queueWork(ctx, q, user.id, params, plan) }));
  });

  router.handle(API.works.multi, async ({ params, user }) =>
    db.tx(async (q) => {
      const plan = await planScenes(ctx, q, user.id, params, (fileId) => new VoicesRepository(q).auditionCaptions(fileId, user.id));
      const subtitles = subtitleStyle(params);
      const bgm = await workBgm(q, user.id, params);
      // Without recognition, only the scenes with a script have timed text: refused when no scene has one.
      const recorded = plan.params.scenes!.every((s) => s.audio_file_id !== undefined && !s.text);
      if (subtitles && recorded && !(await recognitionConfigured(ctx))) throw new ApiError(MSG.subtitlesNeedRecognition);
      // Stored on the channel that lip-syncs it, so the render job finds that channel's engine and its price.
      const channel = multiSceneChannel(await new WorksRepository(q).enabledVideoChannels());
      if (!channel) throw new ApiError(MSG.multiSceneNoChannel);
      const price = Number(channel.credits);
      const reserved = multiSceneCredits(plan.seconds, price);
      const workId = await new WorksRepository(q).add({
        userId: user.id, name: params.name, api: channel.api, isMulti: true, onlyAudio: params.output_mode === 'audio',
        avatarId: plan.params.scenes![0]?.avatar_id ?? null, audioFileId: null, text: '', params: { ...plan.params, subtitles, bgm }, price, reserved,
      });
      const engine = lipSyncEngineFor(channel.engine, channel.config);
      const runsUpToSeconds = engine?.kind === 'local' ? engine.renderJobSeconds(plan.seconds) : undefined;
      return { id: await reserveAndQueue(ctx, q, { userId: user.id, workId, amount: reserved, action: `多场景创作·${channel.name}`, runsUpToSeconds, onThisMachine: engine?.kind !== 'remote' || params.output_mode === 'audio' }) };
    }),
  );

  router.handle(API.works.list, async ({ params, user }) => {
    const { total, generate } = await works.counts(user.id, params);
    if (params.page === 0 && params.limit === 0) return { list: [], total, generate };
    const { limit, offset } = requestedPage(params, 20, 200);
    const rows = await works.list(user.id, params, limit, offset);
    return {
      list: rows.map((w) => ({
        id: w.id,
        name: w.name,
        url: Number(w.status) === WorkStatus.Success ? urls.url(w.video_key) : '',
        cover: urls.url(w.cover_key),
        status: Number(w.status),
        // Multi-scene works are submitted as fy (V3.0) and stored on the channel that lip-syncs them: say which.
        api_name: Number(w.is_multi) ? `多场景 · ${w.channel_name ?? w.api}` : (w.channel_name ?? w.api),
        api_key: w.api,
        create_time: formatDateTime(w.created_at),
        duration: Number(w.duration),
        reason: w.reason,
        credits: Number(w.status) === WorkStatus.Success ? Number(w.charged) : Number(w.status) === WorkStatus.Failed ? 0 : Number(w.reserved),
        ...(Number(w.status) === WorkStatus.Success && w.srt_key ? { srt: urls.url(w.srt_key) } : {}),
        ...progressLine(w),
      })),
      total,
      generate,
    };
  });

  router.handle(API.works.rename, async ({ params, user }) => {
    found(await works.rename(params.id, user.id, params.name), MSG.notFound);
    return {};
  });

  router.handle(API.works.remove, async ({ params, user }) => {
    const removed = found(await works.remove(params.id, user.id), MSG.workBusyOrMissing);
    // A cover made from a material video, a picture or a one-click work's frame is the work's own; an avatar's stays with the avatar.
    const ownCover = removed.params.material_video_file_id || removed.params.photo_id || removed.params.oneclick;
    await deleteObjects(ctx, [removed.video_key, ownCover ? removed.cover_key : '', removed.srt_key]);
    return {};
  });
}
