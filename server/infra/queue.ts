/**
 * Jobs on pg-boss, on the same database as everything else (PGlite or PostgreSQL).
 * Job names are a closed set with typed payloads; starting a worker without a handler for each fails.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import PgBoss from 'pg-boss';
import type { Db, Queryable } from './db';

export const JOB_NAMES = ['account-sweep', 'upload-sweep', 'voices-sweep', 'avatars-clone', 'works-render', 'voices-train', 'voices-synthesize', 'extraction-run', 'imagegen-run', 'chat-sweep', 'videogen-run', 'translation-run', 'dubbing-run', 'copywrite-read', 'music-generate', 'bot-sweep', 'replica-analyse', 'oneclick-render', 'helper-run', 'openapi-webhook', 'openapi-sweep'] as const;
export type JobName = (typeof JOB_NAMES)[number];

export interface JobPayloads {
  'account-sweep': Record<string, never>;
  'upload-sweep': Record<string, never>;
  /** Auditions older than a day, unless a queued work still needs one. */
  'voices-sweep': Record<string, never>;
  'avatars-clone': { avatarId: number };
  /** `step`: a work on a remote lip-sync engine re-queues itself with the next step while it waits or runs there. */
  'works-render': { workId: number; step?: number };
  /** Starts a voice training, or asks its provider again (re-queued with startAfter while it trains). */
  'voices-train': { trainingId: number };
  'voices-synthesize': { jobId: string };
  /** Parses, downloads and probes one extraction record (video or audio). */
  'extraction-run': { extractionId: number };
  /** A video translation's pipeline (resumes from the steps its record keeps). */
  'translation-run': { translationId: number };
  /** Asks the image engine for a text-to-image record's pictures and stores them (or refunds). */
  'imagegen-run': { recordId: number };
  /** Copy-chat answers a dead process left streaming: closed and refunded. */
  'chat-sweep': Record<string, never>;
  /** Renders a video generation (offline engine), or submits it to its provider and asks again (re-queued with startAfter). */
  'videogen-run': { recordId: number };
  /** Speaks a dub's lines, joins them with their pauses (and background music), and keeps the mp3 and its SRT. */
  'dubbing-run': { dubbingId: number };
  /** Reads a copy record's video: the speech when a recognition engine is set, else the captions on screen. */
  'copywrite-read': { copyId: number };
  /** Writes a song's lyrics when it has none, has the music engine make it, and stores the result (or refunds). */
  'music-generate': { musicId: number };
  /** Super-employee answers a dead process left streaming: closed and refunded. */
  'bot-sweep': Record<string, never>;
  /** Reads a viral video's copy as copy extraction does, then has the chat engine analyse its structure (or refunds). */
  'replica-analyse': { videoId: number };
  /** Renders a one-click work: one speech track, avatar and B-roll scenes, captions, music (or refunds). */
  'oneclick-render': { workId: number; step?: number };
  /** Runs a confirmed background task of the 超级助手, item after item, as its user. */
  'helper-run': { planId: number };
  /** A work an API key submitted: watched until it ends, then its webhook delivered (deliveryId set) and retried with backoff. */
  'openapi-webhook': { keyId: number; kind: 'work' | 'dubbing'; objectId: number; deliveryId?: number };
  /** Idempotency keys' answers older than a day: a retry comes within minutes, not days. */
  'openapi-sweep': Record<string, never>;
}

/** What a handler knows of the job it runs: its id and how many attempts came before. */
export interface JobRun {
  id: string;
  retryCount: number;
}

export type JobHandler<N extends JobName> = (payload: JobPayloads[N], job: JobRun) => Promise<void>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

/** Recurring jobs: cron in UTC. */
const SCHEDULES: Partial<Record<JobName, string>> = { 'account-sweep': '17 * * * *', 'upload-sweep': '*/10 * * * *', 'voices-sweep': '*/10 * * * *', 'chat-sweep': '*/5 * * * *', 'bot-sweep': '*/5 * * * *', 'openapi-sweep': '41 * * * *' };

export class MissingJobHandlerError extends Error {}

/**
 * Attempts after the first; a handler sees `retryCount` and gives up for good on the last one (`retryCount >= JOB_RETRY_LIMIT`:
 * one more run past it follows a last attempt whose worker died).
 */
export const JOB_RETRY_LIMIT = 3;

/**
 * pg-boss speaks to any database through `executeSql`; PGlite needs multi-statement SQL sent through exec.
 * Once the queue has stopped, nothing pg-boss sends reaches the database. A handler that outlived the shutdown grace
 * still ends later, and pg-boss then completes or fails its job without awaiting it: on a job already handed back
 * (it would spend an attempt), on a database perhaps closed (an unhandled rejection). Those statements count the
 * jobs they changed: none.
 */
function bossDb(db: Db, stopped: () => boolean): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (stopped()) return { rows: /count\(\*\)/i.test(text) ? [{ count: 0 }] : [] };
      if (db.kind === 'pglite' && (!values || values.length === 0) && text.includes(';')) {
        await db.exec(text);
        return { rows: [] };
      }
      return db.query(text, values ?? []);
    },
  };
}

/** Where the queue reports: failures and retries at warn, and each run's duration for the metrics. */
export interface QueueObserver {
  warn(fields: Record<string, unknown>, message: string): void;
  ran?(name: JobName, seconds: number, outcome: 'done' | 'error'): void;
}

const consoleObserver: QueueObserver = { warn: (fields, message) => console.warn(`[queue] ${message}`, fields) };

/** The job this async context runs, so a handler that records a failure itself can have it logged once. */
interface RunningJob {
  name: JobName;
  id: string;
  attempt: number;
  reported: boolean;
  /** The reason a handler recorded with reportJobFailure, kept as the job's output for `npm run admin -- jobs`. */
  failure?: string;
  observer: QueueObserver;
}
const running = new AsyncLocalStorage<RunningJob>();

/** What a job that ended as failed without throwing leaves in pg-boss's output column. */
type JobOutput = { failed: string };

/**
 * A handler that ends its job as failed without throwing (the work, voice or avatar records the reason) says so
 * here: logged once at warn with the job's name and id. Outside a job it does nothing.
 */
export function reportJobFailure(reason: string, cause?: unknown): void {
  const job = running.getStore();
  if (!job || job.reported) return;
  job.reported = true;
  job.failure = reason;
  const detail = cause === undefined ? {} : { cause: cause instanceof Error ? cause.message : String(cause) };
  job.observer.warn({ job: job.name, id: job.id, attempt: job.attempt, reason, ...detail }, 'job failed');
}

export interface SendOptions extends PgBoss.SendOptions {
  /** How long this job's handler may legitimately run (the queue's default allowance is used when longer). */
  runsUpToSeconds?: number;
}

export interface QueueTimings {
  /**
   * How often the process asks once, for every job name, whether a job is ready, and wakes the worker of each name
   * that has one. The workers' own asking (one query per name) is only a fallback, every WORKER_FALLBACK_POLL_SECONDS.
   */
  pollSeconds: number;
  /** A job still active after this (or its own longer allowance) is taken for stuck and retried. */
  expireSeconds: number;
  /** The first retry's delay; each later one doubles it (pg-boss backoff, with jitter). */
  retryDelaySeconds: number;
  /** How often a worker process says it is alive; one silent for WORKER_DEAD_BEATS beats is dead and its jobs retried. */
  heartbeatSeconds: number;
  /** At shutdown, running jobs get this long to finish before they are handed back to the queue. */
  stopGraceSeconds: number;
}

export const DEFAULT_QUEUE_TIMINGS: QueueTimings = { pollSeconds: 1, expireSeconds: 15 * 60, retryDelaySeconds: 2, heartbeatSeconds: 10, stopGraceSeconds: 20 };
/** Missed beats before a worker is taken for dead: generous, since a job run twice costs more than a late retry. */
export const WORKER_DEAD_BEATS = 4.5;
/**
 * How often each name's worker asks for jobs by itself. Asking for all 21 names every second cost an idle embedded
 * server 5% of a core; one query for all of them (see `dispatch`) costs a fraction of that, and wakes them as promptly.
 */
export const WORKER_FALLBACK_POLL_SECONDS = 30;

export class JobQueue {
  private boss: PgBoss;
  private started = false;
  /** Set once stop() has handed running jobs back; cleared by start(). */
  private stopped = false;
  /** This process's worker of each job name, to wake when a job is sent. */
  private readonly workers = new Map<JobName, string>();
  /** Jobs this process's handlers are running now (id → name), to release at shutdown. */
  private readonly active = new Map<string, JobName>();
  private readonly timings: QueueTimings;
  /** This process as a worker, once it works (see queue_workers). */
  private readonly workerId = randomUUID();
  private heartbeat: NodeJS.Timeout | undefined;
  private dispatcher: NodeJS.Timeout | undefined;
  private dispatching = false;
  /** The poll's text for this process's job names (see `dispatch`), written once its workers have started. */
  private readyQuery = '';

  constructor(
    private readonly db: Db,
    timings: Partial<QueueTimings> = {},
    private readonly observer: QueueObserver = consoleObserver,
  ) {
    this.timings = { ...DEFAULT_QUEUE_TIMINGS, ...timings };
    const { expireSeconds } = this.timings;
    // Expired jobs (their worker hung) are found by maintenance, so it runs often enough to retry them promptly.
    const maintenanceIntervalSeconds = Math.max(1, Math.min(120, Math.floor(expireSeconds / 2)));
    this.boss = new PgBoss({ db: bossDb(db, () => this.stopped), schema: 'pgboss', supervise: true, schedule: true, migrate: true, maintenanceIntervalSeconds, monitorStateIntervalSeconds: maintenanceIntervalSeconds });
    this.boss.on('error', (err) => console.error('[queue]', err.message));
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.boss.start();
    for (const name of JOB_NAMES) await this.boss.createQueue(name);
    this.started = true;
  }

  /**
   * Queues a job; given a transaction, the job is queued only if that transaction commits. A worker of this
   * process is woken for it at once (after the commit), instead of at its next poll.
   */
  async send<N extends JobName>(name: N, payload: JobPayloads[N], options: SendOptions = {}, tx?: Queryable): Promise<string | null> {
    const db = tx ? { executeSql: (text: string, values?: unknown[]) => tx.query(text, values ?? []) } : undefined;
    const { runsUpToSeconds, ...bossOptions } = options;
    // pg-boss starts an expired job again even while its first handler still runs: a long job's allowance grows.
    const expireInSeconds = Math.max(this.timings.expireSeconds, Math.ceil(runsUpToSeconds ?? 0));
    const id = await this.boss.send(name, payload as object, {
      retryLimit: JOB_RETRY_LIMIT, retryDelay: this.timings.retryDelaySeconds, retryBackoff: this.timings.retryDelaySeconds > 0, expireInSeconds,
      ...bossOptions, ...(db ? { db } : {}),
    });
    if (!options.startAfter) {
      const wake = () => this.wake(name);
      if (tx?.afterCommit) tx.afterCommit(wake);
      else wake();
    }
    return id;
  }

  private wake(name: JobName): void {
    const worker = this.workers.get(name);
    if (worker && this.started) this.boss.notifyWorker(worker);
  }

  /** Starts workers; throws when a job name lacks a handler, so a missing one is found at start-up. */
  async work(handlers: Partial<JobHandlers>): Promise<void> {
    const missing = JOB_NAMES.filter((n) => typeof handlers[n] !== 'function');
    if (missing.length) throw new MissingJobHandlerError(`no handler for job(s): ${missing.join(', ')}`);
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat().catch((err) => console.error('[queue] heartbeat:', (err as Error).message)), this.timings.heartbeatSeconds * 1000);
    this.heartbeat.unref();
    for (const name of JOB_NAMES) {
      const handler = handlers[name] as JobHandler<typeof name>;
      // includeMetadata: without it pg-boss hands over no retryCount, and no handler would ever see its last attempt.
      const pollingIntervalSeconds = Math.max(WORKER_FALLBACK_POLL_SECONDS, this.timings.pollSeconds);
      const worker = await this.boss.work<JobPayloads[typeof name]>(name, { pollingIntervalSeconds, includeMetadata: true }, async (jobs) => {
        let output: JobOutput | undefined;
        for (const job of jobs) output = await this.run(name, handler, job.data, { id: job.id, retryCount: (job as { retryCount?: number }).retryCount ?? 0 });
        return output; // pg-boss keeps it as the job's output (one job a fetch)
      });
      this.workers.set(name, worker);
      const cron = SCHEDULES[name];
      if (cron) await this.boss.schedule(name, cron, {});
    }
    // The names are this process's own job names, written into the text so that it takes no parameters and is
    // prepared once (Db.repeated).
    const names = [...this.workers.keys()].map((name) => `'${name.replaceAll("'", "''")}'`).join(', ');
    this.readyQuery = `SELECT DISTINCT name FROM pgboss.job WHERE name = ANY(ARRAY[${names}]::text[]) AND state < 'active' AND start_after < now()`;
    this.dispatcher = setInterval(() => void this.dispatch(), this.timings.pollSeconds * 1000);
    this.dispatcher.unref();
  }

  /**
   * One query for every name: which have a job ready to start (pg-boss's own fetch condition)? Their workers are woken
   * and fetch it at once; a busy worker fetches again as soon as its job ends. Another process's jobs (a web process
   * sends, a worker process runs) and retries due now are found here too.
   */
  private async dispatch(): Promise<void> {
    if (this.dispatching || !this.started || !this.readyQuery) return;
    this.dispatching = true;
    try {
      const { rows } = await this.db.repeated<{ name: JobName }>(this.readyQuery);
      for (const { name } of rows) this.wake(name);
    } catch (err) {
      console.error('[queue] dispatch:', (err as Error).message);
    } finally {
      this.dispatching = false;
    }
  }

  /** One run of a handler: timed, and a thrown error logged once at warn (pg-boss retries it, or fails it on the last attempt). */
  private async run<N extends JobName>(name: N, handler: JobHandler<N>, payload: JobPayloads[N], job: JobRun): Promise<JobOutput | undefined> {
    const state: RunningJob = { name, id: job.id, attempt: job.retryCount, reported: false, observer: this.observer };
    const start = performance.now();
    this.active.set(job.id, name);
    try {
      // A later attempt on another worker takes the row over, so only a dead worker's own attempt is ever failed.
      await this.db.query(
        `INSERT INTO queue_running (job_id, name, worker_id) VALUES ($1, $2, $3)
         ON CONFLICT (job_id) DO UPDATE SET worker_id = EXCLUDED.worker_id, started_at = now()`,
        [job.id, name, this.workerId],
      );
      await running.run(state, () => handler(payload, job));
      this.observer.ran?.(name, (performance.now() - start) / 1000, 'done');
      return state.failure === undefined ? undefined : { failed: state.failure };
    } catch (err) {
      this.observer.ran?.(name, (performance.now() - start) / 1000, 'error');
      if (!state.reported) {
        const retried = job.retryCount < JOB_RETRY_LIMIT;
        this.observer.warn({ job: name, id: job.id, attempt: job.retryCount, reason: err instanceof Error ? err.message : String(err) }, retried ? 'job will be retried' : 'job failed');
      }
      throw err;
    } finally {
      this.active.delete(job.id);
      await this.db.query('DELETE FROM queue_running WHERE job_id = $1 AND worker_id = $2', [job.id, this.workerId]).catch(() => undefined);
    }
  }

  /**
   * Says this worker lives, then retries the jobs of workers that stopped beating (killed, their machine gone): pg-boss
   * alone would wait out each job's whole allowance. Any live worker may do it; the DELETE hands each job to one.
   */
  private async beat(): Promise<void> {
    await this.db.query(
      `INSERT INTO queue_workers (id, pid, host) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET beat_at = now()`,
      [this.workerId, process.pid, os.hostname()],
    );
    const deadAfter = this.timings.heartbeatSeconds * WORKER_DEAD_BEATS;
    const orphans = await this.db.query<{ job_id: string; name: JobName; worker_id: string }>(
      `DELETE FROM queue_running r
        WHERE NOT EXISTS (SELECT 1 FROM queue_workers w WHERE w.id = r.worker_id AND w.beat_at > now() - make_interval(secs => $1))
        RETURNING r.job_id, r.name, r.worker_id`,
      [deadAfter],
    );
    for (const orphan of orphans.rows) {
      const job = await this.boss.getJobById(orphan.name, orphan.job_id);
      if (job?.state !== 'active') continue;
      // A last attempt that died with its worker never reached its handler's give-up path (mark failed, refund): it gets
      // one more run, past the limit, where any failure is final. Once only, so a job that kills every worker ends.
      const lastAttempt = job.retryCount >= job.retryLimit && job.retryLimit === JOB_RETRY_LIMIT;
      if (lastAttempt) await this.db.query('UPDATE pgboss.job SET retry_limit = $3 WHERE name = $1 AND id = $2', [orphan.name, orphan.job_id, JOB_RETRY_LIMIT + 1]);
      this.observer.warn({ job: orphan.name, id: orphan.job_id, worker: orphan.worker_id, lastAttempt }, 'its worker stopped beating: retrying the job');
      await this.boss.fail(orphan.name, orphan.job_id, { message: 'worker died' });
    }
    await this.db.query('DELETE FROM queue_workers WHERE beat_at < now() - make_interval(secs => $1)', [deadAfter]);
  }

  /**
   * Stops fetching, lets running jobs finish for the grace period, then hands the rest back: pg-boss fails them
   * (which would spend an attempt, or end a job on its last one), so they are put back as not yet started, to run
   * again at once in another worker (handlers are idempotent).
   */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    clearInterval(this.dispatcher);
    this.dispatcher = undefined;
    await this.boss.stop({ graceful: true, wait: true, timeout: this.timings.stopGraceSeconds * 1000, close: false });
    this.stopped = true;
    // Gone from the live workers: anything of ours still marked running is retried by the others.
    await this.db.query('DELETE FROM queue_workers WHERE id = $1', [this.workerId]).catch(() => undefined);
    const abandoned = [...this.active.keys()];
    if (abandoned.length === 0) return;
    const { rowCount } = await this.db.query(
      `UPDATE pgboss.job SET state = 'created', started_on = NULL, start_after = now(), completed_on = NULL, output = NULL
        WHERE id = ANY($1::uuid[]) AND state IN ('retry', 'failed')`,
      [abandoned],
    );
    this.observer.warn({ jobs: abandoned.map((id) => `${this.active.get(id)} ${id}`), released: rowCount }, 'shutdown: running jobs handed back to the queue');
  }

  /** How many jobs there are of each name in each state (for the metrics and `npm run admin -- jobs`). */
  async counts(): Promise<{ name: string; state: string; n: number }[]> {
    const { rows } = await this.db.query<{ name: string; state: string; n: number }>(
      `SELECT name, state::text AS state, count(*)::int AS n FROM pgboss.job GROUP BY name, state ORDER BY name, state`,
    );
    return rows;
  }

  /**
   * The latest failed runs: thrown errors (state retry: will run again; failed: gave up) with pg-boss's recorded
   * message, and jobs that ended by recording a failure (reportJobFailure; state completed, shown as failed).
   */
  async latestFailures(limit: number): Promise<{ id: string; name: string; state: string; attempt: number; at: string; reason: string }[]> {
    const { rows } = await this.db.query<{ id: string; name: string; state: string; attempt: number; at: Date | string; reason: string | null }>(
      `SELECT id::text AS id, name, CASE WHEN state = 'completed' THEN 'failed' ELSE state::text END AS state, retry_count AS attempt,
              coalesce(completed_on, started_on, created_on) AS at,
              coalesce(output->>'failed', output->>'message', output->'value'->>'message', output::text) AS reason
         FROM pgboss.job
        WHERE (state IN ('failed', 'retry') AND output IS NOT NULL) OR (state = 'completed' AND output->>'failed' IS NOT NULL)
        ORDER BY coalesce(completed_on, started_on, created_on) DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString(), reason: r.reason ?? '' }));
  }
}
