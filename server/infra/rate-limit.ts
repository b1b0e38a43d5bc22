/**
 * A per-user limit on calls that cost the operator at a provider (the chat engine, speech recognition), or per API
 * key (the public API): at most `perMinute` in any 60 s, kept in this process's memory (each api process counts its own).
 */
import { MSG } from '../../src/contract';
import { ApiError } from './http';

const WINDOW_MS = 60_000;
/** Past this many users tracked, the idle ones are forgotten. */
const SWEEP_AT = 10_000;

/** One look at a limit: whether the call may go, how many more may in this window, and when the oldest leaves it. */
export interface RateCount {
  ok: boolean;
  remaining: number;
  resetSeconds: number;
}

export class PerUserRate {
  private readonly recent = new Map<number, number[]>();

  constructor(readonly perMinute: number) {}

  /** Counts one call of the user's, or refuses it with MSG.tooManyRequests. */
  take(userId: number): void {
    if (!this.count(userId).ok) throw new ApiError(MSG.tooManyRequests);
  }

  /** Counts one call unless the limit is reached; answers what the RateLimit headers say. */
  count(userId: number): RateCount {
    const now = Date.now();
    const calls = (this.recent.get(userId) ?? []).filter((t) => now - t < WINDOW_MS);
    const ok = calls.length < this.perMinute;
    if (ok) calls.push(now);
    this.recent.set(userId, calls);
    if (this.recent.size > SWEEP_AT) for (const [id, times] of this.recent) if (times.every((t) => now - t >= WINDOW_MS)) this.recent.delete(id);
    return { ok, remaining: this.perMinute - calls.length, resetSeconds: Math.max(1, Math.ceil((calls[0]! + WINDOW_MS - now) / 1000)) };
  }
}
