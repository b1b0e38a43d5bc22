import { API } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { GuideRepository } from './guide.repository';

export function registerGuideRoutes({ router, db }: FeatureContext): void {
  const guides = new GuideRepository(db);

  router.handle(API.guide.list, async () => {
    const byCategory = new Map<string, { name: string; items: { name: string; cover: string; video_url: string }[] }>();
    for (const r of await guides.listAll()) {
      if (!byCategory.has(r.category)) byCategory.set(r.category, { name: r.category, items: [] });
      byCategory.get(r.category)!.items.push({ name: r.name, cover: r.cover, video_url: r.video_url });
    }
    return { list: [...byCategory.values()] };
  });
}
