/**
 * A single work's submission, in two steps that works.create and batch creation share: planWork checks everything
 * /create checks (channel, who appears, what is spoken, music) and prices it; queueWork, inside the submitting
 * transaction, adds the work, reserves its credits and queues its render.
 */
import { MSG, estimateSeconds, workCredits, type API, type CallParsedRequest, type SubtitleStyle } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { lipSyncEngineFor, type LipSyncEngine } from '../../engines/lipsync';
import { WorksRepository, type WorkParams } from './works.repository';
import { workBgm } from './background-music';
import { ownAudio, readyAvatar, reserveAndQueue, speechSettings } from './works.service';
import { pictureForWork } from '../photo';
import { VoicesRepository } from '../voices';
import { recognitionConfigured } from './subtitles';

export type Submission = CallParsedRequest<typeof API.works.create>;

/** The burned-in captions a submission asks for (absent: none). */
export const subtitleStyle = (p: { subtitles: number; subtitle_size: SubtitleStyle['size']; subtitle_position: SubtitleStyle['position']; subtitle_color: SubtitleStyle['color'] }): SubtitleStyle | undefined =>
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

/** What planWork found: the checked work, its price and its reservation. */
export interface WorkPlan {
  channelName: string;
  engine: LipSyncEngine | undefined;
  face: Awaited<ReturnType<typeof faceInput>>;
  speech: Awaited<ReturnType<typeof spokenInput>>;
  bgm: WorkParams['bgm'];
  price: number;
  reserved: number;
}

/** Every check of /create on a parsed submission (ApiError with the spec's message when one fails), and its price. */
export async function planWork(ctx: FeatureContext, q: Queryable, userId: number, params: Submission): Promise<WorkPlan> {
  const works = new WorksRepository(q);
  const channel = await works.videoChannel(params.api);
  if (!channel || !channel.enabled) throw new ApiError(MSG.channelUnavailable);
  const engine = lipSyncEngineFor(channel.engine, channel.config);
  const face = await faceInput(q, userId, params, engine);
  if (params.api === 'gj' && !(face.duration >= 30 && face.duration <= 300)) throw new ApiError(MSG.gjDurationInvalid);
  const speech = await spokenInput(ctx, q, userId, params);
  const bgm = await workBgm(q, userId, params);
  const price = Number(channel.credits);
  return { channelName: channel.name, engine, face, speech, bgm, price, reserved: workCredits(speech.seconds, price) };
}

/** Inside the submitting transaction: the planned work added, reserved (MSG.insufficientCredits when short) and queued. */
export async function queueWork(ctx: FeatureContext, q: Queryable, userId: number, params: Submission, plan: WorkPlan): Promise<number> {
  const { face, speech, engine } = plan;
  const workId = await new WorksRepository(q).add({
    userId, name: params.name, api: params.api, isMulti: false, onlyAudio: false, avatarId: face.avatarId ?? null, photoType: face.photoType,
    audioFileId: speech.audioFileId, text: speech.text, params: { ...speech.params, material_video_file_id: face.materialFileId, photo_id: face.photoId, bgm: plan.bgm }, price: plan.price, reserved: plan.reserved,
    captions: speech.captions,
  });
  const runsUpToSeconds = engine?.kind === 'local' ? engine.renderJobSeconds(speech.seconds) : undefined;
  return reserveAndQueue(ctx, q, { userId, workId, amount: plan.reserved, action: `视频合成·${plan.channelName}`, runsUpToSeconds, onThisMachine: engine?.kind !== 'remote' });
}
