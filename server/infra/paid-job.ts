/**
 * One runner for the jobs that end a record their user paid for (or waits on): the reservation was taken at submit,
 * the job's steps settle on what was delivered, and a job that cannot deliver fails its record with a Chinese reason
 * and refunds exactly what was reserved. The runner owns what every such job repeated: a record gone or no longer open
 * is left alone (a retried job that finds its work done does nothing); an error the feature calls permanent fails the
 * record at once; any other error is retried by the queue until the last attempt, which fails the record.
 * The feature keeps its steps, its own reading of its errors, and its fail (mark failed + refund under its
 * idempotency key, in one transaction, only while the record is still open: a fail that finds it ended does nothing).
 */
import { JOB_RETRY_LIMIT, reportJobFailure, type JobRun } from './queue';

/** A failure the input or an engine caused (whatever the job throws it from): the record fails at once with this message. */
export class JobRefused extends Error {}

/** What the steps know of their run. */
export interface PaidJobRun {
  /** No retry follows this attempt: a step that could wait for another may settle for less now. */
  lastAttempt: boolean;
}

export interface PaidJob<R> {
  /** The record, or undefined (or null) when it is gone. */
  load(): Promise<R | undefined | null>;
  /** Whether the record still waits for this job (queued or in progress). */
  isOpen(record: R): boolean;
  /** The feature's steps: they settle on what was delivered (or end the record themselves, e.g. a provider said no). */
  run(record: R, run: PaidJobRun): Promise<void>;
  /** Marks the record failed with the reason and refunds what was reserved; does nothing when the record already ended. */
  fail(record: R, reason: string): Promise<void>;
  /** The reason an error ends the job at once (an engine's permanent refusal); undefined: the error may be retried. */
  permanent?(err: unknown): string | undefined;
  /** The reason the record fails with when the last attempt ends in an error that is not permanent. */
  lastReason: string | ((err: unknown) => string);
}

/** True when no retry follows this attempt (one run past the limit follows a last attempt whose worker died). */
export const isLastAttempt = (job: Pick<JobRun, 'retryCount'>): boolean => job.retryCount >= JOB_RETRY_LIMIT;

/** `job`: the attempt (its retryCount) of the job that runs it. */
export async function runPaidJob<R>(job: Pick<JobRun, 'retryCount'>, spec: PaidJob<R>): Promise<void> {
  const record = await spec.load();
  if (record === undefined || record === null || !spec.isOpen(record)) return;
  const lastAttempt = isLastAttempt(job);
  try {
    await spec.run(record, { lastAttempt });
  } catch (err) {
    let reason = err instanceof JobRefused ? err.message : spec.permanent?.(err);
    if (reason === undefined) {
      if (!lastAttempt) throw err;
      reason = typeof spec.lastReason === 'string' ? spec.lastReason : spec.lastReason(err);
    }
    // Logged once with the job's name and id; the record keeps the reason its user reads.
    reportJobFailure(reason, err);
    await spec.fail(record, reason);
  }
}
