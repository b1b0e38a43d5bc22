/**
 * One small database interface over PGlite (embedded, default) and PostgreSQL (DATABASE_URL).
 * Same SQL and migrations for both; tests run on both.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';
import { giveBack, openImage } from './pglite-images';

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Inside a transaction: runs cb once it has committed (never when it rolls back). Outside: at once. */
  afterCommit?(cb: () => void): void;
}

/**
 * The rows a list call's page and limit ask for: pages count from 1 (0 or less is the first), a limit of 0 or less
 * takes `fallback`, and one above `max` is cut to it.
 */
export function requestedPage(params: { page: number; limit: number }, fallback: number, max = Infinity): { limit: number; offset: number } {
  const limit = params.limit > 0 ? Math.min(params.limit, max) : fallback;
  return { limit, offset: (Math.max(params.page, 1) - 1) * limit };
}

/**
 * One page of a user's rows of `table`, newest first, and how many there are. `filters` narrows by columns equal to
 * values (undefined ones are left out); table and column names come from code, never from a request.
 */
export async function pageOfUser<T>(
  q: Queryable,
  table: string,
  userId: number,
  page: { limit: number; offset: number },
  filters: Record<string, unknown> = {},
): Promise<{ rows: T[]; total: number }> {
  const args: unknown[] = [userId];
  let where = 'user_id = $1';
  for (const [column, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    args.push(value);
    where += ` AND ${column} = $${args.length}`;
  }
  const { rows } = await q.query<T>(`SELECT * FROM ${table} WHERE ${where} ORDER BY id DESC LIMIT $${args.length + 1} OFFSET $${args.length + 2}`, [...args, page.limit, page.offset]);
  const count = await q.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${table} WHERE ${where}`, args);
  return { rows, total: Number(count.rows[0]!.total) };
}

/** Runs fn with a transaction's queryable that collects afterCommit callbacks, and calls them after commit. */
async function withCommitHooks<T>(run: (decorate: (q: Queryable) => Queryable) => Promise<T>): Promise<T> {
  const hooks: (() => void)[] = [];
  const out = await run((q) => ({ ...q, afterCommit: (cb) => hooks.push(cb) }));
  for (const hook of hooks) hook();
  return out;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs fn in one transaction; rolls back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * A statement without parameters that the process runs again and again (the queue's poll), prepared once per
   * connection so that its plan is made once and reused. Planning the poll over the job table's partitions (one a
   * job name) was most of an idle server's database time: 8 ms a run on the embedded database, 2 ms prepared.
   */
  repeated<T = Record<string, unknown>>(sql: string): Promise<QueryResult<T>>;
  close(): Promise<void>;
}

/** The name a repeated statement is prepared under: one per text, in the order they were first run. */
function statementNames() {
  const names = new Map<string, string>();
  return (sql: string) => {
    let name = names.get(sql);
    if (!name) names.set(sql, (name = `aisa_repeated_${names.size + 1}`));
    return name;
  };
}

/** The embedded database's own folder inside the data directory. */
export const PGLITE_DIR = 'pgdata';

/**
 * The embedded database under dataDir, or (`image`, a dumpDataDir tar) one in memory in that dump's state, which goes
 * back to the process's spares when closed (pglite-images.ts).
 */
export async function openPglite(dataDir: string, image?: string): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  fs.mkdirSync(dataDir, { recursive: true });
  const pg: PGlite = image ? await openImage(image) : await PGlite.create(path.join(dataDir, PGLITE_DIR));
  const nameOf = statementNames();
  const prepared = new Map<string, Promise<void>>();
  // A database given back serves another server next: nothing of this one reaches it after its close.
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new Error('the database is closed');
  };
  const result = <T>(res: { rows: T[]; affectedRows?: number }): QueryResult<T> => ({ rows: res.rows, rowCount: res.affectedRows || res.rows.length });
  const wrap = (q: { query: PGlite['query'] }): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      ensureOpen();
      return result(await q.query<T>(sql, params));
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    async exec(sql) {
      ensureOpen();
      await pg.exec(sql);
    },
    tx: async (fn) => {
      ensureOpen();
      return withCommitHooks((decorate) => pg.transaction((t) => fn(decorate(wrap(t)))));
    },
    async repeated<T>(sql: string) {
      ensureOpen();
      // One session: PREPARE once (a failed one is tried again next time), then EXECUTE.
      const name = nameOf(sql);
      let ready = prepared.get(name);
      if (!ready) {
        ready = pg.exec(`PREPARE ${name} AS ${sql}`).then(
          () => undefined,
          (err: unknown) => {
            prepared.delete(name);
            throw err;
          },
        );
        prepared.set(name, ready);
      }
      await ready;
      return result(await pg.query<T>(`EXECUTE ${name}`));
    },
    async close() {
      if (closed) return;
      closed = true;
      await (image ? giveBack(image, pg) : pg.close());
    },
  };
}

export async function openPostgres(url: string, poolSize = 10): Promise<Db> {
  const { default: pg } = await import('pg');
  const pool: Pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection can die (a database restart, an administrator's terminate): the pool replaces it.
  // Unhandled, node-postgres would throw that error and bring the whole server down.
  pool.on('error', (err) => console.warn(`[db] idle connection lost: ${err.message}`));
  await pool.query('select 1');
  const wrap = (c: Pool | PoolClient): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      // Several statements in one text (pg-boss's own migrations) answer with one result each: keep the last.
      const raw = (await c.query(sql, params)) as unknown as import('pg').QueryResult | import('pg').QueryResult[];
      const res = Array.isArray(raw) ? raw[raw.length - 1]! : raw;
      return { rows: (res?.rows ?? []) as T[], rowCount: res?.rowCount ?? res?.rows.length ?? 0 };
    },
  });
  const nameOf = statementNames();
  return {
    kind: 'postgres',
    ...wrap(pool),
    async exec(sql) {
      await pool.query(sql);
    },
    tx: (fn) =>
      withCommitHooks(async (decorate) => {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          const out = await fn(decorate(wrap(client)));
          await client.query('COMMIT');
          return out;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        } finally {
          client.release();
        }
      }),
    async repeated<T>(sql: string) {
      // node-postgres prepares a named statement on each connection the first time that connection runs it.
      const res = await pool.query({ name: nameOf(sql), text: sql });
      return { rows: res.rows as T[], rowCount: res.rowCount ?? res.rows.length };
    },
    close: () => pool.end(),
  };
}

export function openDb(config: { dataDir: string; databaseUrl?: string; pgliteImage?: string }): Promise<Db> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openPglite(config.dataDir, config.pgliteImage);
}
