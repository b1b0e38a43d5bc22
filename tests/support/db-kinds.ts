import type { Db } from '../../server/infra/db';
import { migrate } from '../../server/infra/migrate';
import { JobQueue } from '../../server/infra/queue';

export type DbKind = 'pglite' | 'postgres';

/** A run's template database, on either kind: every migration, and the job queue's schema. */
export async function prepareTemplate(db: Db): Promise<void> {
  await migrate(db);
  const queue = new JobQueue(db);
  await queue.start();
  await queue.stop();
}

/** Both databases, unless TEST_DATABASES names fewer (`npm run test:quick` runs on PGlite alone). */
export const DB_KINDS: DbKind[] = testDatabases();

function testDatabases(): DbKind[] {
  const named = (process.env.TEST_DATABASES ?? 'pglite,postgres').split(',').map((k) => k.trim()).filter(Boolean);
  const unknown = named.filter((k) => k !== 'pglite' && k !== 'postgres');
  if (unknown.length > 0 || named.length === 0) throw new Error(`TEST_DATABASES takes pglite and/or postgres, got "${process.env.TEST_DATABASES}"`);
  return named as DbKind[];
}
