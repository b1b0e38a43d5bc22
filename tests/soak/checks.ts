/**
 * What must hold after the soak, read straight from the database and the data directory. Each check returns
 * the problems it found (empty when it holds).
 */
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { AvatarStatus, WorkStatus } from '../../src/contract';

export interface Check {
  name: string;
  problems: string[];
}

const list = (rows: unknown[], max = 10) => rows.slice(0, max).map((r) => JSON.stringify(r));

/** Every work finished (none queued or rendering, none failed), and no job of the media pipeline is left pending. */
export async function jobsFinished(db: pg.Client): Promise<Check> {
  const problems: string[] = [];
  const { rows: open } = await db.query(`SELECT id, status, reason FROM works WHERE status <> $1 ORDER BY id`, [WorkStatus.Success]);
  if (open.length) problems.push(`${open.length} works not done: ${list(open)}`);
  const { rows: avatars } = await db.query(`SELECT id, status, reason FROM avatars WHERE status <> $1 ORDER BY id`, [AvatarStatus.Ready]);
  if (avatars.length) problems.push(`${avatars.length} avatars not ready: ${list(avatars)}`);
  const { rows: voices } = await db.query(`SELECT id, generate_status FROM voices WHERE generate_status = 1 ORDER BY id`);
  if (voices.length) problems.push(`${voices.length} voices still training: ${list(voices)}`);
  const { rows: jobs } = await db.query(
    `SELECT name, state, count(*)::int AS n FROM pgboss.job
      WHERE name NOT LIKE '%-sweep' AND state NOT IN ('completed') GROUP BY name, state ORDER BY name, state`,
  );
  if (jobs.length) problems.push(`jobs not completed: ${list(jobs, 50)}`);
  return { name: 'every job finished exactly once, none stuck or failed', problems };
}

/**
 * Charges: each work has one reservation; what it spent net of refunds is what it says it charged (nothing when
 * failed), and nothing stays reserved.
 */
export async function worksChargedOnce(db: pg.Client): Promise<Check> {
  const { rows } = await db.query<{ id: number; status: number; charged: number; reserved: number; spends: number; net: number }>(
    `SELECT w.id, w.status, w.charged, w.reserved,
            count(e.id) FILTER (WHERE e.idempotency_key = 'work:' || w.id)::int AS spends,
            COALESCE(SUM(CASE WHEN e.kind = 'spend' THEN e.amount ELSE -e.amount END), 0)::int AS net
       FROM works w LEFT JOIN credit_entries e
         ON e.user_id = w.user_id AND (e.idempotency_key = 'work:' || w.id OR e.idempotency_key LIKE 'work:' || w.id || ':%')
      GROUP BY w.id ORDER BY w.id`,
  );
  const problems: string[] = [];
  const wrong = rows.filter((w) => (Number(w.reserved) > 0 && w.spends !== 1) || w.net !== (w.status === WorkStatus.Success ? Number(w.charged) : 0));
  if (wrong.length) problems.push(`${wrong.length} works charged other than once: ${list(wrong)}`);
  return { name: 'no work charged twice or left reserved', problems };
}

/**
 * The ledger (server/features/credits/ledger.ts): every batch's remainder within [0, amount], every entry's
 * allocations adding up to it (minus for refunds), and each balance equal to grants − spends + refunds.
 */
export async function ledgerBalances(db: pg.Client): Promise<Check> {
  const problems: string[] = [];
  const { rows: batches } = await db.query(
    `SELECT b.id, b.amount, (b.amount - COALESCE(SUM(a.amount), 0))::int AS remaining
       FROM credit_batches b LEFT JOIN credit_allocations a ON a.batch_id = b.id GROUP BY b.id
     HAVING b.amount - COALESCE(SUM(a.amount), 0) < 0 OR b.amount - COALESCE(SUM(a.amount), 0) > b.amount`,
  );
  if (batches.length) problems.push(`batches outside [0, amount]: ${list(batches)}`);
  const { rows: entries } = await db.query(
    `SELECT e.id, e.kind, e.amount, COALESCE(SUM(a.amount), 0)::int AS allocated
       FROM credit_entries e LEFT JOIN credit_allocations a ON a.entry_id = e.id GROUP BY e.id
     HAVING COALESCE(SUM(a.amount), 0) <> CASE WHEN e.kind = 'spend' THEN e.amount ELSE -e.amount END`,
  );
  if (entries.length) problems.push(`entries whose allocations differ from their amount: ${list(entries)}`);
  const { rows: users } = await db.query(
    `SELECT u.id,
            (SELECT COALESCE(SUM(amount), 0) FROM credit_batches WHERE user_id = u.id)::int AS granted,
            (SELECT COALESCE(SUM(CASE WHEN kind = 'spend' THEN amount ELSE -amount END), 0) FROM credit_entries WHERE user_id = u.id)::int AS spent,
            (SELECT COALESCE(SUM(b.amount - COALESCE(a.used, 0)), 0) FROM credit_batches b
               LEFT JOIN (SELECT batch_id, SUM(amount) AS used FROM credit_allocations GROUP BY batch_id) a ON a.batch_id = b.id
              WHERE b.user_id = u.id AND b.expires_at > now())::int AS balance
       FROM users u`,
  );
  const off = users.filter((u) => u.balance !== u.granted - u.spent || u.balance < 0);
  if (off.length) problems.push(`balances other than grants − spends + refunds: ${list(off)}`);
  return { name: 'ledger sums equal balances', problems };
}

/** Each code redeemed at most once, by the user it names, with exactly one grant; the clients' successes match. */
export async function codesRedeemedOnce(db: pg.Client, clientSuccesses: Map<string, number>): Promise<Check> {
  const problems: string[] = [];
  const { rows } = await db.query<{ code: string; used_by: number | null; grants: number; granted_to: number | null }>(
    `SELECT c.code, c.used_by, count(b.id)::int AS grants, min(b.user_id) AS granted_to
       FROM redeem_codes c LEFT JOIN credit_batches b ON b.source = 'code' AND b.source_ref = c.code GROUP BY c.code`,
  );
  for (const c of rows) {
    if (c.grants > 1) problems.push(`code ${c.code} granted ${c.grants} times`);
    if ((c.used_by === null) !== (c.grants === 0) || (c.used_by !== null && c.used_by !== c.granted_to)) problems.push(`code ${c.code}: used_by ${c.used_by}, granted to ${c.granted_to}`);
    const seen = clientSuccesses.get(c.code);
    if (seen !== undefined && seen !== c.used_by) problems.push(`code ${c.code}: a client was told it redeemed it (user ${seen}) but the database says ${c.used_by}`);
  }
  return { name: 'redemption codes redeemed at most once', problems };
}

export function filesUnder(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((d) => d.isFile())
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)));
}

/** Every stored object is named by some row (any column of any table), and no partial writes are left. */
export async function noOrphanObjects(db: pg.Client, objects: string[]): Promise<Check & { objects: number }> {
  const { rows: tables } = await db.query<{ t: string }>(`SELECT quote_ident(tablename) AS t FROM pg_tables WHERE schemaname = 'public'`);
  let text = '';
  for (const { t } of tables) {
    const { rows } = await db.query<{ s: string | null }>(`SELECT string_agg(x::text, E'\\n') AS s FROM ${t} x`);
    text += rows[0]?.s ?? '';
  }
  const partial = objects.filter((k) => k.endsWith('.part'));
  const orphans = objects.filter((k) => !k.endsWith('.part') && !text.includes(k));
  const problems: string[] = [];
  if (partial.length) problems.push(`${partial.length} partial writes left: ${partial.slice(0, 10).join(', ')}`);
  if (orphans.length) problems.push(`${orphans.length} objects no row names: ${orphans.slice(0, 10).join(', ')}`);
  return { name: 'no orphan objects in storage', problems, objects: objects.length };
}

/** After every process has stopped (and the restarts cleaned up after the killed ones), no job scratch remains. */
export function noTempFiles(tmpDir: string): Check {
  const left = filesUnder(tmpDir);
  return { name: 'no temp files left in work dirs', problems: left.length ? [`${left.length} files under ${tmpDir}: ${left.slice(0, 10).join(', ')}`] : [] };
}
