import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from './infra/config';
import type { Db } from './infra/db';
import type { CallRouter } from './infra/http';
import type { JobName, JobPayloads, JobQueue, JobRun } from './infra/queue';
import type { Sessions } from './infra/sessions';
import type { Storage } from './infra/storage';
import type { ObjectUrls } from './infra/object-urls';
import type { SettingsRepository } from './features/site';
import type { SpeechService } from './features/voices';

/** What every feature's routes and jobs get: one place that wires the server together. */
export interface FeatureContext {
  config: ServerConfig;
  db: Db;
  router: CallRouter;
  queue: JobQueue;
  sessions: Sessions;
  settings: SettingsRepository;
  storage: Storage;
  urls: ObjectUrls;
  /** Voices a user may speak with, and synthesis through their channel's engine. */
  speech: SpeechService;
  /** The Fastify instance, for the few routes that are not contract calls (the storage host, uploads). */
  app: FastifyInstance;
}

/** A job handler of a feature: it gets the context, the job's payload and its attempt. */
export type FeatureJob<N extends JobName> = (ctx: FeatureContext, payload: JobPayloads[N], job: JobRun) => Promise<void>;

/**
 * The server's counterpart of a client plugin: a feature registers its calls and handles its jobs.
 * `server/features/index.ts` lists them; app.ts only iterates that list.
 */
export interface FeatureModule {
  name: string;
  /** Awaited in turn at start-up (a feature may register Fastify plugins of its own). */
  register(ctx: FeatureContext): void | Promise<void>;
  jobs?: { [N in JobName]?: FeatureJob<N> };
}

/** Identity, for type inference of the job map. */
export const defineFeature = (module: FeatureModule): FeatureModule => module;
