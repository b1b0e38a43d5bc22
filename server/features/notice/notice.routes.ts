import { API, MSG } from '../../../src/contract';
import { ApiError } from '../../infra/http';
import { formatDateTime } from '../../infra/time';
import type { FeatureContext } from '../../app-context';
import { NoticeRepository } from './notice.repository';

export function registerNoticeRoutes({ router, db }: FeatureContext): void {
  const notices = new NoticeRepository(db);

  router.handle(API.notice.list, async ({ user }) => {
    const rows = await notices.listFor(user.id);
    return { list: rows.map((r) => ({ id: r.id, title: r.title, desc: r.summary, create_time: formatDateTime(r.created_at), read: (r.read ? 1 : 0) as 0 | 1 })) };
  });

  router.handle(API.notice.detail, async ({ params, user }) => {
    const notice = await notices.find(params.id, user.id);
    if (!notice) throw new ApiError(MSG.notFound);
    await notices.markRead(notice.id, user.id);
    return { id: notice.id, title: notice.title, desc: notice.summary, create_time: formatDateTime(notice.created_at), content: notice.content };
  });
}
