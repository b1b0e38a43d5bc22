import type { TestProject } from 'vitest/node';
import { openPostgres } from '../../server/infra/db';
import { createDatabase, startThrowawayPostgres } from './postgres';
import { DB_KINDS, prepareTemplate } from './db-kinds';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    /** The run's migrated database, which the in-process test servers' databases are copies of (createDatabase). */
    postgresTemplate: string;
  }
}

/**
 * Server tests run on PGlite and on a real PostgreSQL: DATABASE_URL, or a throwaway cluster started here. Either way
 * one database is migrated here, once: migrating each test server's fresh database took about 0.9 CPU-s of the
 * cluster and the server, a copy of the migrated one 0.4. A server's first start on an empty PostgreSQL database is
 * tested on its own (server/main.spec.ts, which migrates one through its api process).
 */
export default async function setup(project: TestProject) {
  if (!DB_KINDS.includes('postgres')) return;
  const cluster = process.env.DATABASE_URL ? undefined : await startThrowawayPostgres();
  const url = process.env.DATABASE_URL ?? cluster!.url;
  const template = await createDatabase(url);
  const db = await openPostgres(template.url);
  await prepareTemplate(db);
  await db.close();
  project.provide('postgresUrl', url);
  project.provide('postgresTemplate', new URL(template.url).pathname.slice(1));
  return async () => {
    if (cluster) cluster.stop();
    else await template.drop();
  };
}
