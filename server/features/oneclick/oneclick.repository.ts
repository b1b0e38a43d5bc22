/** Every SQL statement of one-click creation: projects (the storyboard drafts) and the pictures a storyboard may show. */
import { OneclickDraft } from '../../../src/contract';
import type { Queryable } from '../../infra/db';

export interface ProjectRow {
  id: number;
  name: string;
  draft: string;
  scene_count: number;
  work_id: number | null;
  created_at: Date;
  /** Of its latest work (null when never rendered, or the work was deleted). */
  status: number | null;
  video_key: string | null;
  cover_key: string | null;
  duration: number | null;
  reason: string | null;
}

const PROJECT = `SELECT p.id, p.name, p.draft, p.scene_count, p.work_id, p.created_at, w.status, w.video_key, w.cover_key, w.duration, w.reason
  FROM oneclick_projects p LEFT JOIN works w ON w.id = p.work_id`;

export class OneclickRepository {
  constructor(private readonly q: Queryable) {}

  /** A picture the user may show: their own image (upload, material, generated) or a public one, by its object key. */
  async usablePicture(userId: number, key: string): Promise<string | undefined> {
    const { rows } = await this.q.query<{ object_key: string }>(
      `SELECT object_key FROM files WHERE object_key = $1 AND (user_id = $2 OR user_id IS NULL) AND kind = 'image'`,
      [key, userId],
    );
    return rows[0]?.object_key;
  }

  /** A new project, or the user's project `id` changed; undefined when `id` is not the user's. */
  async save(userId: number, p: { id?: number; name: string; draft: string; sceneCount: number }): Promise<number | undefined> {
    if (p.id === undefined) {
      const { rows } = await this.q.query<{ id: number }>(
        'INSERT INTO oneclick_projects (user_id, name, draft, scene_count) VALUES ($1, $2, $3, $4) RETURNING id',
        [userId, p.name, p.draft, p.sceneCount],
      );
      return rows[0]!.id;
    }
    const { rows } = await this.q.query<{ id: number }>(
      'UPDATE oneclick_projects SET name = $3, draft = $4, scene_count = $5, updated_at = now() WHERE id = $1 AND user_id = $2 RETURNING id',
      [p.id, userId, p.name, p.draft, p.sceneCount],
    );
    return rows[0]?.id;
  }

  /** The project's latest render. */
  async setWork(projectId: number, userId: number, workId: number): Promise<boolean> {
    const { rowCount } = await this.q.query('UPDATE oneclick_projects SET work_id = $3, updated_at = now() WHERE id = $1 AND user_id = $2', [projectId, userId, workId]);
    return rowCount > 0;
  }

  async get(id: number, userId: number): Promise<ProjectRow | undefined> {
    const { rows } = await this.q.query<ProjectRow>(`${PROJECT} WHERE p.id = $1 AND p.user_id = $2`, [id, userId]);
    return rows[0];
  }

  async count(userId: number): Promise<number> {
    const { rows } = await this.q.query<{ n: number }>('SELECT count(*)::int AS n FROM oneclick_projects WHERE user_id = $1', [userId]);
    return Number(rows[0]!.n);
  }

  /** Newest changed first; `limit` and `offset` are validated integers. */
  async list(userId: number, limit: number, offset: number): Promise<ProjectRow[]> {
    const { rows } = await this.q.query<ProjectRow>(`${PROJECT} WHERE p.user_id = $1 ORDER BY p.updated_at DESC, p.id DESC LIMIT ${limit} OFFSET ${offset}`, [userId]);
    return rows;
  }

  async remove(id: number, userId: number): Promise<boolean> {
    const { rowCount } = await this.q.query('DELETE FROM oneclick_projects WHERE id = $1 AND user_id = $2', [id, userId]);
    return rowCount > 0;
  }
}

/** A project's state as history shows it. */
export const projectStatus = (row: ProjectRow): number => (row.status === null ? OneclickDraft : Number(row.status));
