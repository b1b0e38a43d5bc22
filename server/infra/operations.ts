/**
 * What operators and their tools see of a running server: one log line per request (at debug), liveness and
 * readiness, and Prometheus metrics (prom-client) behind the operator key.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import { API, METRICS_PATH, MSG, OPERATOR_KEY_HEADER, ResultCode } from '../../src/contract';
import type { Db, Queryable } from './db';
import type { CallRouter } from './http';
import { keysEqual, sendResult } from './http';
import type { JobName, JobQueue, QueueObserver } from './queue';
import type { Storage } from './storage';
import { redactUrl } from './logging';

/** The ledger's sums since the start, by kind: what was granted, spent and given back. */
export class LedgerTotalsRepository {
  constructor(private readonly db: Queryable) {}

  async totals(): Promise<{ granted: number; spent: number; refunded: number }> {
    const { rows } = await this.db.query<{ granted: string; spent: string; refunded: string }>(
      `SELECT (SELECT coalesce(sum(amount), 0) FROM credit_batches)::text AS granted,
              (SELECT coalesce(sum(amount), 0) FROM credit_entries WHERE kind = 'spend')::text AS spent,
              (SELECT coalesce(sum(amount), 0) FROM credit_entries WHERE kind = 'refund')::text AS refunded`,
    );
    const row = rows[0]!;
    return { granted: Number(row.granted), spent: Number(row.spent), refunded: Number(row.refunded) };
  }
}

/** The registry of one server instance (tests build several in one process, so not prom-client's global one). */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'aisa_http_requests_total', help: 'Requests answered, by contract call (or route) and result code (or HTTP status where no call answered).',
    labelNames: ['call', 'code'] as const, registers: [this.registry],
  });
  private readonly jobRuns = new Histogram({
    name: 'aisa_job_run_seconds', help: 'Time a job handler ran, by job name and outcome (work-render: the render seconds).',
    labelNames: ['name', 'outcome'] as const, buckets: [0.05, 0.25, 1, 5, 15, 60, 300, 900, 3600], registers: [this.registry],
  });

  constructor(db: Db, queue: JobQueue) {
    collectDefaultMetrics({ register: this.registry, prefix: 'aisa_' });
    new Gauge({
      name: 'aisa_jobs', help: 'Jobs in the queue by name and state (pg-boss states: created, retry, active, completed, cancelled, failed).',
      labelNames: ['name', 'state'] as const, registers: [this.registry],
      async collect() {
        this.reset();
        for (const row of await queue.counts()) this.set({ name: row.name, state: row.state }, row.n);
      },
    });
    const ledger = new LedgerTotalsRepository(db);
    new Gauge({
      name: 'aisa_credits_ledger_total', help: 'Credits in the ledger since the start: granted (batches), spent and refunded (entries).',
      labelNames: ['kind'] as const, registers: [this.registry],
      async collect() {
        for (const [kind, n] of Object.entries(await ledger.totals())) this.set({ kind }, n);
      },
    });
  }

  request(call: string, code: string): void {
    this.requests.inc({ call, code });
  }

  readonly jobRan: NonNullable<QueueObserver['ran']> = (name: JobName, seconds, outcome) => this.jobRuns.observe({ name, outcome }, seconds);
}

export interface OperationsDeps {
  app: FastifyInstance;
  router: CallRouter;
  db: Db;
  role: string;
  metrics: Metrics;
  operatorKey: string;
  storage: Pick<Storage, 'ping'>;
  /** True once SIGTERM arrived: readiness turns 503 so a balancer stops sending. */
  shuttingDown(): boolean;
}

/**
 * One line per request at debug (call id, result code, status, time; the URL with its secrets redacted), and the
 * request counter. Fastify's own two lines per request at info are off (app.ts), since logging was most of the
 * time of a small call.
 */
export function installRequestLog(app: FastifyInstance, metrics: Metrics): void {
  app.decorateReply('resultCode', null);
  const logEach = app.log.level === 'debug' || app.log.level === 'trace';
  app.addHook('onResponse', (request, reply, done) => {
    const call = request.routeOptions.config?.call?.id ?? request.routeOptions.url ?? 'unmatched';
    const code = reply.resultCode === null ? `http_${reply.statusCode}` : String(reply.resultCode);
    metrics.request(call, code);
    if (logEach) {
      request.log.debug({ call, code, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10, method: request.method, url: redactUrl(request.url) }, 'request');
    }
    done();
  });
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** Live and ready beside /api/health (kept as it was), and /metrics. */
export function registerOperations(deps: OperationsDeps): void {
  const { app, router, db, role, metrics } = deps;
  const started = Date.now();

  router.handle(API.site.healthLive, async () => ({ status: 'live' as const, role, uptime_seconds: Math.round((Date.now() - started) / 1000) }));

  router.handledElsewhere(API.site.healthReady);
  app.get(API.site.healthReady.path, { config: { call: API.site.healthReady } }, async (_request, reply) => {
    const check = async (probe: () => Promise<unknown>) => {
      try {
        await probe();
        return { ok: true };
      } catch (err) {
        return { ok: false, error: errorText(err) };
      }
    };
    const [database, storage] = await Promise.all([check(() => db.query('SELECT 1')), check(() => deps.storage.ping())]);
    const shuttingDown = deps.shuttingDown();
    const ready = database.ok && storage.ok && !shuttingDown;
    const data = { status: ready ? 'ready' : 'not ready', role, database: { kind: db.kind, ...database }, storage, shutting_down: shuttingDown };
    return ready ? sendResult(reply, API.site.healthReady, ResultCode.Ok, MSG.ok, data) : sendResult(reply, API.site.healthReady, ResultCode.Error, MSG.serviceNotReady, data, 503);
  });

  app.get(METRICS_PATH, async (request, reply) => {
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const header = request.headers[OPERATOR_KEY_HEADER];
      const given = bearer ?? (typeof header === 'string' ? header : '');
    if (!given || !keysEqual(given, deps.operatorKey)) {
      return reply.status(401).header('www-authenticate', 'Bearer').type('text/plain; charset=utf-8').send('operator key required\n');
    }
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
