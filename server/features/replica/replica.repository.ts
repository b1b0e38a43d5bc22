/** Every SQL statement of super replica: personas, products, video and account analyses, kept scripts. */
import { ReplicaStatus, type AccountAnalysis, type CopySegment, type PersonaDraft, type ScriptVariant, type VideoAnalysis } from '../../../src/contract';
import { pageOfUser, type Queryable } from '../../infra/db';
import type { VideoCopyRow } from '../copywrite';

export interface PersonaRow extends PersonaDraft {
  id: number;
  user_id: number;
  created_at: Date;
}

export interface ProductFields {
  name: string;
  category: string;
  price: number;
  selling_points: string;
  audience: string;
  scenes: string;
  image_file_id: number | null;
}

export interface ProductRow extends Omit<ProductFields, 'price'> {
  id: number;
  user_id: number;
  /** numeric: a string from PostgreSQL. */
  price: string | number;
  image_key: string | null;
  created_at: Date;
}

export interface VideoRow extends VideoCopyRow {
  analysis: VideoAnalysis | null;
}

export interface AccountRow {
  id: number;
  user_id: number;
  description: string;
  analysis: AccountAnalysis;
  created_at: Date;
}

export interface ScriptRow {
  id: number;
  user_id: number;
  kind: 'mimic' | 'generate';
  analysis_id: number | null;
  persona_name: string;
  product_name: string;
  topic: string;
  variants: ScriptVariant[];
  created_at: Date;
}

export interface Paging {
  limit: number;
  offset: number;
}

const PERSONA_COLUMNS = ['name', 'industry', 'audience', 'tone', 'selling_points', 'catchphrases', 'taboo'] as const;
const PRODUCT_COLUMNS = ['name', 'category', 'price', 'selling_points', 'audience', 'scenes', 'image_file_id'] as const;
const PRODUCT_SELECT = 'SELECT p.*, f.object_key AS image_key FROM replica_products p LEFT JOIN files f ON f.id = p.image_file_id';
const OPEN = [ReplicaStatus.Queued, ReplicaStatus.Running];

/** Lock ids of their own, so two adds of one user count the personas (products) one after the other. */
const COUNT_LOCK = { replica_personas: 7301, replica_products: 7302 } as const;

export class ReplicaRepository {
  constructor(private readonly q: Queryable) {}

  /** Newest first, with the user's total. */
  /** A page of a joined select (products carry their picture's key); plain tables use pageOfUser. */
  private async page<T>(table: string, select: string, userId: number, p: Paging, alias = table): Promise<{ rows: T[]; total: number }> {
    const { rows } = await this.q.query<T>(`${select} WHERE ${alias}.user_id = $1 ORDER BY ${alias}.id DESC LIMIT ${p.limit} OFFSET ${p.offset}`, [userId]);
    const count = await this.q.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${table} WHERE user_id = $1`, [userId]);
    return { rows, total: Number(count.rows[0]!.total) };
  }

  private async removeOwn(table: string, id: number, userId: number): Promise<boolean> {
    return (await this.q.query(`DELETE FROM ${table} WHERE id = $1 AND user_id = $2`, [id, userId])).rowCount > 0;
  }

  /** Adds a row of `columns` unless the user has `max` already (answers undefined then). */
  private async addCounted(table: keyof typeof COUNT_LOCK, columns: readonly string[], values: unknown[], userId: number, max: number): Promise<number | undefined> {
    await this.q.query('SELECT pg_advisory_xact_lock($1, $2)', [COUNT_LOCK[table], userId]);
    const { rows: n } = await this.q.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [userId]);
    if (Number(n[0]!.n) >= max) return undefined;
    const marks = columns.map((_, i) => `$${i + 2}`).join(', ');
    const { rows } = await this.q.query<{ id: number }>(`INSERT INTO ${table} (user_id, ${columns.join(', ')}) VALUES ($1, ${marks}) RETURNING id`, [userId, ...values]);
    return rows[0]!.id;
  }

  private async update(table: string, columns: readonly string[], values: unknown[], id: number, userId: number): Promise<boolean> {
    const sets = columns.map((c, i) => `${c} = $${i + 3}`).join(', ');
    return (await this.q.query(`UPDATE ${table} SET ${sets} WHERE id = $1 AND user_id = $2`, [id, userId, ...values])).rowCount > 0;
  }

  /** The user's own rows of a counted table (personas, products), written from records with its columns as fields. */
  private ownRows<F>(table: keyof typeof COUNT_LOCK, columns: readonly (keyof F & string)[]) {
    const values = (f: F) => columns.map((c) => f[c]);
    return {
      add: (userId: number, f: F, max: number) => this.addCounted(table, columns, values(f), userId, max),
      update: (id: number, userId: number, f: F) => this.update(table, columns, values(f), id, userId),
      remove: (id: number, userId: number) => this.removeOwn(table, id, userId),
    };
  }

  // ---- personas
  personas(userId: number, p: Paging) {
    return pageOfUser<PersonaRow>(this.q, 'replica_personas', userId, p);
  }

  async persona(id: number, userId: number): Promise<PersonaRow | undefined> {
    return (await this.q.query<PersonaRow>('SELECT * FROM replica_personas WHERE id = $1 AND user_id = $2', [id, userId])).rows[0];
  }

  /** Add (inside a transaction: the count's lock), change and remove my personas. */
  readonly ownPersonas = this.ownRows<PersonaDraft>('replica_personas', PERSONA_COLUMNS);

  // ---- products
  products(userId: number, p: Paging) {
    return this.page<ProductRow>('replica_products', PRODUCT_SELECT, userId, p, 'p');
  }

  async product(id: number, userId: number): Promise<ProductRow | undefined> {
    return (await this.q.query<ProductRow>(`${PRODUCT_SELECT} WHERE p.id = $1 AND p.user_id = $2`, [id, userId])).rows[0];
  }

  /** Add (inside a transaction: the count's lock), change and remove my products. */
  readonly ownProducts = this.ownRows<ProductFields>('replica_products', PRODUCT_COLUMNS);

  // ---- video analyses
  async addVideo(r: { userId: number; way: number; link: string; fileId: number | null; title: string }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      'INSERT INTO replica_videos (user_id, way, link, file_id, title, status) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
      [r.userId, r.way, r.link, r.fileId, r.title, ReplicaStatus.Queued],
    );
    return rows[0]!.id;
  }

  async setSpend(id: number, entryId: number): Promise<void> {
    await this.q.query('UPDATE replica_videos SET spend_entry_id = $2 WHERE id = $1', [id, entryId]);
  }

  async video(id: number): Promise<VideoRow | undefined> {
    return (await this.q.query<VideoRow>('SELECT * FROM replica_videos WHERE id = $1', [id])).rows[0];
  }

  async ownVideo(id: number, userId: number): Promise<VideoRow | undefined> {
    return (await this.q.query<VideoRow>('SELECT * FROM replica_videos WHERE id = $1 AND user_id = $2', [id, userId])).rows[0];
  }

  /** Newest first; only record `id` when given. */
  videos(userId: number, p: Paging & { id?: number }): Promise<{ rows: VideoRow[]; total: number }> {
    return pageOfUser<VideoRow>(this.q, 'replica_videos', userId, p, { id: p.id });
  }

  /** Queued → being read (a retried job finds it already so). */
  async startVideo(id: number): Promise<void> {
    await this.q.query('UPDATE replica_videos SET status = $2 WHERE id = $1 AND status = $3', [id, ReplicaStatus.Running, ReplicaStatus.Queued]);
  }

  /** The copy as read, kept before it is analysed (a retry after a failed analysis shows it). */
  /** Keeps the copy as read and its cover; false when the record is no longer open (the cover is then not its). */
  async keepCopy(id: number, c: { text: string; segments: CopySegment[]; title: string; duration: number; coverKey: string }): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `UPDATE replica_videos SET text = $2, segments = $3, title = CASE WHEN $4 = '' THEN title ELSE $4 END, duration = $5, cover_key = $7
        WHERE id = $1 AND status = ANY($6)`,
      [id, c.text, JSON.stringify(c.segments), c.title, c.duration, OPEN, c.coverKey],
    );
    return rowCount > 0;
  }

  async succeedVideo(id: number, analysis: VideoAnalysis): Promise<boolean> {
    const { rowCount } = await this.q.query(
      'UPDATE replica_videos SET status = $2, analysis = $3, finished_at = now() WHERE id = $1 AND status = ANY($4)',
      [id, ReplicaStatus.Done, JSON.stringify(analysis), OPEN],
    );
    return rowCount > 0;
  }

  /** Fails an open record; answers it when this call failed it (for the refund). */
  async failVideo(id: number, reason: string): Promise<VideoRow | undefined> {
    const { rows } = await this.q.query<VideoRow>(
      'UPDATE replica_videos SET status = $2, reason = $3, finished_at = now() WHERE id = $1 AND status = ANY($4) RETURNING *',
      [id, ReplicaStatus.Failed, reason, OPEN],
    );
    return rows[0];
  }

  /** Deletes the user's analysis; answers it (for its cover) or undefined. */
  async removeVideo(id: number, userId: number): Promise<VideoRow | undefined> {
    return (await this.q.query<VideoRow>('DELETE FROM replica_videos WHERE id = $1 AND user_id = $2 RETURNING *', [id, userId])).rows[0];
  }

  // ---- account analyses
  async addAccount(userId: number, description: string, analysis: AccountAnalysis): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      'INSERT INTO replica_accounts (user_id, description, analysis) VALUES ($1, $2, $3) RETURNING id',
      [userId, description, JSON.stringify(analysis)],
    );
    return rows[0]!.id;
  }

  accounts(userId: number, p: Paging) {
    return pageOfUser<AccountRow>(this.q, 'replica_accounts', userId, p);
  }

  removeAccount(id: number, userId: number) {
    return this.removeOwn('replica_accounts', id, userId);
  }

  // ---- scripts
  async addScript(userId: number, s: { kind: ScriptRow['kind']; analysisId: number | null; personaName: string; productName: string; topic: string; variants: ScriptVariant[] }): Promise<number> {
    const { rows } = await this.q.query<{ id: number }>(
      `INSERT INTO replica_scripts (user_id, kind, analysis_id, persona_name, product_name, topic, variants)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [userId, s.kind, s.analysisId, s.personaName, s.productName, s.topic, JSON.stringify(s.variants)],
    );
    return rows[0]!.id;
  }

  scripts(userId: number, p: Paging) {
    return pageOfUser<ScriptRow>(this.q, 'replica_scripts', userId, p);
  }

  /** Replaces the text of variant `index` of the user's kept script; false when there is no such script or variant. */
  async editScript(id: number, userId: number, index: number, text: string): Promise<boolean> {
    const { rowCount } = await this.q.query(
      `UPDATE replica_scripts SET variants = jsonb_set(variants, ARRAY[$3::text, 'text'], to_jsonb($4::text))
        WHERE id = $1 AND user_id = $2 AND jsonb_array_length(variants) > $3`,
      [id, userId, index, text],
    );
    return rowCount > 0;
  }

  removeScript(id: number, userId: number) {
    return this.removeOwn('replica_scripts', id, userId);
  }
}
