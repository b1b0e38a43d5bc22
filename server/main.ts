/** The product's server process: `npm start` (role all), or ROLE=api / ROLE=worker with DATABASE_URL. */
import { build } from './app';
import { configFromEnv, ConfigError } from './infra/config';
import { DataDirLockedError, removeServerInfo, writeServerInfo } from './infra/data-dir';
import { adminCommand, firstStartLines } from './infra/first-start';
import { seedPublicVoices } from './features/admin';

async function main(): Promise<void> {
  const config = configFromEnv();
  const app = await build(config);
  const address = await app.listen({ host: config.host, port: config.port });
  const url = address.replace('://[::1]', '://localhost');
  writeServerInfo(config.dataDir, { pid: process.pid, url });

  const { rows } = await app.ctx.db.query<{ users: number; guides: number; agreements: string[] | null }>(
    `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM guides) AS guides,
            (SELECT array_agg(key) FROM settings WHERE key IN ('eula', 'privacy_agreement', 'clone_usage')) AS agreements`,
  );
  const setUp = rows[0]!;
  const templateAgreements = ['eula', 'privacy_agreement', 'clone_usage'].filter((key) => !(setUp.agreements ?? []).includes(key));
  const start = { url, role: config.role, dataDir: config.dataDir, database: app.ctx.db.kind, users: setUp.users, templateAgreements, noGuides: setUp.guides === 0 };
  const lines = firstStartLines(start, process.cwd());
  console.log(lines.join('\n'));
  // After listening, so the server answers at once; the voices train in the worker and appear once ready.
  if (config.seedPublicVoices && config.role !== 'worker') {
    seedPublicVoices(app.ctx).then(
      (names) => names.length && console.log(`Seeded the offline public voices ${names.join('、')}; list them with ${adminCommand(config.dataDir, process.cwd(), 'voice list')} and remove any with ${adminCommand(config.dataDir, process.cwd(), 'voice remove <ID>')}`),
      (err: unknown) => app.log.error({ err }, 'seeding the public voices failed'),
    );
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests, stopping the worker, closing the database');
    try {
      await app.close();
      removeServerInfo(config.dataDir);
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirLockedError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
