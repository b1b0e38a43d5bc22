/** The material library: list by type and source, rename, delete (with the file it holds), save a chat answer. */
import { API, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import type { FeatureContext } from '../../app-context';
import { deleteObjects } from '../../infra/user-files';

interface MaterialRow {
  id: number;
  name: string;
  type: 'video' | 'audio' | 'image' | 'text';
  source: number;
  origin: string;
  text: string;
  created_at: Date;
  object_key: string | null;
  duration: number | null;
}

export function registerMaterialRoutes(ctx: FeatureContext): void {
  const { router, db, urls } = ctx;

  router.handle(API.material.list, async ({ params, user }) => {
    const where = ['m.user_id = $1'];
    const args: unknown[] = [user.id];
    if (params.type) {
      args.push(params.type);
      where.push(`m.type = $${args.length}`);
    }
    if (params.source) {
      args.push(params.source);
      where.push(`m.source = $${args.length}`);
    }
    const limit = params.limit > 0 ? Math.min(params.limit, 9999) : 20;
    const offset = (Math.max(params.page, 1) - 1) * limit;
    const { rows } = await db.query<MaterialRow>(
      `SELECT m.*, f.object_key, f.duration FROM materials m LEFT JOIN files f ON f.id = m.file_id
        WHERE ${where.join(' AND ')} ORDER BY m.id DESC LIMIT ${limit} OFFSET ${offset}`,
      args,
    );
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
    const { rowCount } = await db.query('UPDATE materials SET name = $3 WHERE id = $1 AND user_id = $2', [params.id, user.id, params.name]);
    if (rowCount === 0) throw new ApiError(MSG.notFound);
    return {};
  });

  router.handle(API.material.remove, async ({ params, user }) => {
    const { rows } = await db.query<{ object_key: string | null }>(
      `DELETE FROM materials m USING materials m2 LEFT JOIN files f ON f.id = m2.file_id
        WHERE m.id = $1 AND m.user_id = $2 AND m2.id = m.id RETURNING f.object_key`,
      [params.id, user.id],
    );
    if (!rows[0]) throw new ApiError(MSG.notFound);
    if (rows[0].object_key) await deleteObjects(ctx, [rows[0].object_key]);
    return {};
  });

  router.handle(API.material.saveText, async ({ params, user }) => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO materials (user_id, type, name, source, origin, text) VALUES ($1, 'text', $2, 2, $3, $4) RETURNING id`,
      [user.id, params.name, params.source, params.text],
    );
    return { id: rows[0]!.id };
  });
}
