import fs from 'node:fs';
import path from 'node:path';
import { PGLITE_DIR } from '../../server/infra/db';

/** Where pglite-global.ts left this run's migrated embedded database (unset outside the test run, e.g. in the bench). */
export const PGLITE_TEMPLATE_ENV = 'TEST_PGLITE_TEMPLATE';
/** Where pglite-global.ts left the same database dumped to one file (a tar for ServerConfig.pgliteImage). */
export const PGLITE_IMAGE_ENV = 'TEST_PGLITE_IMAGE';

/** The run's migrated embedded database as a dump, or undefined outside the test run. */
export const pgliteImage = (): string | undefined => process.env[PGLITE_IMAGE_ENV] || undefined;

/** Puts the run's migrated embedded database into a new data directory, so it starts without initdb. */
export function seedPgliteData(dataDir: string): void {
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (template) fs.cpSync(template, path.join(dataDir, PGLITE_DIR), { recursive: true });
}
