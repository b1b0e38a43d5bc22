import path from 'node:path';

export type ProcessRole = 'all' | 'api' | 'worker';

export interface ServerConfig {
  host: string;
  port: number;
  /** Data directory: embedded database, objects, operator key. */
  dataDir: string;
  /** When set, PostgreSQL through node-postgres; otherwise the embedded PGlite under dataDir. */
  databaseUrl?: string;
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
}

const ROLES: ProcessRole[] = ['all', 'api', 'worker'];

export class ConfigError extends Error {}

/** Reads the environment: PORT, HOST, DATA_DIR, DATABASE_URL, ROLE, LOG_LEVEL. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServerConfig {
  const role = (env.ROLE ?? 'all') as ProcessRole;
  if (!ROLES.includes(role)) throw new ConfigError(`ROLE must be one of ${ROLES.join(', ')}, got "${env.ROLE}"`);
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, got "${env.PORT}"`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (!databaseUrl && role !== 'all') {
    throw new ConfigError('The embedded database allows one process per data directory: ROLE=api and ROLE=worker need DATABASE_URL (PostgreSQL).');
  }
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
  };
}
