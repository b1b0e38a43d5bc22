/**
 * The client's product timers (submit and clone throttles, list and job polling), in ms: the contract's LIMITS.
 * A test shortens them before the app starts by writing CLIENT_TIMINGS_KEY in localStorage (JSON: some of these
 * names, each a positive number of ms); it is read once, at start-up. Anything else in that entry (unknown names,
 * non-numbers, zero or less, bad JSON) is ignored, and with no entry every timer is the product's.
 */
import { LIMITS } from '../contract/limits';

export const CLIENT_TIMING_NAMES = ['submitThrottleMs', 'cloneThrottleMs', 'worksPollMs', 'voicePollMs', 'avatarPollMs', 'generationPollMs', 'extractionPollMs', 'auditionPollMs', 'chunkRetryMs'] as const;
export type ClientTimingName = (typeof CLIENT_TIMING_NAMES)[number];
export type ClientTimings = Readonly<Record<ClientTimingName, number>>;

/** The localStorage entry a test writes (the Storage service's `aisa.` prefix, key `timings`). */
export const CLIENT_TIMINGS_KEY = 'aisa.timings';

export const DEFAULT_CLIENT_TIMINGS: ClientTimings = Object.freeze(Object.fromEntries(CLIENT_TIMING_NAMES.map((name) => [name, LIMITS[name]])) as Record<ClientTimingName, number>);

/** The timings a stored entry asks for: the defaults, with each valid override of a known timer applied. */
export function parseClientTimings(raw: string | null | undefined): ClientTimings {
  if (!raw) return DEFAULT_CLIENT_TIMINGS;
  let asked: unknown;
  try {
    asked = JSON.parse(raw);
  } catch {
    return DEFAULT_CLIENT_TIMINGS;
  }
  if (typeof asked !== 'object' || asked === null || Array.isArray(asked)) return DEFAULT_CLIENT_TIMINGS;
  const timings: Record<ClientTimingName, number> = { ...DEFAULT_CLIENT_TIMINGS };
  for (const name of CLIENT_TIMING_NAMES) {
    const value = (asked as Record<string, unknown>)[name];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) timings[name] = value;
  }
  return Object.freeze(timings);
}

function storedEntry(): string | null {
  try {
    return globalThis.localStorage?.getItem(CLIENT_TIMINGS_KEY) ?? null;
  } catch {
    return null; // private mode or no storage: the product's timers
  }
}

/** The timers of this page, fixed at start-up. */
export const TIMINGS: ClientTimings = parseClientTimings(storedEntry());
