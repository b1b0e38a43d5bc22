/** Applies server/migrations/*.sql in name order, once each, under an advisory lock (safe with many api processes). */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db';

const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../migrations');
const LOCK_ID = 720_531_001;

export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
  await db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const applied: string[] = [];
  for (const file of files) {
    const sql = fs.readFileSync(path.join(dir, file), 'utf8');
    const ran = await db.tx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock($1)', [LOCK_ID]);
      const done = await q.query('SELECT 1 FROM schema_migrations WHERE name = $1', [file]);
      if (done.rowCount > 0) return false;
      for (const statement of splitStatements(sql)) await q.query(statement);
      await q.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      return true;
    });
    if (ran) applied.push(file);
  }
  return applied;
}

/**
 * Our migrations keep one statement per `;`-terminated block; a `DO $$ … $$` block (or a function body) is one
 * statement whatever semicolons it holds.
 */
export function splitStatements(sql: string): string[] {
  const QUOTED_SEMICOLON = '\u0000';
  return sql
    .replace(/\$\$[\s\S]*?\$\$/g, (body) => body.replaceAll(';', QUOTED_SEMICOLON))
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim().replaceAll(QUOTED_SEMICOLON, ';'))
    .filter(Boolean);
}
