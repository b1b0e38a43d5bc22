/**
 * Jobs on pg-boss, on the same database as everything else (PGlite or PostgreSQL).
 * Job names are a closed set with typed payloads; starting a worker without a handler for each fails.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import PgBoss from 'pg-boss';
import type { Db, Queryable } from './db';

export const JOB_NAMES = ['session-sweep', 'upload-sweep', 'audition-sweep', 'avatar-clone', 'work-render', 'voice-train', 'speech-synthesize', 'extraction-run'] as const;
export type JobName = (typeof JOB_NAMES)[number];

export interface JobPayloads {
  'session-sweep': Record<string, never>;
  'upload-sweep': Record<string, never>;
  /** Auditions older than a day, unless a queued work still needs one. */
  'audition-sweep': Record<string, never>;
  'avatar-clone': { avatarId: number };
  /** `step`: a work on a remote lip-sync engine re-queues itself with the next step while it waits or runs there. */
  'work-render': { workId: number; step?: number };
  /** Starts a voice training, or asks its provider again (re-queued with startAfter while it trains). */
  'voice-train': { trainingId: number };
  'speech-synthesize': { jobId: string };
  /** Parses, downloads and probes one extraction record (video or audio). */
  'extraction-run': { analyseId: number };
}

/** What a handler knows of the job it runs: its id and how many attempts came before. */
export interface JobRun {
  id: string;
  retryCount: number;
}

export type JobHandler<N extends JobName> = (payload: JobPayloads[N], job: JobRun) => Promise<void>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

/** Recurring jobs: cron in UTC. */
const SCHEDULES: Partial<Record<JobName, string>> = { 'session-sweep': '17 * * * *', 'upload-sweep': '*/10 * * * *', 'audition-sweep': '*/10 * * * *' };

export class MissingJobHandlerError extends Error {}

/** Attempts after the first; a handler sees `retryCount` and gives up for good on the last one. */
export const JOB_RETRY_LIMIT = 3;

/** pg-boss speaks to any database through `executeSql`; PGlite needs multi-statement SQL sent through exec. */
function bossDb(db: Db): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (db.kind === 'pglite' && (!values || values.length === 0) && text.includes(';')) {
        await db.exec(text);
        return { rows: [] };
      }
      return db.query(text, values ?? []);
    },
  };
}

export interface SendOptions extends PgBoss.SendOptions {
  /** How long this job's handler may legitimately run (the queue's default allowance is used when longer). */
  runsUpToSeconds?: number;
}

export interface QueueTimings {
  /** How often an idle worker asks for jobs. */
  pollSeconds: number;
  /** A job still active after this (or its own longer allowance) is taken for stuck and retried. */
  expireSeconds: number;
  /** The first retry's delay; each later one doubles it (pg-boss backoff, with jitter). */
  retryDelaySeconds: number;
  /** How often a worker process says it is alive; one silent for WORKER_DEAD_BEATS beats is dead and its jobs retried. */
  heartbeatSeconds: number;
}

export const DEFAULT_QUEUE_TIMINGS: QueueTimings = { pollSeconds: 1, expireSeconds: 15 * 60, retryDelaySeconds: 2, heartbeatSeconds: 10 };
/** Missed beats before a worker is taken for dead: generous, since a job run twice costs more than a late retry. */
export const WORKER_DEAD_BEATS = 4.5;

export class JobQueue {
  private boss: PgBoss;
  private started = false;
  /** This process's worker of each job name, to wake when a job is sent. */
  private readonly workers = new Map<JobName, string>();
  private readonly timings: QueueTimings;
  /** This process as a worker, once it works (see queue_workers). */
  private readonly workerId = randomUUID();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    timings: Partial<QueueTimings> = {},
  ) {
    this.timings = { ...DEFAULT_QUEUE_TIMINGS, ...timings };
    const { expireSeconds } = this.timings;
    // Expired jobs (their worker hung) are found by maintenance, so it runs often enough to retry them promptly.
    const maintenanceIntervalSeconds = Math.max(1, Math.min(120, Math.floor(expireSeconds / 2)));
    this.boss = new PgBoss({ db: bossDb(db), schema: 'pgboss', supervise: true, schedule: true, migrate: true, maintenanceIntervalSeconds, monitorStateIntervalSeconds: maintenanceIntervalSeconds });
    this.boss.on('error', (err) => console.error('[queue]', err.message));
  }

  async start(): Promise<void> {
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
      const worker = await this.boss.work<JobPayloads[typeof name]>(name, { pollingIntervalSeconds: this.timings.pollSeconds, includeMetadata: true }, async (jobs) => {
        for (const job of jobs) {
          // A later attempt on another worker takes the row over, so only a dead worker's own attempt is ever failed.
          await this.db.query(
            `INSERT INTO queue_running (job_id, name, worker_id) VALUES ($1, $2, $3)
             ON CONFLICT (job_id) DO UPDATE SET worker_id = EXCLUDED.worker_id, started_at = now()`,
            [job.id, name, this.workerId],
          );
          try {
            await handler(job.data, { id: job.id, retryCount: (job as { retryCount?: number }).retryCount ?? 0 });
          } finally {
            await this.db.query('DELETE FROM queue_running WHERE job_id = $1 AND worker_id = $2', [job.id, this.workerId]);
          }
        }
      });
      this.workers.set(name, worker);
      const cron = SCHEDULES[name];
      if (cron) await this.boss.schedule(name, cron, {});
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
      console.warn(`[queue] ${orphan.name} ${orphan.job_id}: its worker ${orphan.worker_id} stopped beating; retrying it`);
      await this.boss.fail(orphan.name, orphan.job_id, { message: 'worker died' });
    }
    await this.db.query('DELETE FROM queue_workers WHERE beat_at < now() - make_interval(secs => $1)', [deadAfter]);
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    await this.boss.stop({ graceful: true, wait: true, timeout: 20_000, close: false });
    // Jobs a graceful stop left unfinished still carry this worker's rows: gone with it, they are retried by the others.
    await this.db.query('DELETE FROM queue_workers WHERE id = $1', [this.workerId]).catch(() => undefined);
  }
}
