import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../contract';
import { CLIENT_TIMINGS_KEY, CLIENT_TIMING_NAMES, DEFAULT_CLIENT_TIMINGS, parseClientTimings } from './timings';

describe('client timings', () => {
  afterEach(() => {
    localStorage.clear();
    vi.resetModules();
  });

  it('are the contract\'s limits when nothing asks otherwise', () => {
    for (const name of CLIENT_TIMING_NAMES) expect(DEFAULT_CLIENT_TIMINGS[name]).toBe(LIMITS[name]);
    expect(DEFAULT_CLIENT_TIMINGS).toMatchObject({ submitThrottleMs: 1000, worksPollMs: 15_000, voicePollMs: 10_000 });
    expect(parseClientTimings(null)).toEqual(DEFAULT_CLIENT_TIMINGS);
    expect(parseClientTimings('')).toEqual(DEFAULT_CLIENT_TIMINGS);
  });

  it('take each valid override of a known timer and keep the rest', () => {
    expect(parseClientTimings(JSON.stringify({ submitThrottleMs: 50, worksPollMs: 800 }))).toEqual({ ...DEFAULT_CLIENT_TIMINGS, submitThrottleMs: 50, worksPollMs: 800 });
  });

  it('ignore junk: bad JSON, a non-object, unknown names, non-numbers, zero, negatives, infinities', () => {
    for (const raw of ['{', 'null', '42', '"fast"', '[1,2]', 'true']) expect(parseClientTimings(raw)).toEqual(DEFAULT_CLIENT_TIMINGS);
    const junk = { requestTimeoutMs: 1, toString: 5, voicePollMs: '500', worksPollMs: 0, submitThrottleMs: -1, auditionPollMs: null, generationPollMs: 1e400, cloneThrottleMs: 20 };
    expect(parseClientTimings(JSON.stringify(junk).replace('"generationPollMs":null', '"generationPollMs":1e400'))).toEqual({ ...DEFAULT_CLIENT_TIMINGS, cloneThrottleMs: 20 });
  });

  it('are read once, from localStorage, when the app starts', async () => {
    localStorage.setItem(CLIENT_TIMINGS_KEY, JSON.stringify({ worksPollMs: 300 }));
    const { TIMINGS } = await import('./timings');
    expect(TIMINGS).toEqual({ ...DEFAULT_CLIENT_TIMINGS, worksPollMs: 300 });
    localStorage.setItem(CLIENT_TIMINGS_KEY, JSON.stringify({ worksPollMs: 1 }));
    expect(TIMINGS.worksPollMs).toBe(300);
    expect(Object.isFrozen(TIMINGS)).toBe(true);
  });

  it('without the entry, the app runs on the product\'s timers', async () => {
    const { TIMINGS } = await import('./timings');
    expect(TIMINGS).toEqual(DEFAULT_CLIENT_TIMINGS);
  });
});
