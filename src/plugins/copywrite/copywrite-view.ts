/** Copy extraction's screens as data: states, sources, the checks before a submit, names and addresses. */
import {
  API, COPY_SOURCE_NAMES, COPYWRITE_STATUS_NAMES, CopywriteStatus, CopywriteType, REWRITE_STYLE_NAMES, REWRITE_STYLES,
  type CopyRecord, type RewriteStyle,
} from '../../contract';

export const COPYWRITE_ROUTE = '/copywrite/index';
export const TRACE_ROUTE = '/store/copywrite/trace';

export const WAYS = [
  { value: CopywriteType.Link, label: '粘贴链接' },
  { value: CopywriteType.Upload, label: '上传视频' },
] as const;

export const STYLES: readonly { value: RewriteStyle; label: string }[] = REWRITE_STYLES.map((value) => ({ value, label: REWRITE_STYLE_NAMES[value] }));

export type Intent = 'none' | 'primary' | 'success' | 'danger';
const INTENTS: Record<number, Intent> = { [CopywriteStatus.Queued]: 'none', [CopywriteStatus.Running]: 'primary', [CopywriteStatus.Done]: 'success', [CopywriteStatus.Failed]: 'danger' };

export const statusOf = (r: Pick<CopyRecord, 'status'>) => ({ text: COPYWRITE_STATUS_NAMES[r.status] ?? '', intent: INTENTS[r.status] ?? 'none' });
export const isOpen = (r: Pick<CopyRecord, 'status'>) => r.status === CopywriteStatus.Queued || r.status === CopywriteStatus.Running;
export const anyOpen = (list: readonly Pick<CopyRecord, 'status'>[]) => list.some(isOpen);

/** 来源：语音识别 / 画面字幕 ('' until read). */
export const sourceLabel = (r: Pick<CopyRecord, 'source'>) => (r.source ? `来源：${COPY_SOURCE_NAMES[r.source]}` : '');

/** What a record is called: its title, its link, or its number. */
export const recordTitle = (r: Pick<CopyRecord, 'id' | 'title' | 'link'>) => r.title || r.link || `文案提取 #${r.id}`;

/** The start of a copy on one line, for lists. */
export function preview(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return [...flat].length > max ? `${[...flat].slice(0, max).join('')}…` : flat;
}

/** 0:03.2 — where a sentence is, to the tenth of a second. */
export function clockOf(seconds: number): string {
  const s = Math.max(0, seconds);
  return `${Math.floor(s / 60)}:${(s % 60).toFixed(1).padStart(4, '0')}`;
}

/** The rewrite stream's address: the token rides in the query (an event stream cannot set headers). */
export function rewriteUrl(token: string, p: { id: number; style: RewriteStyle; instruction?: string }): string {
  const q: Record<string, string> = { token, id: String(p.id), style: p.style };
  if (p.style === 'custom' && p.instruction) q.instruction = p.instruction;
  return `${API.copywrite.rewrite.path}?${new URLSearchParams(q)}`;
}
