/**
 * Remote lip-sync engines: a GPU server elsewhere (HeyGem / Duix.Avatar, ./heygem.ts) that takes the speech and the
 * avatar's normalized video by URL, renders, and is polled for the result. The works render job
 * (server/features/works/remote-render.ts) moves bytes in and out of storage.
 *
 * How the render job drives a remote engine (submit once, then poll by re-queueing itself, as the voice training
 * job `runTraining` in server/features/voices/voices.routes.ts does with Fish and MiniMax):
 * 1. First run: take a slot of the engine's concurrency limit (see `engineSlot`; HeyGem runs one job and refuses
 *    the rest). No slot: keep the work queued, show its queue position, `queue.send('works-render', …, {startAfter})`.
 * 2. With a slot: choose a task code (stable, e.g. `w{workId}-{submission}`), store it with the work, then
 *    `submit` absolute signed URLs of the speech audio and the avatar's normalized video. `busy` (someone else's job
 *    is on the server) releases the slot and re-queues with `startAfter`; `accepted` re-queues with `startAfter`.
 * 3. Later runs: `query(code)`. `running` stores the progress for the works card and re-queues. `done` first stores
 *    the result location with the work — HeyGem forgets a task once it has answered done or failed, so a crash
 *    after this answer must not lose it — then `fetchResult` into the work dir, probe, store, finish, release the
 *    slot. `failed` fails the work with the reason and refunds. `unknown` with a stored result location fetches
 *    it; otherwise the engine lost the job (restarted): submit again under a new code, a bounded number of times.
 * 4. A LipSyncEngineError that is not transient fails the work at once; a transient one lets the job retry
 *    (pg-boss retries), and the last attempt fails the work with the error's message. A poll count past the limit
 *    fails the work as timed out. Every failure releases the slot and refunds the reserved credits.
 */

/** An engine's answer the user may read (already user-facing Chinese). */
export class LipSyncEngineError extends Error {
  constructor(
    message: string,
    /** True when trying again later may succeed (engine down, timeouts, 5xx, garbled replies). */
    readonly transient = false,
    /** What the engine actually said, for the operator's log; never shown to users. */
    readonly detail = '',
  ) {
    super(message);
  }
}

/** What a remote engine is handed: its task code and URLs it can GET the inputs from. */
export interface RemoteLipSyncTask {
  /** Our id of this submission, the engine's handle on it (HeyGem's `code`); unique per submission. */
  code: string;
  /** Absolute URL of the speech audio (signed, reachable from the engine's host). */
  audioUrl: string;
  /** Absolute URL of the avatar's normalized video. */
  videoUrl: string;
}

export type RemoteSubmitOutcome =
  /** The engine took the job; poll `query(code)`. */
  | { state: 'accepted' }
  /** The engine is working on another job and dropped this one; submit again later. */
  | { state: 'busy' };

export type RemoteTaskState =
  | { state: 'running'; /** 0–100 */ progress: number }
  /** `result` is the engine's location of the video; hand it to `fetchResult` (store it first, see above). */
  | { state: 'done'; result: string }
  | { state: 'failed'; reason: string; detail: string }
  /** The engine does not know the code: never submitted, already answered, or lost in a restart. */
  | { state: 'unknown' };

/** An engine elsewhere: submit, then poll; results are fetched when done. */
export interface RemoteLipSyncEngine {
  readonly kind: 'remote';
  /** The engine's name, the key of its concurrency limit. */
  readonly name: string;
  submit(task: RemoteLipSyncTask): Promise<RemoteSubmitOutcome>;
  query(code: string): Promise<RemoteTaskState>;
  /** Streams the finished video to `output` (an mp4); answers its size in bytes. */
  fetchResult(result: string, output: string): Promise<{ bytes: number }>;
}

/** Jobs each remote engine runs at once unless its channel says otherwise (HeyGem processes one at a time). */
const DEFAULT_ENGINE_CONCURRENCY: Record<string, number> = { heygem: 1 };

/** Jobs the engine runs at once: the channel's `concurrency` setting, else the engine's default (1 for HeyGem). */
export function engineConcurrency(engine: string, config: Record<string, unknown> | null | undefined): number {
  const set = Number(config?.concurrency);
  return Number.isInteger(set) && set >= 1 ? set : (DEFAULT_ENGINE_CONCURRENCY[engine] ?? 1);
}

/**
 * Whether a waiting submission may go to its engine now, or its 1-based place in the line. `running` counts the
 * engine's submissions in flight, `ahead` those waiting longer than this one (first come, first served: a
 * newcomer never takes a free slot from an older waiter). A limit below 1 counts as 1. Counted under a lock of the engine's line
 * (`takeSlot` in server/features/works/remote-render.ts).
 */
export function engineSlot(limit: number, running: number, ahead: number): { start: true } | { start: false; position: number } {
  const free = Math.max(0, Math.max(1, Math.floor(limit) || 1) - running);
  return ahead < free ? { start: true } : { start: false, position: ahead - free + 1 };
}
