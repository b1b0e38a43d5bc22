/** The AI-writing themes and their topics (seeded by a migration), in the operator's order. */
import type { Queryable } from '../../infra/db';

export interface ThemeTopicRow {
  id: number;
  name: string;
  /** null for a theme without topics. */
  topic: string | null;
}

export class WritingRepository {
  constructor(private readonly db: Queryable) {}

  /** Every theme with each of its topics, one row a topic, themes and topics in their sort order. */
  async themeTopics(): Promise<ThemeTopicRow[]> {
    const { rows } = await this.db.query<ThemeTopicRow>(
      `SELECT t.id, t.name, p.name AS topic FROM writing_themes t LEFT JOIN writing_topics p ON p.theme_id = t.id
        ORDER BY t.sort, t.id, p.sort, p.id`,
    );
    return rows;
  }
}
