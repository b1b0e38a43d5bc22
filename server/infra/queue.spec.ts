import { describe, expect, it } from 'vitest';
import { JOB_NAMES, JOB_RETRY_LIMIT, JobQueue, MissingJobHandlerError, WORKER_DEAD_BEATS, WORKER_FALLBACK_POLL_SECONDS, reportJobFailure, type JobHandlers, type JobRun } from './queue';
import type { Db } from './db';
import { DB_KINDS, useApp } from '../../tests/support/app';
import { until } from '../../tests/support/wait';

/** The heartbeat of the two queues of the dead-worker case. */
const BEAT_SECONDS = 2;

describe.each(DB_KINDS)('job queue on the same database (%s)', (kind) => {
  const t = useApp(kind);

  it('refuses to start workers when a job has no handler', async () => {
    await expect(t.app.ctx.queue.work({})).rejects.toThrow(MissingJobHandlerError);
    expect(JOB_NAMES.length).toBeGreaterThan(0);
  });

  it('runs the session sweep job: sessions that ended over a week ago are removed', async () => {
    await t.createUser('13500000000', 'abc123');
    const live = await t.login('13500000000', 'abc123');
    const old = await t.login('13500000000', 'abc123');
    const db = t.app.ctx.db;
    await db.query(`UPDATE sessions SET expires_at = now() - interval '8 days' WHERE id = (SELECT max(id) FROM sessions)`);
    expect(old.token).not.toBe(live.token);
    await t.app.ctx.queue.send('account-sweep', {});
    const deadline = Date.now() + 20_000;
    let count = 2;
    while (Date.now() < deadline) {
      count = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions')).rows[0]!.n;
      if (count === 1) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(count).toBe(1);
  });

  it("retries a job whose worker stopped beating (once more on its last attempt), and never a live worker's", { timeout: 120_000 }, async () => {
    const db = t.app.ctx.db;
    const noop = Object.fromEntries(JOB_NAMES.map((n) => [n, async () => undefined])) as unknown as JobHandlers;
    await t.withJobsPaused(async () => {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const runs: JobRun[] = [];
      // Beats every 2 s, dead after 9 s of silence: on a loaded machine a live worker's beat can be a few seconds late.
      const victim = new JobQueue(db, { pollSeconds: 0.5, heartbeatSeconds: BEAT_SECONDS, retryDelaySeconds: 0 });
      const rescuer = new JobQueue(db, { pollSeconds: 0.5, heartbeatSeconds: BEAT_SECONDS, retryDelaySeconds: 0 });
      try {
        await victim.start();
        await victim.work({ ...noop, 'account-sweep': async (_p, job) => (runs.push(job), held) });
        const id = await victim.send('account-sweep', {});
        await until(async () => runs.length, (n) => n === 1, 20_000);
        // A second worker beats beside the live one for several dead-worker spans: the running job stays its own.
        await rescuer.start();
        await rescuer.work({ ...noop, 'account-sweep': async (_p, job) => void runs.push(job) });
        await new Promise((r) => setTimeout(r, 1000 * BEAT_SECONDS * WORKER_DEAD_BEATS * 1.5));
        expect(runs).toHaveLength(1);
        // The job is on its last attempt when the victim falls silent (as a killed process does): the rescuer still
        // runs it once more, past the limit, so its handler's give-up path (mark failed, refund) can run.
        await db.query('UPDATE pgboss.job SET retry_count = $2 WHERE id = $1', [id, JOB_RETRY_LIMIT]);
        clearInterval((victim as unknown as { heartbeat: NodeJS.Timeout }).heartbeat);
        await until(async () => runs.length, (n) => n === 2, 60_000);
        expect(runs[1]).toMatchObject({ id, retryCount: JOB_RETRY_LIMIT + 1 });
      } finally {
        release();
        await victim.stop();
        await rescuer.stop();
      }
      expect((await db.query('SELECT 1 FROM queue_running')).rows).toEqual([]);
    });
  });
});

describe.each(DB_KINDS)('asking for jobs (%s)', (kind) => {
  // No workers of the app's own: the queues below are the only ones.
  const t = useApp(kind, { runWorker: false });

  it('asks once per poll for every job name, and wakes the worker of a job another process sent', { timeout: 60_000 }, async () => {
    const noop = Object.fromEntries(JOB_NAMES.map((n) => [n, async () => undefined])) as unknown as JobHandlers;
    let asked = 0;
    let counting = false;
    // The worker's database, counting its fetches of jobs (pg-boss's fetch locks the rows it takes).
    const db: Db = new Proxy(t.app.ctx.db, {
      get: (target, prop, receiver) =>
        prop === 'query'
          ? (sql: string, params?: unknown[]) => ((counting && /SKIP LOCKED/.test(sql) ? asked++ : 0), target.query(sql, params))
          : Reflect.get(target, prop, receiver),
    });
    const worker = new JobQueue(db, { pollSeconds: 0.2 });
    // A process that only sends (a web process): its send wakes no worker of the one above.
    const sender = new JobQueue(t.app.ctx.db, { pollSeconds: 0.2 });
    const ran: string[] = [];
    try {
      await worker.start();
      await worker.work({ ...noop, 'account-sweep': async (_p, job) => void ran.push(job.id) });
      await sender.start();
      // Idle: the workers started by asking once each; after that, no name's worker asks by itself before its fallback.
      await new Promise((r) => setTimeout(r, 500));
      counting = true;
      await new Promise((r) => setTimeout(r, 2000));
      expect(asked).toBe(0);
      // A job sent by the other process is found by the next poll and run at once, long before the fallback asks.
      const sentAt = Date.now();
      const id = await sender.send('account-sweep', {});
      await until(async () => ran, (list) => list.includes(id!), 20_000);
      expect(Date.now() - sentAt).toBeLessThan((WORKER_FALLBACK_POLL_SECONDS * 1000) / 2);
      expect(asked).toBeGreaterThanOrEqual(1);
    } finally {
      await worker.stop();
      await sender.stop();
    }
  });
});

describe.each(DB_KINDS)('job failures, retries and shutdown (%s)', (kind) => {
  // No workers of the app's own: this queue's handlers are the only ones.
  const t = useApp(kind, { runWorker: false });

  it('logs a retried and a recorded failure once each at warn, and hands a job still running at shutdown back unstarted, for good once its handler ends', async () => {
    const warnings: { fields: Record<string, unknown>; message: string }[] = [];
    // What reaches the database once the queue has stopped, each with its promise, to know when the last one is done.
    let stopped = false;
    const lateQueries: { sql: string; done: Promise<unknown> }[] = [];
    const watched: Db = {
      ...t.app.ctx.db,
      query<T>(sql: string, params?: unknown[]) {
        const done = t.app.ctx.db.query<T>(sql, params);
        if (stopped) lateQueries.push({ sql, done: done.catch(() => undefined) });
        return done;
      },
    };
    const queue = new JobQueue(watched, { pollSeconds: 0.5, expireSeconds: 600, stopGraceSeconds: 1 }, { warn: (fields, message) => warnings.push({ fields, message }) });
    let thrown = 0;
    let hung = false;
    let endHung: (err: Error) => void = () => undefined;
    const idle = async () => undefined;
    const handlers = Object.fromEntries(JOB_NAMES.map((n) => [n, idle])) as unknown as JobHandlers;
    handlers['avatars-clone'] = async () => {
      if (thrown++ === 0) throw new Error('磁盘暂时不可用');
    };
    handlers['voices-train'] = async () => reportJobFailure('样本太短', new Error('2.1 s'));
    handlers['voices-synthesize'] = () => {
      hung = true;
      return new Promise((_, reject) => (endHung = reject)); // ends only after shutdown: shutdown must not wait for it
    };
    await queue.start();
    await queue.work(handlers);
    const db = t.app.ctx.db;
    const state = async (id: string) => (await db.query<{ state: string; retry_count: number; started_on: Date | null }>('SELECT state::text AS state, retry_count, started_on FROM pgboss.job WHERE id = $1', [id])).rows[0]!;
    const until = async (check: () => Promise<boolean> | boolean) => {
      const deadline = Date.now() + 20_000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error('timed out');
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    const retried = (await queue.send('avatars-clone', { avatarId: 1 }, { retryDelay: 1, retryBackoff: false }))!;
    const recorded = (await queue.send('voices-train', { trainingId: 1 }))!;
    await until(async () => (await state(retried)).state === 'completed' && (await state(recorded)).state === 'completed');
    // Once each, in whichever order the two ran.
    expect([...warnings].sort((a, b) => String(a.fields.job).localeCompare(String(b.fields.job)))).toEqual([
      { message: 'job will be retried', fields: { job: 'avatars-clone', id: retried, attempt: 0, reason: '磁盘暂时不可用' } },
      { message: 'job failed', fields: { job: 'voices-train', id: recorded, attempt: 0, reason: '样本太短', cause: '2.1 s' } },
    ]);
    expect((await queue.latestFailures(5)).find((f) => f.id === recorded)).toMatchObject({ name: 'voices-train', state: 'failed', reason: '样本太短' });

    const running = (await queue.send('voices-synthesize', { jobId: 'x' }))!;
    await until(() => hung);
    warnings.length = 0;
    await queue.stop();
    expect(await state(running)).toEqual({ state: 'created', retry_count: 0, started_on: null });
    expect(warnings).toEqual([{ message: 'shutdown: running jobs handed back to the queue', fields: { jobs: [`voices-synthesize ${running}`], released: 1 } }]);
    // The handler ends after the grace (its database may be closed by now): pg-boss's record of that end must not
    // fail the job it no longer holds, nor reject unhandled.
    stopped = true;
    endHung(new Error('数据库已关闭'));
    // The run's own bookkeeping ends it; pg-boss records the end in the same chain of promises, before the next macrotask.
    await until(() => lateQueries.some((q) => q.sql.includes('DELETE FROM queue_running')));
    await Promise.all(lateQueries.map((q) => q.done));
    await new Promise((r) => setImmediate(r));
    expect(lateQueries.map((q) => q.sql).filter((sql) => sql.includes('pgboss.job'))).toEqual([]);
    expect(await state(running)).toEqual({ state: 'created', retry_count: 0, started_on: null });
  });
});
