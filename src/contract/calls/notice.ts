/** Notice centre (part 1 §1, §3, §7). */
import { z } from 'zod';
import { defineGroup } from '../call';
import { Flag, Timestamp, userCallById, userList } from './fields';

/** What the notice list and a notice's page both show of it. */
const NoticeHead = z.object({ id: z.number(), title: z.string(), desc: z.string(), create_time: Timestamp });

export const NoticeSummary = NoticeHead.extend({
  /** ours: 1 once this user opened the notice. */
  read: Flag,
});
export type NoticeSummary = z.infer<typeof NoticeSummary>;

export const Notice = NoticeHead.extend({
  /** HTML; the client sanitizes before rendering. */
  content: z.string(),
});
export type Notice = z.infer<typeof Notice>;

export const noticeCalls = defineGroup('notice', {
  list: userList({ path: '/api/user/notice', pathFromSpec: false, summary: 'Notice list, newest first, with this user\'s read flag; an empty list shows MSG.noNotices (spec name: notice).' }, NoticeSummary),
  detail: userCallById('GET', '/api/user/noticeDetail', '公告ID', {
    summary: 'One notice with its HTML content; marks it read for this user.',
    response: Notice,
  }),
});
