/** Avatar lists: a user's own (source 1) and the public ones (source 2, no owner). */
import { API } from '../../../src/contract';
import type { ObjectUrls } from '../../infra/object-urls';
import type { FeatureContext } from '../../app-context';

interface AvatarRow {
  id: number;
  user_id: number | null;
  name: string;
  video_key: string;
  cover_key: string;
  cover_small_key: string;
  orientation: number;
  duration: number;
  status: number;
}

export const toAvatar = (urls: ObjectUrls) => (r: AvatarRow & { reason?: string }) => ({
  id: r.id,
  name: r.name,
  url: urls.url(r.video_key),
  cover: urls.url(r.cover_key),
  cover_small: urls.url(r.cover_small_key || r.cover_key),
  source: r.user_id === null ? 2 : 1,
  status: Number(r.status),
  duration: Number(r.duration),
  orientation: Number(r.orientation),
  reason: r.reason || undefined,
});

/** LIMIT/OFFSET from the spec's page (1-based) and limit; limit 0 means everything. */
function window(page: number, limit: number): string {
  if (limit <= 0) return '';
  return `LIMIT ${limit} OFFSET ${(Math.max(page, 1) - 1) * limit}`;
}

const owner = (source: number) => (source === 2 ? 'user_id IS NULL' : 'user_id = $1');

export function registerPublicMediaRoutes({ router, db, urls }: FeatureContext): void {
  router.handle(API.avatar.list, async ({ params, user }) => {
    const args: unknown[] = [user.id, params.name ? `%${params.name}%` : '%'];
    const { rows } = await db.query<AvatarRow>(
      `SELECT * FROM avatars WHERE ${owner(params.source)} AND ($1::int IS NOT NULL) AND name ILIKE $2 ORDER BY id DESC ${window(params.page, params.limit)}`,
      args,
    );
    return { list: rows.map(toAvatar(urls)) };
  });

  router.handle(API.avatar.publicList, async ({ params }) => {
    const list = async (orientation: number) => {
      const { rows } = await db.query<AvatarRow>(
        `SELECT * FROM avatars WHERE user_id IS NULL AND status = 3 AND orientation = $1 AND name ILIKE $2 ORDER BY id ${window(params.page, params.limit)}`,
        [orientation, params.name ? `%${params.name}%` : '%'],
      );
      return rows.map(toAvatar(urls));
    };
    return { hlist: await list(1), slist: await list(2) };
  });
}
