/**
 * build(config) → a ready Fastify instance: database opened and migrated, job queue started
 * (and its workers when the role runs them), every contract call routed, the web app served.
 * Closing the instance stops the worker, then closes the database.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import compress from '@fastify/compress';
import { LIMITS, TOKEN_HEADER, OPERATOR_KEY_HEADER, assertCatalogueUnique } from '../src/contract';
import type { ServerConfig } from './infra/config';
import { openDb } from './infra/db';
import { migrate } from './infra/migrate';
import { CallRouter, contractClientErrorHandler, installErrorHandling } from './infra/http';
import { requestForLog } from './infra/logging';
import { Metrics, installRequestLog, registerOperations } from './infra/operations';
import { DEFAULT_QUEUE_TIMINGS, JobQueue } from './infra/queue';
import { Sessions } from './infra/sessions';
import { LocalDiskStorage } from './infra/storage';
import { dataSecret, lockDataDir, operatorKey } from './infra/data-dir';
import { ObjectUrls } from './infra/object-urls';
import { SettingsRepository } from './features/site';
import { SpeechService } from './features/voices';
import { FEATURES } from './features';
import { cleanStaleJobDirs } from './infra/work-dirs';
import { keepIdleLandmarkWorkers } from './engines/lipsync';
import { policyOfSite } from './infra/content-security';
import type { JobHandlers, JobName, JobRun } from './infra/queue';
import type { FeatureContext, FeatureModule } from './app-context';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: FeatureContext;
  }
}

export async function build(config: ServerConfig): Promise<FastifyInstance> {
  assertCatalogueUnique();
  const releaseLock = config.databaseUrl ? () => undefined : lockDataDir(config.dataDir);
  let db;
  try {
    db = await openDb(config);
  } catch (err) {
    releaseLock();
    throw err;
  }

  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: [`req.headers["${TOKEN_HEADER}"]`, `req.headers["${OPERATOR_KEY_HEADER}"]`],
      serializers: { req: requestForLog },
    },
    // Fastify's two lines per request at info cost most of a small call's time: one line at debug instead (operations.ts).
    logController: new LogController({ disableRequestLogging: true }),
    clientErrorHandler: contractClientErrorHandler,
    bodyLimit: LIMITS.envelopeMaxBodyBytes,
    trustProxy: false,
  });

  let metrics: Metrics | undefined;
  const queue = new JobQueue(
    db,
    {
      pollSeconds: config.jobPollSeconds, expireSeconds: config.jobExpireSeconds, retryDelaySeconds: config.jobRetryDelaySeconds,
      heartbeatSeconds: config.workerHeartbeatSeconds, stopGraceSeconds: config.jobStopSeconds ?? DEFAULT_QUEUE_TIMINGS.stopGraceSeconds,
    },
    {
      warn: (fields, message) => app.log.warn(fields, message),
      ran: (name, seconds, outcome) => metrics?.jobRan(name, seconds, outcome),
    },
  );
  metrics = new Metrics(db, queue);
  // The face-analysis workers are one pool per process, shared by every app in it.
  if (config.faceWorkersIdleSeconds !== undefined) keepIdleLandmarkWorkers(config.faceWorkersIdleSeconds);
  const speech = new SpeechService(db);
  app.addHook('onClose', async () => {
    await queue.stop();
    await speech.close();
    await db.close();
    releaseLock();
  });

  try {
    await migrate(db);
    await queue.start();
  } catch (err) {
    await app.close();
    throw err;
  }

  await app.register(formbody, { bodyLimit: LIMITS.envelopeMaxBodyBytes });
  // API replies above 1 KB go out compressed (brotli at a quick level, or gzip); built assets carry their own twins.
  // Request bodies are never compressed by our clients, so the per-request decompression hook stays off.
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], globalDecompression: false });
  installErrorHandling(app);
  installRequestLog(app, metrics);
  // Security headers on everything: API replies get them in sendResult, static files in setHeaders, the rest here.
  app.addHook('onRequest', (_req, reply, done) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    done();
  });

  const sessions = new Sessions(db);
  const router = new CallRouter(app, { authenticate: (t) => sessions.authenticate(t), operatorKey: operatorKey(config.dataDir) });
  // Set by the first onClose step (SIGTERM → app.close()): readiness answers 503 from then on.
  let shuttingDown = false;
  app.addHook('preClose', (done) => {
    shuttingDown = true;
    done();
  });
  // The S3 client takes a third of a second to load: only when a bucket is configured.
  const storage = config.s3 ? new (await import('./infra/storage-s3')).S3Storage(config.s3) : new LocalDiskStorage(path.join(config.dataDir, 'objects'));
  const ctx: FeatureContext = {
    config, db, router, queue, sessions,
    settings: new SettingsRepository(db),
    storage,
    urls: new ObjectUrls(dataSecret(config.dataDir, 'storage.key')),
    speech,
    app,
  };
  app.decorate('ctx', ctx);

  // Each feature registers through a router that refuses calls of another contract group: one name per feature.
  for (const feature of FEATURES) await feature.register({ ...ctx, router: router.forFeature(feature.name) });
  const key = operatorKey(config.dataDir);
  registerOperations({ app, router, db, role: config.role, metrics, operatorKey: key, storage, shuttingDown: () => shuttingDown });
  router.assertAllAnswered();

  if (config.runWorker) {
    cleanStaleJobDirs(config.dataDir);
    await queue.work(jobHandlers(FEATURES, ctx));
  }

  if (config.role !== 'worker' && config.webRoot && fs.existsSync(path.join(config.webRoot, 'index.html'))) {
    const policy = policyOfSite(await storage.browserOrigins());
    const noSettings = {};
    const webRoot = config.webRoot;
    await app.register(async (web) => {
      // The policy names the storage's origins and the hosts of the operator's site pictures (settings are cached).
      web.addHook('onSend', async (_request, reply) => {
        reply.header('content-security-policy', policy(await ctx.settings.all().catch(() => noSettings)));
      });
      await web.register(fastifyStatic, {
        root: webRoot,
        wildcard: true,
        // One route for the whole build, not two per file (1,000 files: half a CPU-second at every start); send() keeps
        // requests inside the root, and dotfiles are not the build's.
        dotfiles: 'ignore',
        preCompressed: true,
        setHeaders(reply, file) {
          // Hashed bundle files never change; index.html always revalidates.
          reply.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    });
  }

  await app.ready();
  return app;
}

/** Every feature's job handlers, bound to the context; a job name claimed by two features is a start-up error. */
export function jobHandlers(features: readonly FeatureModule[], ctx: FeatureContext): Partial<JobHandlers> {
  const handlers: Partial<Record<JobName, (payload: unknown, job: JobRun) => Promise<void>>> = {};
  for (const feature of features) {
    for (const [name, run] of Object.entries(feature.jobs ?? {}) as [JobName, (c: FeatureContext, p: unknown, j: JobRun) => Promise<void>][]) {
      if (handlers[name]) throw new Error(`job ${name} is handled by two features`);
      handlers[name] = (payload, job) => run(ctx, payload, job);
    }
  }
  return handlers as Partial<JobHandlers>;
}
