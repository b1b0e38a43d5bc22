/**
 * Jobs on pg-boss, on the same database as everything else (PGlite or PostgreSQL).
 * Job names are a closed set with typed payloads; starting a worker without a handler for each fails.
 */
import PgBoss from 'pg-boss';
import type { Db, Queryable } from './db';

export const JOB_NAMES = ['session-sweep', 'upload-sweep', 'audition-sweep', 'avatar-clone', 'work-render', 'voice-train', 'speech-synthesize', 'video-generate'] as const;
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
  /** Renders a video generation (offline engine), or submits it to its provider and asks again (re-queued with startAfter). */
  'video-generate': { recordId: number };
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

export class JobQueue {
  private boss: PgBoss;
  private started = false;
  /** This process's worker of each job name, to wake when a job is sent. */
  private readonly workers = new Map<JobName, string>();

  constructor(
    db: Db,
    private readonly pollSeconds = 1,
    /** A job whose worker died is retried once this has passed. */
    private readonly expireSeconds = 15 * 60,
  ) {
    // Expired jobs (their worker died) are found by maintenance, so it runs often enough to retry them promptly.
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
    const expireInSeconds = Math.max(this.expireSeconds, Math.ceil(runsUpToSeconds ?? 0));
    const id = await this.boss.send(name, payload as object, {
      retryLimit: JOB_RETRY_LIMIT, retryDelay: 2, retryBackoff: true, expireInSeconds, ...bossOptions, ...(db ? { db } : {}),
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
    for (const name of JOB_NAMES) {
      const handler = handlers[name] as JobHandler<typeof name>;
      // includeMetadata: without it pg-boss hands over no retryCount, and no handler would ever see its last attempt.
      const worker = await this.boss.work<JobPayloads[typeof name]>(name, { pollingIntervalSeconds: this.pollSeconds, includeMetadata: true }, async (jobs) => {
        for (const job of jobs) await handler(job.data, { id: job.id, retryCount: (job as { retryCount?: number }).retryCount ?? 0 });
      });
      this.workers.set(name, worker);
      const cron = SCHEDULES[name];
      if (cron) await this.boss.schedule(name, cron, {});
    }
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: 20_000, close: false });
  }
}
