import type { FastifyInstance } from 'fastify';
import type { OperatorSetting, SiteInfo } from '../src/contract';
import type { EngineVoice, SpeechChannel, SpeechEngine, SpeechParams, SpokenStretch } from './engines/speech';
import type { ServerConfig } from './infra/config';
import type { Db, Queryable } from './infra/db';
import type { FeatureRouter } from './infra/http';
import type { JobName, JobPayloads, JobQueue, JobRun } from './infra/queue';
import type { Sessions } from './infra/sessions';
import type { Storage } from './infra/storage';
import type { ObjectUrls } from './infra/object-urls';

/*
 * What two features serve every other through the context. They are declared here and implemented there (the site
 * feature's SettingsRepository, the voices feature's SpeechService), so this file, which every feature imports,
 * imports no feature.
 */

/** The operator's settings, read through a short cache. */
export interface SiteSettings {
  all(): Promise<Record<string, string>>;
  /** The site's public fields, as the site call answers them. */
  siteInfo(): Promise<SiteInfo>;
  /** A numeric setting (0 when unset or not a number). */
  operatorNumber(key: OperatorSetting): Promise<number>;
  /** Writes the settings; answers their keys. */
  set(settings: Record<string, string>): Promise<string[]>;
  /** Marks `key` done (its value the time) unless it already is; true for the one caller that marked it. */
  claim(key: string): Promise<boolean>;
}

/** A voice someone may speak with: its channel, its saved speed, volume and pitch, and its engine's handle on it. */
export interface SpeakableVoice {
  id: number;
  api: string;
  rate: number;
  volume: number;
  pitch: number;
  engine_voice: EngineVoice | null;
}

/** Voices a user may speak with, and synthesis through their channel's engine. */
export interface Speech {
  /** A voice the user may speak with (their own or a public one), trained; else an ApiError with the spec's message. */
  usableVoice(q: Queryable, id: number, userId: number): Promise<SpeakableVoice>;
  /** The same, for a job: undefined when the voice is gone or no longer usable. */
  readyVoice(id: number | null, userId: number): Promise<SpeakableVoice | undefined>;
  /** A voice channel and the engine that works for it (refused with a readable SpeechEngineError). */
  channelEngine(api: string): Promise<{ channel: SpeechChannel; engine: SpeechEngine }>;
  /** Speaks a script with the voice's engine into an mp3 at `output`; answers where its stretches landed (timed text). */
  synthesize(voice: SpeakableVoice, text: string, params: SpeechParams, output: string): Promise<SpokenStretch[]>;
  /** The engine of any voice channel. */
  readonly engines: { for(channel: SpeechChannel | undefined): SpeechEngine };
}

/** What every feature's routes and jobs get: one place that wires the server together. */
export interface FeatureContext {
  config: ServerConfig;
  db: Db;
  /** In a feature's `register`: the router that takes only that feature's calls (CallRouter.forFeature). */
  router: FeatureRouter;
  queue: JobQueue;
  sessions: Sessions;
  settings: SiteSettings;
  storage: Storage;
  urls: ObjectUrls;
  speech: Speech;
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
