import { API, PROTOCOL_TYPES, PROTOCOL_TITLES } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';

export function registerSiteRoutes({ router, settings, db, config }: FeatureContext): void {
  router.handle(API.site.site, () => settings.siteInfo());

  router.handle(API.site.protocol, async ({ params }) => {
    const info = await settings.siteInfo();
    return { title: PROTOCOL_TITLES[params.type], content: info[PROTOCOL_TYPES[params.type]] };
  });

  router.handle(API.site.health, async () => {
    await db.query('SELECT 1');
    return { status: 'ok' as const, role: config.role, database: db.kind };
  });
}
