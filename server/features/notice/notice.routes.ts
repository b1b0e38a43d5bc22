import { API, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import type { FeatureContext } from '../../app-context';

interface NoticeRow {
  id: number;
  title: string;
  summary: string;
  content: string;
  created_at: Date;
  read: boolean;
}

export function registerNoticeRoutes({ router, db }: FeatureContext): void {
  router.handle(API.notice.list, async ({ user }) => {
    const { rows } = await db.query<NoticeRow>(
      `SELECT n.id, n.title, n.summary, n.created_at, (r.user_id IS NOT NULL) AS read
         FROM notices n LEFT JOIN notice_reads r ON r.notice_id = n.id AND r.user_id = $1
        ORDER BY n.created_at DESC, n.id DESC LIMIT 200`,
      [user.id],
    );
    return { list: rows.map((r) => ({ id: r.id, title: r.title, desc: r.summary, create_time: formatDateTime(r.created_at), read: (r.read ? 1 : 0) as 0 | 1 })) };
  });

  router.handle(API.notice.detail, async ({ params, user }) => {
    const { rows } = await db.query<NoticeRow>('SELECT id, title, summary, content, created_at FROM notices WHERE id = $1', [params.id]);
    const notice = rows[0];
    if (!notice) throw new ApiError(MSG.notFound);
    await db.query('INSERT INTO notice_reads (notice_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [notice.id, user.id]);
    return { id: notice.id, title: notice.title, desc: notice.summary, create_time: formatDateTime(notice.created_at), content: notice.content };
  });
}
