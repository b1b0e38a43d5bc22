import path from 'node:path';
import { DEFAULT_QUEUE_TIMINGS } from './queue';
import type { S3Settings } from './storage-s3';

export type ProcessRole = 'all' | 'api' | 'worker';

export interface ServerConfig {
  host: string;
  port: number;
  /** Data directory: embedded database, objects, operator key. */
  dataDir: string;
  /** When set, PostgreSQL through node-postgres; otherwise the embedded PGlite under dataDir. */
  databaseUrl?: string;
  /**
   * Test only: instead of dataDir's embedded database, one held in memory, loaded from this dump of a migrated one
   * (a tar from PGlite's dumpDataDir). Nothing of it touches the disk: the in-process test servers skip copying and
   * removing the database files each. When the server stops, the database goes back to the process's spares in the
   * dump's state, for the next test server (infra/pglite-images.ts).
   */
  pgliteImage?: string;
  role: ProcessRole;
  logLevel: string;
  /** Built web app to serve; absent in tests that only talk to the API. */
  webRoot?: string;
  /** Start the job worker in this process (roles all and worker). */
  runWorker: boolean;
  /** Poll interval of the job worker, seconds (pg-boss minimum 0.5). */
  jobPollSeconds: number;
  /** A job running longer than this is taken for dead (its worker killed) and retried. */
  jobExpireSeconds: number;
  /** The first retry's delay of a failed job (JOB_RETRY_DELAY_SECONDS, whole seconds, 0 for at once); later ones double. */
  jobRetryDelaySeconds: number;
  /** How often a worker says it lives (WORKER_HEARTBEAT_SECONDS); a silent one's jobs are retried after 4.5 beats. */
  workerHeartbeatSeconds: number;
  /** At shutdown, running jobs may finish for this long; the rest go back to the queue (JOB_STOP_SECONDS). */
  jobStopSeconds?: number;
  /** How long the face-analysis workers stay once idle (FACE_WORKERS_IDLE_SECONDS, whole seconds; unset: the engine's 30). */
  faceWorkersIdleSeconds?: number;
  /**
   * The origin (scheme, host, port) at which other machines — a GPU lip-sync server — reach this server's signed
   * storage URLs (PUBLIC_URL). Unset: http://127.0.0.1:<the port this process listens on>.
   */
  publicUrl?: string;
  /**
   * Chat engine (polish, AI writing) from CHAT_BASE_URL, CHAT_API_KEY, CHAT_MODEL, CHAT_TIMEOUT_MS. A value set
   * here wins over the operator's chat_* setting; unset values fall back to the setting, then the engine's default.
   */
  chat?: ChatEnvConfig;
  /**
   * Test only: loopback ports the guarded fetcher of user-supplied links may reach (the tests' protocol peers).
   * Production never sets it (AISA_TEST_FETCH_LOOPBACK_PORTS), so every loopback address stays refused.
   */
  fetchLoopbackPorts?: number[];
  /**
   * The short side, px, of the frames this machine composes for a chosen aspect ratio (one-click creation, the offline
   * image-to-video engine), and the least a talking picture (pet and photo-speak works) is scaled up to:
   * RENDER_SHORT_SIDE, an even number from 240 to 1080, 720 when unset. A smaller machine renders faster at 480; the
   * tests render at 360, where the size is not what they check.
   */
  renderShortSide?: number;
  /** Video generation: how often a provider's task is asked about (seconds; tests shorten it). */
  videoGen?: { pollSeconds?: number };
  /** Voice cloning at a provider (Fish Audio): how often its training is asked about (seconds, VOICE_TRAINING_POLL_SECONDS; tests shorten it). */
  voiceTraining?: { pollSeconds?: number };
  /** A work on a remote lip-sync engine (HeyGem): its cadence and bounds, DEFAULT_REMOTE_RENDER where unset (tests shorten them). */
  remoteRender?: Partial<RemoteRenderTimings>;
  /** Object storage: S3-compatible with STORAGE=s3 (S3_* settings); otherwise local disk under dataDir/objects. */
  s3?: S3Settings;
  /**
   * A fresh install seeds a few offline public voices at its first start (SEED_PUBLIC_VOICES=off skips it: the test
   * servers, whose voice lists the tests arrange themselves).
   */
  seedPublicVoices?: boolean;
  /**
   * The public API (issue 34). `webhookLoopback` (WEBHOOK_ALLOW_LOOPBACK, off by default) lets a key's callback URL
   * be a plain-http loopback address, for a receiver on this machine; `watchSeconds`: how often a work a key
   * submitted is looked at for its webhook; `webhookRetrySeconds`: a failed delivery's first retry (doubling).
   */
  openApi?: { webhookLoopback?: boolean; watchSeconds?: number; webhookRetrySeconds?: number };
}

/** The render job's cadence on a remote lip-sync engine (seconds) and its bounds (server/features/works/remote-render.ts). */
export interface RemoteRenderTimings {
  /** Between queries of a submitted task (LIPSYNC_POLL_SECONDS). */
  pollSeconds: number;
  /** Between looks for a free slot while the work waits in our queue. */
  queueSeconds: number;
  /** After the engine answered busy (a job that is not ours occupies it). */
  busySeconds: number;
  /** How long a submitted task may keep answering "running" before the work fails as timed out. */
  timeoutSeconds: number;
  /** Times the engine may lose a task (a restart) before the work fails; each loss is submitted again. */
  maxLost: number;
}

export const DEFAULT_REMOTE_RENDER: RemoteRenderTimings = { pollSeconds: 2, queueSeconds: 2, busySeconds: 5, timeoutSeconds: 2 * 60 * 60, maxLost: 3 };

/** The remote render's timings: the config's, DEFAULT_REMOTE_RENDER for the rest. */
export const remoteRenderTimings = (config: ServerConfig): RemoteRenderTimings => ({ ...DEFAULT_REMOTE_RENDER, ...config.remoteRender });

export interface ChatEnvConfig {
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  /** The copy chat's r1 model (CHAT_REASONING_MODEL). */
  reasoningModel?: string;
  timeoutMs?: number;
}

const ROLES: ProcessRole[] = ['all', 'api', 'worker'];

export class ConfigError extends Error {}

/** Reads the environment: PORT, HOST, DATA_DIR, DATABASE_URL, ROLE, LOG_LEVEL, JOB_*, VIDEO_POLL_SECONDS, VOICE_TRAINING_POLL_SECONDS, LIPSYNC_POLL_SECONDS, RENDER_SHORT_SIDE, FACE_WORKERS_IDLE_SECONDS, PUBLIC_URL, CHAT_*, STORAGE and S3_*. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const role = (env.ROLE ?? 'all') as ProcessRole;
  if (!ROLES.includes(role)) throw new ConfigError(`ROLE must be one of ${ROLES.join(', ')}, got "${env.ROLE}"`);
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, got "${env.PORT}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (!databaseUrl && role !== 'all') {
    throw new ConfigError('The embedded database allows one process per data directory: ROLE=api and ROLE=worker need DATABASE_URL (PostgreSQL).');
  }
  const publicUrl = env.PUBLIC_URL?.trim().replace(/\/+$/, '') || undefined;
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#]+$/i.test(publicUrl)) {
    throw new ConfigError(`PUBLIC_URL must be an origin such as http://192.168.1.20:8080 (no path), got "${env.PUBLIC_URL}"`);
  }
  const videoPollSeconds = env.VIDEO_POLL_SECONDS ? Number(env.VIDEO_POLL_SECONDS) : undefined;
  if (videoPollSeconds !== undefined && !(videoPollSeconds > 0)) throw new ConfigError(`VIDEO_POLL_SECONDS must be a positive number, got "${env.VIDEO_POLL_SECONDS}"`);
  const trainingPollSeconds = env.VOICE_TRAINING_POLL_SECONDS ? Number(env.VOICE_TRAINING_POLL_SECONDS) : undefined;
  if (trainingPollSeconds !== undefined && !(trainingPollSeconds > 0)) throw new ConfigError(`VOICE_TRAINING_POLL_SECONDS must be a positive number, got "${env.VOICE_TRAINING_POLL_SECONDS}"`);
  const lipSyncPollSeconds = env.LIPSYNC_POLL_SECONDS ? Number(env.LIPSYNC_POLL_SECONDS) : undefined;
  if (lipSyncPollSeconds !== undefined && !(lipSyncPollSeconds > 0)) throw new ConfigError(`LIPSYNC_POLL_SECONDS must be a positive number, got "${env.LIPSYNC_POLL_SECONDS}"`);
  const renderShortSide = env.RENDER_SHORT_SIDE ? Number(env.RENDER_SHORT_SIDE) : undefined;
  if (renderShortSide !== undefined && !(Number.isInteger(renderShortSide) && renderShortSide % 2 === 0 && renderShortSide >= 240 && renderShortSide <= 1080)) {
    throw new ConfigError(`RENDER_SHORT_SIDE must be an even number of pixels from 240 to 1080, got "${env.RENDER_SHORT_SIDE}"`);
  }
  const chatTimeoutMs = env.CHAT_TIMEOUT_MS ? Number(env.CHAT_TIMEOUT_MS) : undefined;
  if (chatTimeoutMs !== undefined && !(chatTimeoutMs > 0)) throw new ConfigError(`CHAT_TIMEOUT_MS must be a positive number of milliseconds, got "${env.CHAT_TIMEOUT_MS}"`);
  return {
    host: env.HOST ?? '127.0.0.1',
    port,
    dataDir: path.resolve(cwd, env.DATA_DIR ?? 'data'),
    databaseUrl,
    role,
    logLevel: env.LOG_LEVEL ?? 'info',
    webRoot: path.resolve(cwd, env.WEB_ROOT ?? 'dist'),
    runWorker: role !== 'api',
    jobPollSeconds: Number(env.JOB_POLL_SECONDS ?? 2),
    jobExpireSeconds: Number(env.JOB_EXPIRE_SECONDS ?? 15 * 60),
    jobRetryDelaySeconds: wholeSeconds(env, 'JOB_RETRY_DELAY_SECONDS', DEFAULT_QUEUE_TIMINGS.retryDelaySeconds, 0),
    workerHeartbeatSeconds: wholeSeconds(env, 'WORKER_HEARTBEAT_SECONDS', DEFAULT_QUEUE_TIMINGS.heartbeatSeconds, 1),
    jobStopSeconds: wholeSeconds(env, 'JOB_STOP_SECONDS', DEFAULT_QUEUE_TIMINGS.stopGraceSeconds, 0),
    faceWorkersIdleSeconds: env.FACE_WORKERS_IDLE_SECONDS ? wholeSeconds(env, 'FACE_WORKERS_IDLE_SECONDS', 0, 1) : undefined,
    publicUrl,
    fetchLoopbackPorts: env.AISA_TEST_FETCH_LOOPBACK_PORTS ? env.AISA_TEST_FETCH_LOOPBACK_PORTS.split(',').map(Number).filter((p) => p > 0) : undefined,
    chat: {
      baseUrl: env.CHAT_BASE_URL || undefined,
      apiKey: env.CHAT_API_KEY || undefined,
      model: env.CHAT_MODEL || undefined,
      reasoningModel: env.CHAT_REASONING_MODEL || undefined,
      timeoutMs: chatTimeoutMs,
    },
    renderShortSide,
    videoGen: { pollSeconds: videoPollSeconds },
    voiceTraining: { pollSeconds: trainingPollSeconds },
    remoteRender: lipSyncPollSeconds === undefined ? undefined : { pollSeconds: lipSyncPollSeconds },
    s3: s3FromEnv(env),
    seedPublicVoices: onOff(env, 'SEED_PUBLIC_VOICES', true),
    openApi: { webhookLoopback: onOff(env, 'WEBHOOK_ALLOW_LOOPBACK', false) },
  };
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (!value) return fallback;
  if (['on', '1', 'true', 'yes'].includes(value)) return true;
  if (['off', '0', 'false', 'no'].includes(value)) return false;
  throw new ConfigError(`${name} must be on or off, got "${env[name]}"`);
}

/** STORAGE=s3 with S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, and S3_ENDPOINT / S3_FORCE_PATH_STYLE / S3_PUBLIC_URL. */
function s3FromEnv(env: NodeJS.ProcessEnv): S3Settings | undefined {
  const kind = env.STORAGE || 'local';
  if (kind === 'local') return undefined;
  if (kind !== 's3') throw new ConfigError(`STORAGE must be local or s3, got "${env.STORAGE}"`);
  const need = (name: string) => {
    const value = env[name]?.trim();
    if (!value) throw new ConfigError(`STORAGE=s3 needs ${name}`);
    return value;
  };
  const endpoint = env.S3_ENDPOINT?.trim().replace(/\/+$/, '') || undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/?#]+$/i.test(endpoint)) throw new ConfigError(`S3_ENDPOINT must be an origin such as https://oss-cn-hangzhou.aliyuncs.com, got "${env.S3_ENDPOINT}"`);
  const publicUrl = env.S3_PUBLIC_URL?.trim().replace(/\/+$/, '') || undefined;
  if (publicUrl !== undefined && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/i.test(publicUrl)) throw new ConfigError(`S3_PUBLIC_URL must be a URL such as https://cdn.example.com, got "${env.S3_PUBLIC_URL}"`);
  const pathStyle = (env.S3_FORCE_PATH_STYLE ?? '').trim().toLowerCase();
  if (!['', 'true', 'false', '1', '0'].includes(pathStyle)) throw new ConfigError(`S3_FORCE_PATH_STYLE must be true or false, got "${env.S3_FORCE_PATH_STYLE}"`);
  return {
    endpoint,
    bucket: need('S3_BUCKET'),
    region: env.S3_REGION?.trim() || 'us-east-1',
    accessKeyId: need('S3_ACCESS_KEY_ID'),
    secretAccessKey: need('S3_SECRET_ACCESS_KEY'),
    forcePathStyle: pathStyle === 'true' || pathStyle === '1',
    publicUrl,
  };
}

/** A whole number of seconds from the environment, at least `min`. */
function wholeSeconds(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ConfigError(`${name} must be a whole number of seconds, at least ${min}, got "${raw}"`);
  return n;
}
