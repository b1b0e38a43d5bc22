/**
 * Voices: lists, cloning on a channel (credits unless free times remain, a training job), modification,
 * rename, delete, confirm, settings, languages; and auditions (a synthesis job whose mp3 is the user's file,
 * usable by the render pipeline).
 */
import { API, AuditionStatus, CLONING_SERVER_UPLOAD_TIPS, LIMITS, MSG, VOICE_TYPE_NAME_LOCKED, VoiceStatus } from '../../../src/contract';
import { ApiError, WithMessage } from '../../infra/http';
import type { FeatureContext } from '../../app-context';
import { OFFLINE_LANGUAGES, type SpeechParams } from '../../engines/speech';
import { spendOrRefuse } from '../credits';
import { VoicesRepository, type VoiceChannelRow, type VoiceRow } from './voices.repository';
import { startAudition, startTraining } from './voices.service';

/** The channel whose voices are edited only from the handheld app. */
const HANDHELD_ONLY_API = 'xf';

/** Free clones of this channel the user has left. */
async function freeTimesLeft(voices: VoicesRepository, userId: number, channel: VoiceChannelRow): Promise<number> {
  return Math.max(0, Number(channel.free_times) - (await voices.freeClonesUsed(userId, channel.api)));
}

/** A cloning server's own advice on the sample, for a channel whose operator gave none. */
function engineUploadTips(engine: string): string {
  return (CLONING_SERVER_UPLOAD_TIPS as Record<string, string>)[engine] ?? '';
}

async function ownVoice(voices: VoicesRepository, id: number, userId: number, lock = false): Promise<VoiceRow> {
  const voice = await voices.ownVoice(id, userId, lock);
  if (!voice) throw new ApiError(MSG.notFound);
  return voice;
}

export function registerVoiceRoutes(ctx: FeatureContext): void {
  const { router, db, queue, urls, speech } = ctx;
  const voices = new VoicesRepository(db);

  const toVoice = (r: VoiceRow) => ({
    id: r.id,
    name: r.name,
    url: urls.url(r.sample_key ?? r.audio_key),
    api: r.api,
    type: Number(r.type),
    remained_times: Number(r.remained_times),
    version_name: r.version_name ?? '',
    voice_channel_name: r.channel_name ?? '',
    generate_status: Number(r.generate_status),
    rate: Number(r.rate),
    volume: Number(r.volume),
    pitch: Number(r.pitch),
    source: r.user_id === null ? 2 : 1,
    file_id: r.file_id ?? 0,
    confirmed: Number(r.confirmed) ? (1 as const) : (0 as const),
    reason: r.reason || undefined,
  });

  router.handle(API.voices.list, async ({ params, user }) => {
    const { rows, total, training } = await voices.list(user.id, { mine: params.source !== 2, name: params.name, page: params.page, limit: params.limit });
    return { list: rows.map(toVoice), generate: training, total };
  });

  router.handle(API.voices.channels, async ({ user }) => {
    const list = [];
    for (const c of await voices.enabledVoiceChannels()) {
      list.push({
        api: c.api, name: c.name, desc: c.description, version_name: c.version_name, credits: Number(c.credits),
        free_times: await freeTimesLeft(voices, user.id, c), train_times: Number(c.train_times),
        upload_tips: c.upload_tips || engineUploadTips(c.engine), language: c.language,
      });
    }
    return { list };
  });

  router.handle(API.voices.language, async ({ params }) => {
    const channel = await voices.voiceChannel(params.api);
    return { language: channel?.engine === 'local' ? OFFLINE_LANGUAGES : [] };
  });

  router.handle(API.voices.create, async ({ params, user }) => {
    const sample = await voices.userFile(params.file_id, user.id);
    if (!sample || sample.kind !== 'voice') throw new ApiError(MSG.voiceAudioRequired);
    if (!(sample.duration >= LIMITS.audio.minSeconds && sample.duration <= LIMITS.audio.maxSeconds)) throw new ApiError(MSG.audioDurationInvalid);

    return db.tx(async (q) => {
      const inTx = new VoicesRepository(q);
      const modifying = params.id !== undefined ? await ownVoice(inTx, params.id, user.id, true) : undefined;
      if (modifying) {
        if (modifying.api === HANDHELD_ONLY_API) throw new ApiError(MSG.voiceXfEditRefused);
        if (Number(modifying.generate_status) === VoiceStatus.Training) throw new ApiError(MSG.voiceTraining);
        if (Number(modifying.remained_times) <= 0) throw new ApiError(MSG.voiceNoModificationsLeft);
      }
      const channel = await inTx.voiceChannel(modifying?.api ?? params.api);
      if (!channel || !channel.enabled) throw new ApiError(MSG.channelUnavailable);

      let voiceId: number;
      if (modifying) {
        voiceId = modifying.id;
        await inTx.retrain(voiceId, params.name, params.file_id);
      } else {
        voiceId = await inTx.addVoice({ userId: user.id, name: params.name, api: channel.api, remainedTimes: Number(channel.train_times), fileId: params.file_id });
      }

      const price = Number(channel.credits);
      const free = price === 0 || (await freeTimesLeft(inTx, user.id, channel)) > 0;
      const trainingId = await startTraining(q, queue, {
        voiceId, userId: user.id, api: channel.api, fileId: params.file_id, free: free && price > 0, credits: free ? 0 : price, isModify: !!modifying,
      });
      if (!free) {
        const spend = await spendOrRefuse(q, { userId: user.id, amount: price, action: `声音克隆·${channel.name}`, key: `voice-training:${trainingId}` });
        await inTx.setTrainingSpend(trainingId, spend.entryId);
      }
      return { id: voiceId };
    });
  });

  router.handle(API.voices.rename, async ({ params, user }) => {
    const voice = await ownVoice(voices, params.id, user.id);
    if (Number(voice.type) === VOICE_TYPE_NAME_LOCKED) throw new ApiError(MSG.voiceNameLocked);
    await voices.rename(params.id, user.id, params.name);
    return new WithMessage({}, MSG.renameSucceeded);
  });

  router.handle(API.voices.remove, async ({ params, user }) => {
    const voice = await ownVoice(voices, params.id, user.id);
    if (Number(voice.generate_status) === VoiceStatus.Training) throw new ApiError(MSG.voiceTraining);
    if (Number(voice.remained_times) > 0) throw new ApiError(MSG.voiceDeleteNeedsNoModifications);
    await voices.remove(params.id, user.id);
    return {};
  });

  router.handle(API.voices.confirm, async ({ params, user }) => {
    await db.tx(async (q) => {
      const inTx = new VoicesRepository(q);
      const voice = await ownVoice(inTx, params.voice_id, user.id, true);
      if (Number(voice.generate_status) === VoiceStatus.Training) throw new ApiError(MSG.voiceTraining);
      if (Number(voice.generate_status) === VoiceStatus.Failed) throw new ApiError(MSG.voiceFailed);
      if (Number(voice.confirmed)) throw new ApiError(MSG.voiceAlreadyConfirmed);
      await inTx.confirm(voice.id);
    });
    return new WithMessage({}, MSG.confirmSucceeded);
  });

  router.handle(API.voices.settings, async ({ params, user }) => {
    if (!(await voices.saveSettings(params.voice_id, user.id, params))) {
      throw new ApiError((await voices.isPublicVoice(params.voice_id)) ? MSG.publicVoiceSettingsPerWork : MSG.notFound);
    }
    return new WithMessage({}, MSG.voiceSettingsSaved);
  });

  router.handle(API.voices.audition, async ({ params, user }) => {
    const voice = await speech.usableVoice(db, params.voice_id, user.id);
    const settings: SpeechParams = {
      rate: params.rate ?? Number(voice.rate),
      volume: params.volume ?? Number(voice.volume),
      pitch: params.pitch ?? Number(voice.pitch),
      language: params.language ?? '',
      emotion: params.emotion ?? '',
    };
    const jobId = await db.tx((q) => startAudition(q, queue, { userId: user.id, voiceId: voice.id, text: params.text, params: settings }));
    return { job_id: jobId };
  });

  router.handle(API.voices.auditionPoll, async ({ params, user }) => {
    if (!/^[0-9a-f-]{36}$/.test(params.job_id)) throw new ApiError(MSG.notFound);
    const job = await voices.ownSpeechJob(params.job_id, user.id);
    if (!job) throw new ApiError(MSG.notFound);
    const done = Number(job.status) === AuditionStatus.Done && job.key;
    return { job_id: params.job_id, status: Number(job.status), url: done ? urls.url(job.key!) : '', file_id: done ? job.file_id! : 0 };
  });
}
