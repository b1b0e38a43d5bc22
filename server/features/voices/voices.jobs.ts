/**
 * The voices jobs (at-least-once, through the paid-job runner: each reads its row's state first and ends only what is unfinished):
 * a training run polled at its engine until ready or failed, an audition's synthesis, and the audition sweep.
 */
import { AuditionStatus, VoiceStatus, sentencesOf } from '../../../src/contract';
import { reportJobFailure } from '../../infra/queue';
import { JobRefused, runPaidJob } from '../../infra/paid-job';
import { probe } from '../../infra/media-probe';
import { deleteObjects, storeUserFile } from '../../infra/user-files';
import { withWorkDir } from '../../infra/work-dirs';
import type { FeatureContext } from '../../app-context';
import { SpeechEngineError, type TrainingState } from '../../engines/speech';
import { refundIn } from '../credits';
import { notifyCloneEnded } from '../notice';
import { VoicesRepository } from './voices.repository';

/** How often a provider's training is asked about (unless the config says otherwise), and for how long. */
export const TRAINING_POLL_SECONDS = 5;
const TRAINING_GIVE_UP_SECONDS = 2 * 3600;
const trainingPollSeconds = (ctx: FeatureContext) => ctx.config.voiceTraining?.pollSeconds ?? TRAINING_POLL_SECONDS;
/** Audition files are kept this long for a submission to reuse; a work that still needs one keeps it. */
export const AUDITION_KEEP_HOURS = 24;

/** A failure the engine calls permanent: the job ends at once instead of being retried. */
const engineRefusal = (err: unknown) => (err instanceof SpeechEngineError && !err.transient ? err.message : undefined);

/** Ends a training run once: the voice becomes ready, or fails with its reason and a paid clone is refunded. */
async function finishTraining({ db }: FeatureContext, trainingId: number, state: Exclude<TrainingState, { state: 'training' }>): Promise<void> {
  await db.tx(async (q) => {
    const voices = new VoicesRepository(q);
    const t = await voices.lockTraining(trainingId);
    if (!t || Number(t.status) !== VoiceStatus.Training) return;
    if (state.state === 'ready') {
      await voices.trainingReady(trainingId, t.voice_id, state.voice);
      return notifyCloneEnded(q, { userId: t.user_id, kind: 'voice', name: t.name });
    }
    reportJobFailure(state.reason);
    await voices.trainingFailed(trainingId, t.voice_id, state.reason, t.is_modify);
    await notifyCloneEnded(q, { userId: t.user_id, kind: 'voice', name: t.name, failedReason: state.reason });
    if (t.spend_entry_id && t.user_id) {
      await refundIn(q, { userId: t.user_id, spendEntryId: t.spend_entry_id, amount: Number(t.credits), action: '声音克隆失败退回', key: `voice-training:${trainingId}:failed` });
    }
  });
}

/** Through the paid-job runner: a training no longer training is left alone; a paid clone that fails is refunded. */
export function runTraining(ctx: FeatureContext, trainingId: number, attempt: number): Promise<void> {
  const voices = new VoicesRepository(ctx.db);
  const fail = (reason: string) => finishTraining(ctx, trainingId, { state: 'failed', reason });
  return runPaidJob({ retryCount: attempt }, {
    load: () => voices.trainingRun(trainingId),
    isOpen: (training) => Number(training.status) === VoiceStatus.Training,
    run: async (training) => {
      const { engine } = await ctx.speech.channelEngine(training.api);
      let state: TrainingState;
      if (training.remote_id) {
        state = await engine.trainingState(training.remote_id);
      } else {
        if (!training.key) throw new JobRefused('样本音频已被删除，请重新上传');
        const ext = training.key.slice(training.key.lastIndexOf('.') + 1);
        state = await ctx.storage.withLocalFile(training.key, (file) => engine.clone({ file, ext, name: training.name, trainingKey: `t${trainingId}` }));
      }
      if (state.state !== 'training') return await finishTraining(ctx, trainingId, state);
      if ((await voices.countTrainingCheck(trainingId, state.voice.remoteId)) * trainingPollSeconds(ctx) > TRAINING_GIVE_UP_SECONDS) return await fail('训练超时，积分已退回，请稍后重试');
      await ctx.queue.send('voices-train', { trainingId }, { startAfter: trainingPollSeconds(ctx) });
    },
    fail: (_training, reason) => fail(reason),
    permanent: engineRefusal,
    lastReason: (err) => (err instanceof SpeechEngineError ? err.message : '声音训练失败，积分已退回，请稍后重试'),
  });
}

/** An audition (free: nothing to refund) through the same runner; a voice no longer usable fails it at once. */
export function runSpeech(ctx: FeatureContext, jobId: string, attempt: number): Promise<void> {
  const voices = new VoicesRepository(ctx.db);
  return runPaidJob({ retryCount: attempt }, {
    load: () => voices.speechJob(jobId),
    isOpen: (job) => Number(job.status) < AuditionStatus.Done,
    run: async (job) => {
      const voice = await ctx.speech.readyVoice(job.voice_id, job.user_id);
      if (!voice) throw new JobRefused('声音已不可用');
      await voices.speechJobRunning(jobId);
      await withWorkDir(ctx.config.dataDir, async (dir) => {
        const output = `${dir}/speech.mp3`;
        const spoken = await ctx.speech.synthesize(voice, job.text, job.params, output);
        const { duration } = await probe(output, 'mp3');
        const file = await storeUserFile(ctx, job.user_id, output, 'mp3', 'voice', duration);
        // The timed text goes with the audition: a work submitted with it gets its subtitles from here.
        if (!(await voices.speechJobDone(jobId, file.fileId, sentencesOf(spoken)))) await deleteObjects(ctx, [file.key]);
      });
    },
    fail: (_job, reason) => voices.speechJobFailed(jobId, reason),
    permanent: engineRefusal,
    lastReason: (err) => (err instanceof Error ? err.message : String(err)),
  });
}

/** Removes old audition jobs and their files (which count in the user's space); returns how many. */
export async function sweepAuditions(ctx: FeatureContext): Promise<number> {
  const keys = await new VoicesRepository(ctx.db).deleteOldSpeechJobs(AUDITION_KEEP_HOURS);
  await deleteObjects(ctx, keys);
  return keys.length;
}
