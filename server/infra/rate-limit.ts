/**
 * A per-user limit on calls that cost the operator at a provider (the chat engine, speech recognition): at most
 * `perMinute` in any 60 s, kept in this process's memory (each api process counts its own).
 */
import { MSG } from '../../src/contract';
import { ApiError } from './http';

const WINDOW_MS = 60_000;
/** Past this many users tracked, the idle ones are forgotten. */
const SWEEP_AT = 10_000;

export class PerUserRate {
  private readonly recent = new Map<number, number[]>();

  constructor(readonly perMinute: number) {}

  /** Counts one call of the user's, or refuses it with MSG.tooManyRequests. */
  take(userId: number): void {
    const now = Date.now();
    const calls = (this.recent.get(userId) ?? []).filter((t) => now - t < WINDOW_MS);
    if (calls.length >= this.perMinute) throw new ApiError(MSG.tooManyRequests);
    calls.push(now);
    this.recent.set(userId, calls);
    if (this.recent.size > SWEEP_AT) for (const [id, times] of this.recent) if (times.every((t) => now - t >= WINDOW_MS)) this.recent.delete(id);
  }
}
