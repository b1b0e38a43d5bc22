/** Steps the voices calls share: starting a training run (a user's clone, an operator's public voice) and an audition. */
import { randomUUID } from 'node:crypto';
import { LIMITS, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import type { Queryable } from '../../infra/db';
import type { JobQueue } from '../../infra/queue';
import type { SpeechParams } from '../../engines/speech';
import { VoicesRepository, type NewTraining } from './voices.repository';

/** Adds a training run for the voice and queues its job, in the caller's transaction. */
export async function startTraining(q: Queryable, queue: JobQueue, training: NewTraining): Promise<number> {
  const trainingId = await new VoicesRepository(q).addTraining(training);
  await queue.send('voices-train', { trainingId }, {}, q);
  return trainingId;
}

/**
 * Adds an audition and queues its synthesis, unless the user (or, for a guest, the guests of their IP) already
 * has LIMITS.audition.maxRunning unfinished or LIMITS.audition.perMinute in the last minute: auditions are free,
 * so this is what bounds one user's share of the worker. Counted under a lock on those users, so simultaneous
 * requests cannot all see the old count.
 */
export async function startAudition(q: Queryable, queue: JobQueue, audition: { userId: number; voiceId: number; text: string; params: SpeechParams }): Promise<string> {
  const voices = new VoicesRepository(q);
  const load = await voices.auditionLoad(await voices.lockAuditioners(audition.userId));
  if (load.running >= LIMITS.audition.maxRunning || load.lastMinute >= LIMITS.audition.perMinute) throw new ApiError(MSG.auditionTooFrequent);
  const id = randomUUID();
  await voices.addSpeechJob({ id, ...audition });
  await queue.send('voices-synthesize', { jobId: id }, {}, q);
  return id;
}
