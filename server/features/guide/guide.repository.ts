/** Tutorials (/use): categories and their videos, in the order the operator added them. */
import type { Queryable } from '../../infra/db';

export interface GuideRow {
  category: string;
  name: string;
  cover: string;
  video_url: string;
}

export class GuideRepository {
  constructor(private readonly db: Queryable) {}

  listAll(): Promise<GuideRow[]> {
    return this.db
      .query<GuideRow>(
        `SELECT c.name AS category, g.name, g.cover, g.video_url
           FROM guide_categories c JOIN guides g ON g.category_id = c.id ORDER BY c.id, g.id`,
      )
      .then((r) => r.rows);
  }

  /** An operator's new tutorial; its category is made on first use. */
  async add(guide: GuideRow): Promise<number> {
    await this.db.query('INSERT INTO guide_categories (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [guide.category]);
    const { rows } = await this.db.query<{ id: number }>(
      'INSERT INTO guides (category_id, name, cover, video_url) SELECT id, $2, $3, $4 FROM guide_categories WHERE name = $1 RETURNING id',
      [guide.category, guide.name, guide.cover, guide.video_url],
    );
    return rows[0]!.id;
  }
}
