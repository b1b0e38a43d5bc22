/** Notices (公告) and which user has read which. */
import type { Queryable } from '../../infra/db';

export interface NoticeRow {
  id: number;
  title: string;
  summary: string;
  content: string;
  created_at: Date;
}

/** A notice in a user's list: without its content, with whether the user has opened it. */
export type NoticeListRow = Omit<NoticeRow, 'content'> & { read: boolean };

export class NoticeRepository {
  constructor(private readonly db: Queryable) {}

  /** The newest 200 of the site's and this user's own, each with whether this user has opened it. */
  async listFor(userId: number): Promise<NoticeListRow[]> {
    const { rows } = await this.db.query<NoticeListRow>(
      `SELECT n.id, n.title, n.summary, n.created_at, (r.user_id IS NOT NULL) AS read
         FROM notices n LEFT JOIN notice_reads r ON r.notice_id = n.id AND r.user_id = $1
        WHERE n.user_id IS NULL OR n.user_id = $1
        ORDER BY n.created_at DESC, n.id DESC LIMIT 200`,
      [userId],
    );
    return rows;
  }

  /** A site notice, or one of this user's own (another user's is not found). */
  async find(id: number, userId: number): Promise<NoticeRow | undefined> {
    const { rows } = await this.db.query<NoticeRow>('SELECT id, title, summary, content, created_at FROM notices WHERE id = $1 AND (user_id IS NULL OR user_id = $2)', [id, userId]);
    return rows[0];
  }

  async markRead(noticeId: number, userId: number): Promise<void> {
    await this.db.query('INSERT INTO notice_reads (notice_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [noticeId, userId]);
  }

  /** A notice for one user alone. */
  async addFor(userId: number, notice: { title: string; summary: string; content: string }): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>('INSERT INTO notices (user_id, title, summary, content) VALUES ($1, $2, $3, $4) RETURNING id', [
      userId,
      notice.title,
      notice.summary,
      notice.content,
    ]);
    return rows[0]!.id;
  }

  /** An operator's new notice. */
  async add(notice: { title: string; summary: string; content: string }): Promise<number> {
    const { rows } = await this.db.query<{ id: number }>('INSERT INTO notices (title, summary, content) VALUES ($1, $2, $3) RETURNING id', [
      notice.title,
      notice.summary,
      notice.content,
    ]);
    return rows[0]!.id;
  }
}
