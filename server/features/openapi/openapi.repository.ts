/** Every SQL statement of the public API: personal keys, the first answers of idempotent POSTs, webhook deliveries. */
import type { Queryable } from '../../infra/db';

export interface KeyRow {
  id: number;
  user_id: number;
  name: string;
  prefix: string;
  webhook_url: string;
  webhook_secret: string;
  created_at: Date;
  last_used_at: Date | null;
}

export interface IdempotentAnswer {
  request_hash: string;
  /** null while the first request still runs. */
  status: number | null;
  body: unknown;
}

export interface DeliveryRow {
  id: number;
  key_id: number;
  event: string;
  object_id: number;
  body: string;
  status: number;
  attempts: number;
  last_code: number;
  created_at: Date;
  updated_at: Date;
}

const LIVE = 'revoked_at IS NULL';

export class OpenApiRepository {
  constructor(private readonly q: Queryable) {}

  /** Adds a key unless the user already holds `max` live ones (counted under a lock on the user's row). */
  async addKey(k: { userId: number; name: string; prefix: string; hash: string; webhookSecret: string }, max: number): Promise<number | undefined> {
    await this.q.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [k.userId]);
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO api_keys (user_id, name, prefix, hash, webhook_secret)
       SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM api_keys WHERE user_id = $1 AND ${LIVE}) < $6 RETURNING id`,
      [k.userId, k.name, k.prefix, k.hash, k.webhookSecret, max],
    );
    return rows[0]?.id;
  }

  async keys(userId: number): Promise<KeyRow[]> {
    const { rows } = await this.q.query<KeyRow>(`SELECT * FROM api_keys WHERE user_id = $1 AND ${LIVE} ORDER BY id DESC`, [userId]);
    return rows;
  }

  async key(id: number, userId: number): Promise<KeyRow | undefined> {
    const { rows } = await this.q.query<KeyRow>(`SELECT * FROM api_keys WHERE id = $1 AND user_id = $2 AND ${LIVE}`, [id, userId]);
    return rows[0];
  }

  /** A live key with its owner's name (for the webhook job, which runs as that user). */
  async liveKey(id: number): Promise<(KeyRow & { username: string }) | undefined> {
    const { rows } = await this.q.query<KeyRow & { username: string }>(
      `SELECT k.*, u.username FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = $1 AND k.${LIVE}`,
      [id],
    );
    return rows[0];
  }

  async revoke(id: number, userId: number): Promise<boolean> {
    const { rowCount } = await this.q.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND user_id = $2 AND ${LIVE}`, [id, userId]);
    return rowCount > 0;
  }

  /** The live key of this hash with its user (a guest's or a deleted user's key is no key), marked used now. */
  async useKey(hash: string): Promise<(KeyRow & { username: string; is_tourist: 0 | 1 }) | undefined> {
    const { rows } = await this.q.query<KeyRow & { username: string; is_tourist: 0 | 1 }>(
      `UPDATE api_keys k SET last_used_at = now() FROM users u
        WHERE k.hash = $1 AND k.${LIVE} AND u.id = k.user_id AND u.is_tourist = 0
        RETURNING k.*, u.username, u.is_tourist`,
      [hash],
    );
    return rows[0];
  }

  async setWebhook(id: number, userId: number, url: string): Promise<boolean> {
    const { rowCount } = await this.q.query(`UPDATE api_keys SET webhook_url = $3 WHERE id = $1 AND user_id = $2 AND ${LIVE}`, [id, userId, url]);
    return rowCount > 0;
  }

  /**
   * Claims an idempotency key for a request: answers undefined when this request is the first (it then runs and
   * `finishIdempotent` keeps its answer), else what the first one stored.
   */
  async claimIdempotent(keyId: number, idemKey: string, requestHash: string): Promise<IdempotentAnswer | undefined> {
    const { rows } = await this.q.query(
      'INSERT INTO api_idempotency (key_id, idem_key, request_hash) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING key_id',
      [keyId, idemKey, requestHash],
    );
    if (rows.length) return undefined;
    const first = await this.q.query<IdempotentAnswer>('SELECT request_hash, status, body FROM api_idempotency WHERE key_id = $1 AND idem_key = $2', [keyId, idemKey]);
    return first.rows[0] ?? { request_hash: requestHash, status: null, body: null };
  }

  async finishIdempotent(keyId: number, idemKey: string, status: number, body: unknown): Promise<void> {
    await this.q.query('UPDATE api_idempotency SET status = $3, body = $4 WHERE key_id = $1 AND idem_key = $2', [keyId, idemKey, status, JSON.stringify(body)]);
  }

  /** A refused or failed first request does not hold its key: the client may retry it. */
  async releaseIdempotent(keyId: number, idemKey: string): Promise<void> {
    await this.q.query('DELETE FROM api_idempotency WHERE key_id = $1 AND idem_key = $2 AND status IS NULL', [keyId, idemKey]);
  }

  async sweepIdempotent(): Promise<void> {
    await this.q.query("DELETE FROM api_idempotency WHERE created_at < now() - interval '1 day'");
  }

  /** Answers the new delivery's id, or undefined when this event of this object was already queued for the key. */
  async addDelivery(d: { keyId: number; event: string; objectId: number; body: string }): Promise<number | undefined> {
    const { rows } = await this.q.query<{ id: number }>(
      'INSERT INTO api_webhook_deliveries (key_id, event, object_id, body) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING id',
      [d.keyId, d.event, d.objectId, d.body],
    );
    return rows[0]?.id;
  }

  async delivery(id: number): Promise<(DeliveryRow & { webhook_url: string; webhook_secret: string }) | undefined> {
    const { rows } = await this.q.query<DeliveryRow & { webhook_url: string; webhook_secret: string }>(
      `SELECT d.*, k.webhook_url, k.webhook_secret FROM api_webhook_deliveries d JOIN api_keys k ON k.id = d.key_id AND k.${LIVE} WHERE d.id = $1`,
      [id],
    );
    return rows[0];
  }

  async recordAttempt(id: number, code: number, status: number): Promise<void> {
    await this.q.query('UPDATE api_webhook_deliveries SET attempts = attempts + 1, last_code = $2, status = $3, updated_at = now() WHERE id = $1', [id, code, status]);
  }

  async deliveries(keyId: number, limit: number): Promise<DeliveryRow[]> {
    const { rows } = await this.q.query<DeliveryRow>(`SELECT * FROM api_webhook_deliveries WHERE key_id = $1 ORDER BY id DESC LIMIT ${limit}`, [keyId]);
    return rows;
  }
}
