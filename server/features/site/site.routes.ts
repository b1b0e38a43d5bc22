import { API, PROTOCOL_TYPES, PROTOCOL_TITLES } from '../../../src/contract';
import type { FeatureContext } from '../../app-context';
import { HealthRepository } from './site.repository';

export function registerSiteRoutes({ router, settings, db, config }: FeatureContext): void {
  const health = new HealthRepository(db);

  router.handle(API.site.site, () => settings.siteInfo());

  router.handle(API.site.protocol, async ({ params }) => {
    const info = await settings.siteInfo();
    return { title: PROTOCOL_TITLES[params.type], content: info[PROTOCOL_TYPES[params.type]] };
  });

  router.handle(API.site.health, async () => {
    await health.ping();
    return { status: 'ok' as const, role: config.role, database: db.kind };
  });
}
