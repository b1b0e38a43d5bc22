import type { TestProject } from 'vitest/node';
import { startThrowawayPostgres } from './postgres';
import { DB_KINDS } from './db-kinds';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

/** Server tests run on PGlite and on a real PostgreSQL: DATABASE_URL, or a throwaway cluster started here. */
export default async function setup(project: TestProject) {
  if (!DB_KINDS.includes('postgres')) return;
  if (process.env.DATABASE_URL) {
    project.provide('postgresUrl', process.env.DATABASE_URL);
    return;
  }
  const cluster = await startThrowawayPostgres();
  project.provide('postgresUrl', cluster.url);
  return () => cluster.stop();
}
