/** What operators read of accounts, voices and avatars (`npm run admin -- user list|show`, `voice list`, `avatar list`). */
import { AvatarStatus, VoiceStatus } from '../../../src/contract';
import type { Queryable } from '../../infra/db';

/** Live credits of each batch: its amount less what spends drew from it (refunds allocate negative amounts). */
const BATCH_LEFT = `SELECT b.*, b.amount - COALESCE((SELECT SUM(a.amount) FROM credit_allocations a WHERE a.batch_id = b.id), 0) AS left_amount FROM credit_batches b`;

export interface OperatorUserRow {
  id: number;
  username: string;
  tourist: boolean;
  created_at: Date;
  credits: number;
  used_bytes: number;
  extra_gb: number;
  sessions: number;
}

export interface OperatorMediaRow {
  id: number;
  name: string;
  owner: string;
  status: number;
  reason: string;
  detail: string;
  created_at: Date;
}

export interface MediaFilter {
  username?: string;
  id?: number;
  limit: number;
}

const VOICE_STATES: Record<number, string> = { [VoiceStatus.Training]: 'training', [VoiceStatus.Ready]: 'ready', [VoiceStatus.Failed]: 'failed' };
const AVATAR_STATES: Record<number, string> = { [AvatarStatus.Cloning]: 'cloning', [AvatarStatus.Ready]: 'ready', [AvatarStatus.Failed]: 'failed' };
export const voiceState = (status: number) => VOICE_STATES[status] ?? `status ${status}`;
export const avatarState = (status: number) => AVATAR_STATES[status] ?? `status ${status}`;

export class AdminRepository {
  constructor(private readonly db: Queryable) {}

  private async users(where: string, args: unknown[], limit: number): Promise<OperatorUserRow[]> {
    const { rows } = await this.db.query<Record<string, unknown>>(
      `SELECT u.id, u.username, u.is_tourist = 1 AS tourist, u.created_at, u.space_extra_gb AS extra_gb,
              COALESCE((SELECT SUM(left_amount) FROM (${BATCH_LEFT}) b WHERE b.user_id = u.id AND b.expires_at > now()), 0)::int AS credits,
              COALESCE((SELECT SUM(size) FROM files f WHERE f.user_id = u.id), 0)::bigint AS used_bytes,
              (SELECT count(*) FROM sessions s WHERE s.user_id = u.id AND s.revoked_at IS NULL AND s.expires_at > now())::int AS sessions
         FROM users u ${where} ORDER BY u.id DESC LIMIT ${Number(limit)}`,
      args,
    );
    return rows.map((r) => ({
      id: Number(r.id), username: String(r.username), tourist: Boolean(r.tourist), created_at: new Date(r.created_at as string),
      credits: Number(r.credits), used_bytes: Number(r.used_bytes), extra_gb: Number(r.extra_gb), sessions: Number(r.sessions),
    }));
  }

  async userList(limit: number, search?: string): Promise<{ total: number; list: OperatorUserRow[] }> {
    const [where, args] = search ? ['WHERE u.username LIKE $1', [`%${search.replace(/[\\%_]/g, '\\$&')}%`]] : ['', []];
    const { rows } = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users u ${where}`, args);
    return { total: rows[0]!.n, list: await this.users(where, args, limit) };
  }

  async userByName(username: string): Promise<OperatorUserRow | undefined> {
    return (await this.users('WHERE u.username = $1', [username], 1))[0];
  }

  async ledgerSums(userId: number): Promise<{ granted: number; spent: number; refunded: number }> {
    const { rows } = await this.db.query<{ granted: number; spent: number; refunded: number }>(
      `SELECT (SELECT COALESCE(SUM(amount), 0) FROM credit_batches WHERE user_id = $1)::int AS granted,
              (SELECT COALESCE(SUM(amount), 0) FROM credit_entries WHERE user_id = $1 AND kind = 'spend')::int AS spent,
              (SELECT COALESCE(SUM(amount), 0) FROM credit_entries WHERE user_id = $1 AND kind = 'refund')::int AS refunded`,
      [userId],
    );
    return rows[0]!;
  }

  /** Batches that still count: unexpired, with credits left; earliest expiry first (the order spends draw them). */
  async liveBatches(userId: number): Promise<{ amount: number; left: number; source: string; expires_at: Date }[]> {
    const { rows } = await this.db.query<{ amount: number; left_amount: number; source: string; expires_at: Date }>(
      `SELECT amount, left_amount::int AS left_amount, source, expires_at FROM (${BATCH_LEFT}) b
        WHERE b.user_id = $1 AND b.expires_at > now() AND b.left_amount > 0 ORDER BY b.expires_at, b.id`,
      [userId],
    );
    return rows.map((r) => ({ amount: Number(r.amount), left: Number(r.left_amount), source: r.source, expires_at: new Date(r.expires_at) }));
  }

  async liveSessions(userId: number): Promise<{ created_at: Date; expires_at: Date; ip: string }[]> {
    const { rows } = await this.db.query<{ created_at: Date; expires_at: Date; ip: string }>(
      `SELECT created_at, expires_at, ip FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at DESC`,
      [userId],
    );
    return rows;
  }

  async worksByStatus(userId: number): Promise<{ status: number; n: number }[]> {
    const { rows } = await this.db.query<{ status: number; n: number }>(
      'SELECT status, count(*)::int AS n FROM works WHERE user_id = $1 GROUP BY status ORDER BY status',
      [userId],
    );
    return rows.map((r) => ({ status: Number(r.status), n: r.n }));
  }

  /** Public rows (no owner) unless a username is given; `id` narrows to one row. */
  private static mediaWhere(filter: MediaFilter, alias: string): [string, unknown[]] {
    const args: unknown[] = [];
    const clauses: string[] = [];
    if (filter.username) {
      args.push(filter.username);
      clauses.push(`${alias}.user_id = (SELECT id FROM users WHERE username = $${args.length})`);
    } else if (filter.id === undefined) {
      clauses.push(`${alias}.user_id IS NULL`);
    }
    if (filter.id !== undefined) {
      args.push(filter.id);
      clauses.push(`${alias}.id = $${args.length}`);
    }
    return [clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', args];
  }

  async voices(filter: MediaFilter): Promise<OperatorMediaRow[]> {
    const [where, args] = AdminRepository.mediaWhere(filter, 'v');
    const { rows } = await this.db.query<OperatorMediaRow>(
      `SELECT v.id, v.name, COALESCE(u.username, '') AS owner, v.generate_status AS status, v.reason, v.api AS detail, v.created_at
         FROM voices v LEFT JOIN users u ON u.id = v.user_id ${where} ORDER BY v.id DESC LIMIT ${Number(filter.limit)}`,
      args,
    );
    return rows;
  }

  async avatars(filter: MediaFilter): Promise<OperatorMediaRow[]> {
    const [where, args] = AdminRepository.mediaWhere(filter, 'a');
    const { rows } = await this.db.query<OperatorMediaRow>(
      `SELECT a.id, a.name, COALESCE(u.username, '') AS owner, a.status, a.reason, a.face_note AS detail, a.created_at
         FROM avatars a LEFT JOIN users u ON u.id = a.user_id ${where} ORDER BY a.id DESC LIMIT ${Number(filter.limit)}`,
      args,
    );
    return rows;
  }
}
