/**
 * Works: submission (single and multi-scene) reserves credits at the channel's price per second for the
 * expected duration and queues a render in the same transaction (works.jobs.ts settles the actual price);
 * the works list, rename, delete, and the video channels.
 */
import { API, MSG, WorkStatus, effectOrderTip, estimateSeconds, multiSceneChannel, multiSceneCredits, workCredits, type CallParsedRequest, type SubtitleStyle } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { deleteObjects } from '../../infra/user-files';
import { engineConcurrency, engineSlot, lipSyncEngineFor, rendersPictures, type LipSyncEngine } from '../../engines/lipsync';
import { WorksRepository, type WorkParams, type WorkRow } from './works.repository';
import { workBgm } from './background-music';
import { ownAudio, readyAvatar, reserveAndQueue, speechSettings } from './works.service';
import { multiSceneOffer, planScenes } from './multi-scene';
import { pictureForWork } from '../photo';
import { VoicesRepository } from '../voices';
import { recognitionConfigured } from './subtitles';

type Submission = CallParsedRequest<typeof API.works.create>;

/** The burned-in captions a submission asks for (absent: none). */
const subtitleStyle = (p: { subtitles: number; subtitle_size: SubtitleStyle['size']; subtitle_position: SubtitleStyle['position']; subtitle_color: SubtitleStyle['color'] }): SubtitleStyle | undefined =>
  p.subtitles === 1 ? { size: p.subtitle_size, position: p.subtitle_position, color: p.subtitle_color } : undefined;

/** Who appears: a ready avatar (own or public), a video of the user's material library, or a pet or person picture. */
async function faceInput(q: Queryable, userId: number, params: Submission, engine: LipSyncEngine | undefined): Promise<{ avatarId?: number; materialFileId?: number; photoId?: number; photoType?: number; duration: number }> {
  if (params.photo_id !== undefined) return { ...(await pictureForWork(q, userId, params.photo_id, engine)), duration: 0 };
  if (params.material_video_id !== undefined) {
    const video = await new WorksRepository(q).materialVideo(params.material_video_id, userId);
    if (!video) throw new ApiError(MSG.avatarRequired);
    return { materialFileId: video.id, duration: Number(video.duration) };
  }
  const avatar = await readyAvatar(q, params.video_id!, userId);
  return { avatarId: avatar.id, duration: Number(avatar.duration) };
}

/**
 * What is spoken, and for how long: an uploaded or material audio (audio mode) or, in text mode, the audition the
 * client synthesized (voice_id) — each measured, the audition with the timed text it kept —, or else speech the
 * render job synthesizes from the text and the voice, estimated at the voice's speed. `text` is the script spoken
 * ('' for an audio-driven work, whose subtitles come from recognition).
 */
async function spokenInput(ctx: FeatureContext, q: Queryable, userId: number, params: Submission) {
  const context: WorkParams = { language: params.language, emotion: params.emotion, subtitles: subtitleStyle(params) };
  const hasAudio = params.voice_id !== undefined || params.material_audio_id !== undefined;
  // As the contract infers it: audio-driven when said, or when an audio comes without a script or a voice.
  const audioDriven = (params.drive ?? (hasAudio && !params.text && params.user_voice_id === undefined ? 'audio' : 'text')) === 'audio';
  if (audioDriven && context.subtitles && !(await recognitionConfigured(ctx))) throw new ApiError(MSG.subtitlesNeedRecognition);
  if (hasAudio) {
    if (params.user_voice_id !== undefined) await ctx.speech.usableVoice(q, params.user_voice_id, userId);
    const audio = await ownAudio(q, userId, { fileId: params.voice_id, materialId: params.material_audio_id });
    const captions = audioDriven || params.voice_id === undefined ? null : await new VoicesRepository(q).auditionCaptions(audio.id, userId);
    return { audioFileId: audio.id, seconds: Number(audio.duration), params: context, text: audioDriven ? '' : (params.text ?? ''), captions };
  }
  const voice = await ctx.speech.usableVoice(q, params.user_voice_id!, userId);
  const speech = { voice_id: voice.id, ...speechSettings(voice, params) };
  return { audioFileId: null, seconds: estimateSeconds(params.text ?? '', speech.rate), params: { ...context, speech, estimated: true }, text: params.text ?? '', captions: null };
}

/**
 * A work in progress: on a remote lip-sync engine, how many go before it while it waits in our queue, or the engine's
 * progress; rendering on this machine, its progress and the seconds left at the pace so far.
 */
function progressLine(w: WorkRow): { queue_ahead?: number; progress?: number; seconds_left?: number } {
  if (Number(w.status) === WorkStatus.Rendering && w.local_progress !== null && w.render_started_at && !w.remote_state) {
    const progress = Number(w.local_progress);
    const elapsed = (Date.now() - new Date(w.render_started_at).getTime()) / 1000;
    return progress > 0 ? { progress, seconds_left: Math.max(1, Math.round((elapsed * (100 - progress)) / progress)) } : { progress };
  }
  if (!w.remote_state || !w.remote_engine) return {};
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
    const channel = await works.videoChannel(params.api);
    if (!channel || !channel.enabled) throw new ApiError(MSG.channelUnavailable);
    const engine = lipSyncEngineFor(channel.engine, channel.config);
    const face = await faceInput(db, user.id, params, engine);
    if (params.api === 'gj' && !(face.duration >= 30 && face.duration <= 300)) throw new ApiError(MSG.gjDurationInvalid);
    const speech = await spokenInput(ctx, db, user.id, params);
    const bgm = await workBgm(db, user.id, params);
    const price = Number(channel.credits);
    const reserved = workCredits(speech.seconds, price);
    return db.tx(async (q) => {
      const workId = await new WorksRepository(q).add({
        userId: user.id, name: params.name, api: params.api, isMulti: false, onlyAudio: false, avatarId: face.avatarId ?? null, photoType: face.photoType,
        audioFileId: speech.audioFileId, text: speech.text, params: { ...speech.params, material_video_file_id: face.materialFileId, photo_id: face.photoId, bgm }, price, reserved,
        captions: speech.captions,
      });
      const runsUpToSeconds = engine?.kind === 'local' ? engine.renderJobSeconds(speech.seconds) : undefined;
      return { id: await reserveAndQueue(ctx, q, { userId: user.id, workId, amount: reserved, action: `视频合成·${channel.name}`, runsUpToSeconds }) };
    });
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
      return { id: await reserveAndQueue(ctx, q, { userId: user.id, workId, amount: reserved, action: `多场景创作·${channel.name}`, runsUpToSeconds }) };
    }),
  );

  router.handle(API.works.list, async ({ params, user }) => {
    const { total, generate } = await works.counts(user.id, params);
    if (params.page === 0 && params.limit === 0) return { list: [], total, generate };
    const limit = params.limit > 0 ? Math.min(params.limit, 200) : 20;
    const rows = await works.list(user.id, params, limit, (Math.max(params.page, 1) - 1) * limit);
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
    if (!(await works.rename(params.id, user.id, params.name))) throw new ApiError(MSG.notFound);
    return {};
  });

  router.handle(API.works.remove, async ({ params, user }) => {
    const removed = await works.remove(params.id, user.id);
    if (!removed) throw new ApiError(MSG.workBusyOrMissing);
    // A cover made from a material video, a picture or a one-click work's frame is the work's own; an avatar's stays with the avatar.
    const ownCover = removed.params.material_video_file_id || removed.params.photo_id || removed.params.oneclick;
    await deleteObjects(ctx, [removed.video_key, ownCover ? removed.cover_key : '', removed.srt_key]);
    return {};
  });
}
