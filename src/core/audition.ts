import { lastValueFrom, merge, timer, type Observable } from 'rxjs';
import { API, AuditionStatus, type AuditionJob, type CallRequest } from '../contract';
import type { ApiClient, PollingService } from './tokens';
import { TIMINGS } from './timings';

/** How long a screen waits for one audition before it gives up. */
export const AUDITION_GIVE_UP_MS = 5 * 60_000;

/**
 * One audition (试听) as every screen asks it: submitted, then polled until done or failed, until `stop$` emits
 * (the screen closed) or the wait gives up. Answers the finished job with its url, or null (failed, stopped, no url).
 */
export async function speakAudition(api: ApiClient, polling: PollingService, request: CallRequest<typeof API.voices.audition>, stop$: Observable<unknown>): Promise<(AuditionJob & { url: string }) | null> {
  const { job_id } = await api.call(API.voices.audition, request);
  const job = await lastValueFrom(
    polling.poll<AuditionJob>(() => api.call(API.voices.auditionPoll, { job_id }, { silent: true }), {
      intervalMs: TIMINGS.auditionPollMs,
      keepGoing: (j) => j.status !== AuditionStatus.Done && j.status !== AuditionStatus.Failed,
      stop$: merge(stop$, timer(AUDITION_GIVE_UP_MS)),
    }),
    { defaultValue: null },
  );
  return job?.status === AuditionStatus.Done && job.url ? (job as AuditionJob & { url: string }) : null;
}
