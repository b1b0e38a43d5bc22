import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, PGLITE_DIR } from '../../server/infra/db';
import { prepareTemplate } from './db-kinds';
import { PGLITE_IMAGE_ENV, PGLITE_TEMPLATE_ENV } from './pglite-template';

/**
 * A fresh embedded database costs an initdb inside WebAssembly (seconds, far more on a busy machine), and every
 * test server starts on one. This makes one per run, migrated and with the queue's schema, for the helpers to copy
 * into each new data directory (seedPgliteData), and its dump, which in-process test servers load into memory. The first start of a real data directory is tested on its own.
 */
export default async function setup() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-pglite-template-'));
  const db = await openPglite(base);
  // The two template databases that initdb makes are for CREATE DATABASE, which the embedded database never runs (it
  // serves the one database it opened): without them a test database has 945 files instead of 1,544, and copying or
  // loading one, as every test server does, measured 20–50% less CPU. The first start of a real data directory, with
  // both, is tested on its own (main.spec).
  for (const name of ['template0', 'template1']) {
    await db.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    await db.exec(`DROP DATABASE ${name}`);
  }
  await prepareTemplate(db);
  // Every test database starts from this one, and PostgreSQL clears its buffer pool at each start: 128 MB (the
  // default, which the product keeps) took half a CPU-second of WebAssembly per start; a test database is small.
  await db.exec(`ALTER SYSTEM SET shared_buffers = '16MB'`);
  await db.close();
  // The same database as one file, for the test servers that hold theirs in memory (pgliteImage).
  const { PGlite } = await import('@electric-sql/pglite');
  const template = await PGlite.create(path.join(base, PGLITE_DIR));
  const image = path.join(base, 'image.tar');
  fs.writeFileSync(image, Buffer.from(await (await template.dumpDataDir('none')).arrayBuffer()));
  await template.close();
  // The environment, not provide(): the test workers inherit it, and so do helpers that run outside a test.
  process.env[PGLITE_TEMPLATE_ENV] = path.join(base, PGLITE_DIR);
  process.env[PGLITE_IMAGE_ENV] = image;
  return () => fs.rmSync(base, { recursive: true, force: true });
}
