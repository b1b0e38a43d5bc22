/** The material library: list by type and source, rename, delete (with the file it holds), save a chat answer. */
import { API, MSG } from '../../../src/contract';
import { found } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import type { FeatureContext } from '../../app-context';
import { requestedPage } from '../../infra/db';
import { deleteObjects } from '../../infra/user-files';
import { MaterialRepository } from './material.repository';

export function registerMaterialRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;
  const materials = new MaterialRepository(db);

  router.handle(API.material.list, async ({ params, user }) => {
    const rows = await materials.list(user.id, { type: params.type, source: params.source, ...requestedPage(params, 20, 9999) });
    return {
      list: rows.map((m) => {
        const url = m.object_key ? urls.url(m.object_key) : '';
        return {
          id: m.id,
          name: m.name,
          url,
          cover: m.type === 'image' ? url : '',
          source: Number(m.source),
          type: m.type,
          origin: m.origin || undefined,
          text: m.type === 'text' ? m.text : undefined,
          duration: m.duration ? Number(m.duration) : undefined,
          create_time: formatDateTime(m.created_at),
        };
      }),
    };
  });

  router.handle(API.material.rename, async ({ params, user }) => {
    found(await materials.rename(params.id, user.id, params.name), MSG.notFound);
    return {};
  });

  router.handle(API.material.remove, async ({ params, user }) => {
    const removed = found(await materials.remove(params.id, user.id), MSG.notFound);
    if (removed.objectKey) await deleteObjects(ctx, [removed.objectKey]);
    return {};
  });

  router.handle(API.material.saveText, async ({ params, user }) => ({
    id: await materials.addText(user.id, { name: params.name, origin: params.source, text: params.text }),
  }));
}
