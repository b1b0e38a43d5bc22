import type { ServerConfig } from './infra/config';
import type { Db } from './infra/db';
import type { CallRouter } from './infra/http';
import type { JobQueue } from './infra/queue';
import type { Sessions } from './infra/sessions';
import type { Storage } from './infra/storage';
import type { ObjectUrls } from './infra/object-urls';
import type { SettingsRepository } from './features/site/settings.repository';
import type { SpeechService } from './features/voice/speech-service';

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
}
