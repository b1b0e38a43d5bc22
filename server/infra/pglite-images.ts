/**
 * Test only (ServerConfig.pgliteImage): embedded databases held in memory, loaded from a dump of a migrated one.
 *
 * Loading a dump and starting PostgreSQL in it cost a test server about a CPU-second, most of an in-process test
 * server's start, and a test run starts hundreds. So a database given back is put in the state the dump left it in
 * (its tables emptied and refilled with the dump's rows, its sequences set back, its session discarded) and handed to
 * the next server of this process that asks for the same dump. One whose schema no longer matches the dump's (a test
 * that ran DDL) is closed instead.
 */
import fs from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';

/**
 * A dump's bytes, read once per process: PGlite only reads the bytes it is given (it copies each file out of them),
 * so one buffer serves every load.
 */
const dumps = new Map<string, Promise<ArrayBuffer>>();
class DumpBlob extends Blob {
  constructor(private readonly dump: ArrayBuffer) {
    super([]);
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.dump);
  }
}
async function dumpOf(image: string): Promise<Blob> {
  let bytes = dumps.get(image);
  if (!bytes) dumps.set(image, (bytes = fs.promises.readFile(image).then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))));
  return new DumpBlob(await bytes);
}

/**
 * What a database loaded from a dump looks like: its schema's fingerprint; which of its seeded tables a test changed
 * (a query); and the SQL that puts its data back, given those.
 */
interface Baseline {
  schema: string;
  changedSeeds: string;
  reset: (changedSeeds: string[]) => string;
}

/** Spare databases a process keeps per dump: enough for the servers one spec file runs at once. */
const MAX_SPARES = 2;
const spares = new Map<string, PGlite[]>();
const baselines = new Map<string, Promise<Baseline>>();

/** The schemas the product's migrations and the job queue create (everything but PostgreSQL's own). */
const OWN_SCHEMA = `n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'`;

/** The shape of every relation, column, function, trigger and type of our schemas, as one hash. */
const SCHEMA_FINGERPRINT = `
  SELECT md5(string_agg(item, ',' ORDER BY item)) AS schema FROM (
    SELECT n.nspname || '.' || c.relname || ':' || c.relkind::text AS item FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${OWN_SCHEMA}
    UNION ALL SELECT n.nspname || '.' || c.relname || '.' || a.attname || ':' || a.atttypid::text || ':' || a.attnotnull::text || ':' || a.attisdropped::text
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${OWN_SCHEMA} AND a.attnum > 0
    UNION ALL SELECT n.nspname || '.' || p.proname || '(' || p.proargtypes::text || ')' FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE ${OWN_SCHEMA}
    UNION ALL SELECT n.nspname || '.' || c.relname || '/' || t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${OWN_SCHEMA}
    UNION ALL SELECT n.nspname || '.' || t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace WHERE ${OWN_SCHEMA}
    UNION ALL SELECT 'role ' || rolname FROM pg_roles
  ) items`;

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Reads a freshly loaded database. Its reset empties every table with DELETE (a few milliseconds for the many empty
 * ones; TRUNCATE makes new files for each table and index, 0.3 CPU-s for all of them), refills only the seeded tables
 * a test changed, and sets every sequence back.
 */
async function readBaseline(pg: PGlite): Promise<Baseline> {
  const schema = (await pg.query<{ schema: string }>(SCHEMA_FINGERPRINT)).rows[0]!.schema;
  const tables = (
    await pg.query<{ name: string }>(
      `SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND ${OWN_SCHEMA} ORDER BY 1`,
    )
  ).rows.map((r) => r.name);
  const contentHash = (table: string) => `(SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) FROM ${table} t)`;
  const seeds = new Map<string, { hash: string; refill: string }>();
  for (const table of tables) {
    const { rows } = await pg.query<{ data: unknown[] | null; hash: string }>(`SELECT (SELECT json_agg(t) FROM ${table} t) AS data, ${contentHash(table)} AS hash`);
    const { data, hash } = rows[0]!;
    if (data) seeds.set(table, { hash, refill: `INSERT INTO ${table} OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::${table}, ${literal(JSON.stringify(data))})` });
  }
  const changedSeeds = [...seeds].map(([table, { hash }]) => `SELECT ${literal(table)} AS name WHERE ${contentHash(table)} IS DISTINCT FROM ${literal(hash)}`).join(' UNION ALL ');
  const sequences = await pg.query<{ name: string; last_value: string | null; start_value: string }>(
    `SELECT format('%I.%I', schemaname, sequencename) AS name, last_value::text, start_value::text FROM pg_sequences WHERE schemaname NOT IN ('pg_catalog', 'information_schema')`,
  );
  const setSequences = `SELECT ${sequences.rows.map((s) => (s.last_value === null ? `setval(${literal(s.name)}, ${s.start_value}, false)` : `setval(${literal(s.name)}, ${s.last_value}, true)`)).join(', ')}`;
  const unseeded = tables.filter((table) => !seeds.has(table));
  return {
    schema,
    changedSeeds,
    reset: (changed) =>
      [
        // Foreign keys and triggers are left out while the rows go and come back in any order.
        'SET session_replication_role = replica',
        ...[...unseeded, ...changed].map((table) => `DELETE FROM ${table}`),
        ...changed.map((table) => seeds.get(table)!.refill),
        'SET session_replication_role = DEFAULT',
        setSequences,
      ].join(';\n'),
  };
}

async function load(image: string): Promise<PGlite> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create('memory://', { loadDataDir: await dumpOf(image) });
  if (!baselines.has(image)) {
    const baseline = readBaseline(pg);
    baselines.set(image, baseline);
    baseline.catch(() => baselines.delete(image));
    await baseline;
  }
  return pg;
}

/** A database in the dump's state: a spare one given back earlier, or one loaded now. */
export function openImage(image: string): Promise<PGlite> {
  const spare = spares.get(image)?.pop();
  return spare ? Promise.resolve(spare) : load(image);
}

/**
 * Gives a database back when its server closes: put back in the dump's state and kept for the next server, or
 * closed when it cannot be (its schema changed, a transaction left open, enough spares kept already).
 */
export async function giveBack(image: string, pg: PGlite): Promise<void> {
  const kept = spares.get(image) ?? [];
  try {
    const baseline = await baselines.get(image);
    if (!baseline || kept.length >= MAX_SPARES) throw new Error('not kept');
    // Prepared statements, session settings, temporary tables, LISTENs; it fails inside a transaction left open.
    await pg.exec('DISCARD ALL');
    if ((await pg.query<{ schema: string }>(SCHEMA_FINGERPRINT)).rows[0]!.schema !== baseline.schema) throw new Error('schema changed');
    const changed = baseline.changedSeeds ? (await pg.query<{ name: string }>(baseline.changedSeeds)).rows.map((r) => r.name) : [];
    await pg.exec(baseline.reset(changed));
  } catch {
    await pg.close();
    return;
  }
  kept.push(pg);
  spares.set(image, kept);
}
