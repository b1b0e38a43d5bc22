/**
 * A clone takes a while: its owner may have left the page. Its end (ready or failed) becomes a notice of theirs in the
 * top bar's bell, beside the toast an open page shows (issue 33).
 */
import { MSG } from '../../../src/contract';
import type { Queryable } from '../../infra/db';
import { NoticeRepository } from './notice.repository';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const SAID = {
  avatar: { ready: MSG.avatarCloneReady, failed: MSG.avatarCloneFailed, where: '在「我的数字人」中查看' },
  voice: { ready: MSG.voiceCloneReady, failed: MSG.voiceCloneFailed, where: '在「我的声音」中查看' },
} as const;

export async function notifyCloneEnded(q: Queryable, end: { userId: number | null; kind: 'avatar' | 'voice'; name: string; failedReason?: string }): Promise<void> {
  if (end.userId === null) return; // an operator's public avatar or voice: no one to tell
  const said = SAID[end.kind];
  const title = end.failedReason === undefined ? said.ready(end.name) : said.failed(end.name);
  const summary = end.failedReason === undefined ? said.where : `原因：${end.failedReason}`;
  await new NoticeRepository(q).addFor(end.userId, { title, summary, content: `<p>${escapeHtml(title)}</p><p>${escapeHtml(summary)}</p>` });
}
