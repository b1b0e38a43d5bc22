/** Pure helpers of the works page: the tabs and their list filters, statuses, waiting messages, file names. */
import { MSG, WorkStatus, type TranslationRecord, type Work } from '../../contract';

export type TabKey = 'avatar' | 'pet' | 'photo' | 'translate' | 'oneclick' | 'multiVideo' | 'multiAudio';
export type Level1 = 0 | 1;

export interface WorksFilter {
  is_multi: 0 | 1;
  photo_type?: 0 | 1 | 2;
  only_audio?: 0 | 1;
  /** ours: one-click works (/cozeVideo) have their own tab. */
  oneclick?: 0 | 1;
}

export interface WorksTab {
  key: TabKey;
  /** Query type1: 0 video works, 1 multi-scene works. */
  type1: Level1;
  /** Query type2 inside type1 (part 2 §2.1: 3 is translation; 4 and 5 are ours, for 照片说话 and 一键成片). */
  type2: number;
  title: string;
  /** works.list with a filter, or the translated-video list. */
  filter: WorksFilter | 'translate';
  /** Where 去创作 goes from this tab's empty state. */
  create: { route: string; label: string };
  audio?: boolean;
}

/** The six lists of part 1 §2 Works and ours (一键成片), in display order; filters as works.list documents them. */
export const WORKS_TABS: readonly WorksTab[] = [
  { key: 'avatar', type1: 0, type2: 1, title: '数字人视频', filter: { is_multi: 0, photo_type: 0, oneclick: 0 }, create: { route: '/create', label: '去创作' } },
  { key: 'pet', type1: 0, type2: 2, title: '宠物视频', filter: { is_multi: 0, photo_type: 2 }, create: { route: '/pet', label: '去创作宠物视频' } },
  { key: 'photo', type1: 0, type2: 4, title: '照片说话', filter: { is_multi: 0, photo_type: 1 }, create: { route: '/store/imageSpeak', label: '去创作照片说话' } },
  { key: 'translate', type1: 0, type2: 3, title: '翻译视频', filter: 'translate', create: { route: '/store/sea', label: '去翻译视频' } },
  { key: 'oneclick', type1: 0, type2: 5, title: '一键成片', filter: { is_multi: 0, oneclick: 1 }, create: { route: '/cozeVideo', label: '去一键成片' } },
  { key: 'multiVideo', type1: 1, type2: 1, title: '多场景视频', filter: { is_multi: 1, only_audio: 0 }, create: { route: '/multiples', label: '去创作多场景' } },
  { key: 'multiAudio', type1: 1, type2: 2, title: '多场景音频', filter: { is_multi: 1, only_audio: 1 }, create: { route: '/multiples', label: '去创作多场景' }, audio: true },
];

export const LEVEL1: readonly { type1: Level1; title: string }[] = [
  { type1: 0, title: '视频作品' },
  { type1: 1, title: '多场景作品' },
];

export const tabsOf = (type1: Level1) => WORKS_TABS.filter((t) => t.type1 === type1);

/** The tab the query selects: type1 (default 0) and type2 (default that level's first tab). */
export function tabFromQuery(query: Record<string, string | undefined>): WorksTab {
  const type1: Level1 = query.type1 === '1' ? 1 : 0;
  const tabs = tabsOf(type1);
  return tabs.find((t) => String(t.type2) === query.type2) ?? tabs[0]!;
}

export type WorkPhase = 'done' | 'failed' | 'waiting';
/** Work.status (part 1 §4): 3 success, 4 failed, anything else in progress. */
export function workPhase(status: number | undefined): WorkPhase {
  if (status === WorkStatus.Success) return 'done';
  if (status === WorkStatus.Failed) return 'failed';
  return 'waiting';
}

/** The per-channel waiting line of a work in progress (part 1 §4), and our local engine's. */
export function waitingMessage(apiKey: string | undefined): string {
  switch (apiKey) {
    case 'ou':
      return '排队训练中，请耐心等待';
    case 'gj':
      return '免费通道排队中，等待时间不确定';
    case 'df':
      return '极速训练中，预计 3-5 分钟';
    case 'fy':
      return '深度训练中，预计 6-10 分钟';
    case 'local':
      return '本地合成中';
    case 'lip':
      return MSG.lipSyncWaiting;
    case 'translate':
      return '视频翻译中，请耐心等待';
    default:
      return '视频合成中，请耐心等待';
  }
}

/** One card of the page, from a work or a translated video. */
export interface WorkItem {
  id: number;
  kind: 'work' | 'translate';
  name: string;
  url: string;
  cover: string;
  status: number;
  apiKey: string;
  apiName: string;
  createTime: string;
  duration?: number;
  reason?: string;
  /** On a remote lip-sync engine: how many go before it in our queue; there or on this machine: the progress (0–100). */
  queueAhead?: number;
  progress?: number;
  /** Rendering on this machine: about how many seconds are left. */
  secondsLeft?: number;
  /** The subtitles (SRT) of a work whose speech has timed text, or of a translated video, once done. */
  srt?: string;
}

export function fromWork(w: Work): WorkItem {
  return {
    id: w.id, kind: 'work', name: w.name, url: w.url, cover: w.cover, status: w.status, apiKey: w.api_key, apiName: w.api_name,
    createTime: w.create_time, duration: w.duration, reason: w.reason, queueAhead: w.queue_ahead, progress: w.progress, secondsLeft: w.seconds_left, srt: w.srt || undefined,
  };
}

/** Under the waiting line of a work in progress: its place in a remote engine's queue, or its progress (and time left here). */
export function progressLine(item: Pick<WorkItem, 'queueAhead' | 'progress' | 'secondsLeft'>): string {
  if (item.queueAhead !== undefined) return MSG.workQueueAhead(item.queueAhead);
  if (item.progress !== undefined) return MSG.workProgress(Math.round(item.progress), item.secondsLeft);
  return '';
}

/** A translated video without a status is finished when it has a url. */
export function fromTranslate(t: TranslationRecord): WorkItem {
  return {
    id: t.id, kind: 'translate', name: t.name, url: t.url, cover: t.cover ?? '', status: t.status ?? (t.url ? WorkStatus.Success : 1),
    apiKey: 'translate', apiName: '视频翻译', createTime: t.create_time ?? '', reason: t.reason, duration: t.duration, srt: t.srt || undefined,
  };
}

/** Whether the page keeps polling: the server's in-progress count, or any card still waiting. */
export function inProgress(items: readonly Pick<WorkItem, 'status'>[], generate?: number): boolean {
  return (generate ?? 0) > 0 || items.some((i) => workPhase(i.status) === 'waiting');
}

/** A safe download name: the work's name (未命名 when blank) and the url's extension. */
export function downloadFileName(name: string, url: string, fallbackExt = 'mp4'): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const ext = /\.([A-Za-z0-9]{1,8})$/.exec(path)?.[1]?.toLowerCase() ?? fallbackExt;
  const base = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 80) || '未命名';
  return `${base}.${ext}`;
}

/** Whether a url is an audio file (multi-scene audio works play in an audio player). */
export function isAudioUrl(url: string): boolean {
  return /\.(mp3|m4a|wav|aac|ogg)$/i.test(url.split(/[?#]/)[0] ?? '');
}

