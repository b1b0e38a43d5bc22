import { API } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';

export function registerGuideRoutes({ router, db }: FeatureContext): void {
  router.handle(API.guide.list, async () => {
    const { rows } = await db.query<{ category: string; name: string; cover: string; video_url: string }>(
      `SELECT c.name AS category, g.name, g.cover, g.video_url
         FROM guide_categories c JOIN guides g ON g.category_id = c.id ORDER BY c.id, g.id`,
    );
    const byCategory = new Map<string, { name: string; items: { name: string; cover: string; video_url: string }[] }>();
    for (const r of rows) {
      if (!byCategory.has(r.category)) byCategory.set(r.category, { name: r.category, items: [] });
      byCategory.get(r.category)!.items.push({ name: r.name, cover: r.cover, video_url: r.video_url });
    }
    return { list: [...byCategory.values()] };
  });
}
