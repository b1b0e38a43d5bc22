/**
 * Voices: lists, cloning on a channel (credits unless free times remain, a training job), modification,
 * rename, delete, confirm, settings, languages; and auditions (a synthesis job whose mp3 is the user's file,
 * usable by the render pipeline).
 */
import { randomUUID } from 'node:crypto';
import { API, LIMITS, MSG, VOICE_TYPE_NAME_LOCKED, VoiceStatus } from '../../../src/contract';
import { ApiError, WithMessage } from '../../infra/http';
import { JOB_RETRY_LIMIT } from '../../infra/queue';
import { probe } from '../../infra/media-probe';
import type { Queryable } from '../../infra/db';
import type { FeatureContext } from '../../app-context';
import { SpeechEngineError, type SpeechParams, type TrainingState } from '../../engines/speech/speech-engine';
import { OFFLINE_LANGUAGES } from '../../engines/speech/offline/offline-engine';
import { InsufficientCreditsError, refundIn, spendIn } from '../credits';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import { voiceChannel, type VoiceChannelRow } from './speech-engines';
import { READY, VOICE_SELECT, type VoiceRow } from './speech-service';

/** How often a provider's training is asked about, and for how long. */
export const TRAINING_POLL_SECONDS = 5;
const TRAINING_MAX_CHECKS = (2 * 3600) / TRAINING_POLL_SECONDS;
/** The channel whose voices are edited only from the handheld app. */
const HANDHELD_ONLY_API = 'xf';

/** Free clones of this channel the user has left. */
async function freeTimesLeft(q: Queryable, userId: number, channel: VoiceChannelRow): Promise<number> {
  const { rows } = await q.query<{ used: number }>(
    `SELECT count(*)::int AS used FROM voice_trainings WHERE user_id = $1 AND api = $2 AND free AND status <> 3`,
    [userId, channel.api],
  );
  return Math.max(0, Number(channel.free_times) - rows[0]!.used);
}

/** Audition files are kept this long for a submission to reuse; a work that still needs one keeps it. */
export const AUDITION_KEEP_HOURS = 24;

export interface VoiceJobs {
  runTraining(trainingId: number, attempt: number): Promise<void>;
  runSpeech(jobId: string, attempt: number): Promise<void>;
  /** Removes old audition jobs and their files (which count in the user's space). */
  sweepAuditions(): Promise<number>;
}

export function registerVoiceRoutes(ctx: FeatureContext): VoiceJobs {
  const { router, db, queue, urls, speech } = ctx;

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

  async function ownVoice(q: Queryable, id: number, userId: number, lock = false): Promise<VoiceRow> {
    const { rows } = await q.query<VoiceRow>(`${VOICE_SELECT} WHERE v.id = $1 AND v.user_id = $2${lock ? ' FOR UPDATE OF v' : ''}`, [id, userId]);
    if (!rows[0]) throw new ApiError(MSG.notFound);
    return rows[0];
  }

  router.handle(API.voice.list, async ({ params, user }) => {
    const mine = params.source !== 2;
    const where = mine ? 'v.user_id = $1' : `v.user_id IS NULL AND v.generate_status = ${READY} AND $1::int IS NOT NULL`;
    const limit = params.limit > 0 ? `LIMIT ${params.limit} OFFSET ${(Math.max(params.page, 1) - 1) * params.limit}` : '';
    const { rows } = await db.query<VoiceRow>(`${VOICE_SELECT} WHERE ${where} AND v.name ILIKE $2 ORDER BY v.id ${mine ? 'DESC' : ''} ${limit}`, [
      user.id,
      params.name ? `%${params.name}%` : '%',
    ]);
    const { rows: counts } = await db.query<{ total: number; generate: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE v.generate_status = 1)::int AS generate FROM voices v WHERE ${where} AND v.name ILIKE $2`,
      [user.id, params.name ? `%${params.name}%` : '%'],
    );
    return { list: rows.map(toVoice), generate: counts[0]!.generate, total: counts[0]!.total };
  });

  router.handle(API.voice.channels, async ({ user }) => {
    const { rows } = await db.query<VoiceChannelRow>(`SELECT * FROM channels WHERE kind = 'voice' AND enabled ORDER BY sort, api`);
    const list = [];
    for (const c of rows) {
      list.push({
        api: c.api, name: c.name, desc: c.description, version_name: c.version_name, credits: Number(c.credits),
        free_times: await freeTimesLeft(db, user.id, c), train_times: Number(c.train_times),
        upload_tips: c.upload_tips, language: c.language,
      });
    }
    return { list };
  });

  router.handle(API.voice.language, async ({ params }) => {
    const channel = await voiceChannel(db, params.api);
    return { language: channel?.engine === 'local' ? OFFLINE_LANGUAGES : [] };
  });

  router.handle(API.voice.create, async ({ params, user }) => {
    const { rows: files } = await db.query<{ kind: string; duration: number }>('SELECT kind, duration FROM files WHERE id = $1 AND user_id = $2', [params.file_id, user.id]);
    const sample = files[0];
    if (!sample || sample.kind !== 'voice') throw new ApiError(MSG.voiceAudioRequired);
    if (!(sample.duration >= LIMITS.audio.minSeconds && sample.duration <= LIMITS.audio.maxSeconds)) throw new ApiError(MSG.audioDurationInvalid);

    return db.tx(async (q) => {
      let voiceId: number;
      let api: string = params.api;
      if (params.id !== undefined) {
        const voice = await ownVoice(q, params.id, user.id, true);
        if (voice.api === HANDHELD_ONLY_API) throw new ApiError(MSG.voiceXfEditRefused);
        if (Number(voice.generate_status) === VoiceStatus.Training) throw new ApiError(MSG.voiceTraining);
        if (Number(voice.remained_times) <= 0) throw new ApiError(MSG.voiceNoModificationsLeft);
        api = voice.api;
        voiceId = voice.id;
      }
      const channel = await voiceChannel(q, api);
      if (!channel || !channel.enabled) throw new ApiError(MSG.channelUnavailable);
      const name = params.name;

      if (params.id !== undefined) {
        await q.query(
          `UPDATE voices SET name = CASE WHEN type = ${VOICE_TYPE_NAME_LOCKED} THEN name ELSE $2 END, file_id = $3,
                  remained_times = remained_times - 1, generate_status = 1, reason = '' WHERE id = $1`,
          [voiceId!, name, params.file_id],
        );
      } else {
        const { rows } = await q.query<{ id: number }>(
          `INSERT INTO voices (user_id, name, api, remained_times, generate_status, file_id) VALUES ($1, $2, $3, $4, 1, $5) RETURNING id`,
          [user.id, name, channel.api, Number(channel.train_times), params.file_id],
        );
        voiceId = rows[0]!.id;
      }

      const free = Number(channel.credits) === 0 || (await freeTimesLeft(q, user.id, channel)) > 0;
      const { rows: training } = await q.query<{ id: number }>(
        `INSERT INTO voice_trainings (voice_id, user_id, api, file_id, free, credits, is_modify) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [voiceId!, user.id, channel.api, params.file_id, free && Number(channel.credits) > 0, free ? 0 : Number(channel.credits), params.id !== undefined],
      );
      const trainingId = training[0]!.id;
      if (!free) {
        try {
          const spend = await spendIn(q, { userId: user.id, amount: Number(channel.credits), action: `声音克隆·${channel.name}`, key: `voice-training:${trainingId}` });
          await q.query('UPDATE voice_trainings SET spend_entry_id = $2 WHERE id = $1', [trainingId, spend.entryId]);
        } catch (err) {
          if (err instanceof InsufficientCreditsError) throw new ApiError(MSG.insufficientCredits);
          throw err;
        }
      }
      await q.query('UPDATE voices SET training_id = $2 WHERE id = $1', [voiceId!, trainingId]);
      await queue.send('voice-train', { trainingId }, {}, q);
      return { id: voiceId! };
    });
  });

  router.handle(API.voice.rename, async ({ params, user }) => {
    const voice = await ownVoice(db, params.id, user.id);
    if (Number(voice.type) === VOICE_TYPE_NAME_LOCKED) throw new ApiError(MSG.voiceNameLocked);
    await db.query('UPDATE voices SET name = $3 WHERE id = $1 AND user_id = $2', [params.id, user.id, params.name]);
    return new WithMessage({}, MSG.renameSucceeded);
  });

  router.handle(API.voice.remove, async ({ params, user }) => {
    const voice = await ownVoice(db, params.id, user.id);
    if (Number(voice.generate_status) === VoiceStatus.Training) throw new ApiError(MSG.voiceTraining);
    if (Number(voice.remained_times) > 0) throw new ApiError(MSG.voiceDeleteNeedsNoModifications);
    await db.query('DELETE FROM voices WHERE id = $1 AND user_id = $2', [params.id, user.id]);
    return {};
  });

  router.handle(API.voice.confirm, async ({ params, user }) => {
    await db.tx(async (q) => {
      const voice = await ownVoice(q, params.voice_id, user.id, true);
      if (Number(voice.generate_status) === VoiceStatus.Training) throw new ApiError(MSG.voiceTraining);
      if (Number(voice.generate_status) === VoiceStatus.Failed) throw new ApiError(MSG.voiceFailed);
      if (Number(voice.confirmed)) throw new ApiError(MSG.voiceAlreadyConfirmed);
      // Confirmed means fixed: no modification is left, so the voice can be deleted from now on.
      await q.query('UPDATE voices SET confirmed = 1, remained_times = 0 WHERE id = $1', [voice.id]);
    });
    return new WithMessage({}, MSG.confirmSucceeded);
  });

  router.handle(API.voice.settings, async ({ params, user }) => {
    const { rowCount } = await db.query('UPDATE voices SET rate = $3, volume = $4, pitch = $5 WHERE id = $1 AND user_id = $2', [
      params.voice_id, user.id, params.rate, params.volume, params.pitch,
    ]);
    if (rowCount === 0) {
      const { rows } = await db.query('SELECT 1 FROM voices WHERE id = $1 AND user_id IS NULL', [params.voice_id]);
      throw new ApiError(rows[0] ? MSG.publicVoiceSettingsPerWork : MSG.notFound);
    }
    return new WithMessage({}, MSG.voiceSettingsSaved);
  });

  router.handle(API.voice.audition, async ({ params, user }) => {
    const voice = await speech.usableVoice(db, params.voice_id, user.id);
    const settings: SpeechParams = {
      rate: params.rate ?? Number(voice.rate),
      volume: params.volume ?? Number(voice.volume),
      pitch: params.pitch ?? Number(voice.pitch),
      language: params.language ?? '',
      emotion: params.emotion ?? '',
    };
    const jobId = randomUUID();
    await db.tx(async (q) => {
      await q.query(`INSERT INTO speech_jobs (id, user_id, voice_id, text, params) VALUES ($1, $2, $3, $4, $5)`, [jobId, user.id, voice.id, params.text, JSON.stringify(settings)]);
      await queue.send('speech-synthesize', { jobId }, {}, q);
    });
    return { job_id: jobId };
  });

  router.handle(API.voice.auditionPoll, async ({ params, user }) => {
    if (!/^[0-9a-f-]{36}$/.test(params.job_id)) throw new ApiError(MSG.notFound);
    const { rows } = await db.query<{ status: number; file_id: number | null; key: string | null }>(
      `SELECT j.status, j.file_id, f.object_key AS key FROM speech_jobs j LEFT JOIN files f ON f.id = j.file_id WHERE j.id = $1 AND j.user_id = $2`,
      [params.job_id, user.id],
    );
    const job = rows[0];
    if (!job) throw new ApiError(MSG.notFound);
    const done = Number(job.status) === 3 && job.key;
    return { job_id: params.job_id, status: Number(job.status), url: done ? urls.url(job.key!) : '', file_id: done ? job.file_id! : 0 };
  });

  // ---- jobs

  async function finishTraining(trainingId: number, state: TrainingState): Promise<void> {
    await db.tx(async (q) => {
      const { rows } = await q.query<{ voice_id: number; user_id: number | null; status: number; spend_entry_id: number | null; credits: number; is_modify: boolean }>(
        'SELECT voice_id, user_id, status, spend_entry_id, credits, is_modify FROM voice_trainings WHERE id = $1 FOR UPDATE',
        [trainingId],
      );
      const t = rows[0];
      if (!t || Number(t.status) !== 1) return;
      if (state.state === 'ready') {
        await q.query('UPDATE voice_trainings SET status = 2, remote_id = $2, finished_at = now() WHERE id = $1', [trainingId, state.voice.remoteId]);
        await q.query(`UPDATE voices SET generate_status = ${READY}, engine_voice = $2, reason = '' WHERE id = $1 AND training_id = $3`, [t.voice_id, JSON.stringify(state.voice), trainingId]);
        return;
      }
      if (state.state === 'failed') {
        await q.query('UPDATE voice_trainings SET status = 3, reason = $2, finished_at = now() WHERE id = $1', [trainingId, state.reason]);
        // A failed modification gives its modification back; the voice keeps what it had if it had been trained before.
        await q.query(
          `UPDATE voices SET generate_status = CASE WHEN engine_voice IS NULL THEN 3 ELSE ${READY} END, reason = $2,
                  remained_times = remained_times + $4 WHERE id = $1 AND training_id = $3`,
          [t.voice_id, state.reason, trainingId, t.is_modify ? 1 : 0],
        );
        if (t.spend_entry_id && t.user_id) {
          await refundIn(q, { userId: t.user_id, spendEntryId: t.spend_entry_id, amount: Number(t.credits), action: '声音克隆失败退回', key: `voice-training:${trainingId}:failed` });
        }
      }
    });
  }

  async function runTraining(trainingId: number, attempt: number): Promise<void> {
    const { rows } = await db.query<{ status: number; remote_id: string; checks: number; api: string; key: string | null; name: string }>(
      `SELECT t.status, t.remote_id, t.checks, t.api, f.object_key AS key, v.name
         FROM voice_trainings t JOIN voices v ON v.id = t.voice_id LEFT JOIN files f ON f.id = t.file_id WHERE t.id = $1`,
      [trainingId],
    );
    const training = rows[0];
    if (!training || Number(training.status) !== 1) return;
    try {
      const engine = speech.engines.for(await voiceChannel(db, training.api));
      let state: TrainingState;
      if (training.remote_id) {
        state = await engine.trainingState(training.remote_id);
      } else {
        if (!training.key) return void (await finishTraining(trainingId, { state: 'failed', reason: '样本音频已被删除，请重新上传' }));
        const ext = training.key.slice(training.key.lastIndexOf('.') + 1);
        state = await ctx.storage.withLocalFile(training.key, (file) => engine.clone({ file, ext, name: training.name, trainingKey: `t${trainingId}` }));
      }
      if (state.state === 'training') {
        const remoteId = state.voice.remoteId;
        const { rows: updated } = await db.query<{ checks: number }>(
          `UPDATE voice_trainings SET checks = checks + 1, remote_id = CASE WHEN remote_id = '' THEN $2 ELSE remote_id END WHERE id = $1 RETURNING checks`,
          [trainingId, remoteId],
        );
        if (Number(updated[0]!.checks) > TRAINING_MAX_CHECKS) return void (await finishTraining(trainingId, { state: 'failed', reason: '训练超时，积分已退回，请稍后重试' }));
        await queue.send('voice-train', { trainingId }, { startAfter: TRAINING_POLL_SECONDS });
        return;
      }
      await finishTraining(trainingId, state);
    } catch (err) {
      const permanent = err instanceof SpeechEngineError && !err.transient;
      if (permanent || attempt >= JOB_RETRY_LIMIT) {
        await finishTraining(trainingId, { state: 'failed', reason: err instanceof SpeechEngineError ? err.message : '声音训练失败，积分已退回，请稍后重试' });
        return;
      }
      throw err;
    }
  }

  async function runSpeech(jobId: string, attempt: number): Promise<void> {
    const { rows } = await db.query<{ user_id: number; status: number; text: string; params: SpeechParams; voice_id: number | null }>(
      'SELECT user_id, status, text, params, voice_id FROM speech_jobs WHERE id = $1',
      [jobId],
    );
    const job = rows[0];
    if (!job || Number(job.status) >= 3) return;
    const fail = (reason: string) => db.query(`UPDATE speech_jobs SET status = 4, reason = $2, finished_at = now() WHERE id = $1 AND status < 3`, [jobId, reason]);
    const voice = await speech.readyVoice(job.voice_id, job.user_id);
    if (!voice) return void (await fail('声音已不可用'));
    await db.query('UPDATE speech_jobs SET status = 2 WHERE id = $1 AND status = 1', [jobId]);
    try {
      await withWorkDir(ctx.config.dataDir, async (dir) => {
        const output = `${dir}/speech.mp3`;
        await speech.synthesize(voice, job.text, job.params, output);
        const { duration } = await probe(output, 'mp3');
        const file = await storeUserFile(ctx, job.user_id, output, 'mp3', 'voice', duration);
        const { rowCount } = await db.query(`UPDATE speech_jobs SET status = 3, file_id = $2, finished_at = now() WHERE id = $1 AND status < 3`, [jobId, file.fileId]);
        if (rowCount === 0) await deleteObjects(ctx, [file.key]);
      });
    } catch (err) {
      const permanent = err instanceof SpeechEngineError && !err.transient;
      if (permanent || attempt >= JOB_RETRY_LIMIT) return void (await fail(err instanceof Error ? err.message : String(err)));
      throw err;
    }
  }

  async function sweepAuditions(): Promise<number> {
    const { rows } = await db.query<{ key: string | null }>(
      `DELETE FROM speech_jobs j WHERE j.created_at < now() - make_interval(hours => $1)
          AND NOT EXISTS (SELECT 1 FROM works w WHERE w.audio_file_id = j.file_id AND w.status < 3)
        RETURNING (SELECT object_key FROM files f WHERE f.id = j.file_id) AS key`,
      [AUDITION_KEEP_HOURS],
    );
    await deleteObjects(ctx, rows.map((r) => r.key ?? ''));
    return rows.length;
  }

  return { runTraining, runSpeech, sweepAuditions };
}
