/**
 * The two extraction screens as data (part 2 §2.5, §2.6, §4, §5): /store/extraction and /store/audioExtraction
 * differ in words, their calls and the way selector; the tabs, the save name and the upload check are shared.
 */
import { API, ExtractionStatus, AudioExtractType, LIMITS, type ExtractionRecord } from '../../contract';

export interface ExtractionKind {
  route: '/store/extraction' | '/store/audioExtraction';
  title: string;
  subtitle: string;
  icon: 'import' | 'music';
  /** The material type a finished record is saved as. */
  material: 'video' | 'audio';
  start: string;
  list: typeof API.extraction.videoList | typeof API.extraction.audioList;
  /** Audio extraction offers the way selector (online link or local upload). */
  hasWays: boolean;
  /** Part 2 §8: audio extraction failures only close the loader (no toast). */
  silentFailures: boolean;
  /** The file extension a download is saved with. */
  ext: string;
}

export const VIDEO_EXTRACTION: ExtractionKind = {
  route: '/store/extraction', title: '视频提取', subtitle: '粘贴抖音、快手等平台的分享链接，提取无水印视频', icon: 'import',
  material: 'video', start: '开始解析', list: API.extraction.videoList, hasWays: false, silentFailures: false, ext: 'mp4',
};

export const AUDIO_EXTRACTION: ExtractionKind = {
  route: '/store/audioExtraction', title: '音频提取', subtitle: '从视频链接或本地视频中提取声音，生成 MP3', icon: 'music',
  material: 'audio', start: '开始提取', list: API.extraction.audioList, hasWays: true, silentFailures: true, ext: 'mp3',
};

/** Tabs: all (empty filter), processing (1), failed (4). */
export const TABS = [
  { id: 'all', title: '全部', status: undefined },
  { id: 'processing', title: '处理中', status: ExtractionStatus.Processing },
  { id: 'failed', title: '失败', status: ExtractionStatus.Failed },
] as const;
export type TabId = (typeof TABS)[number]['id'];

export const WAYS = [
  { value: AudioExtractType.Link, label: '在线提取' },
  { value: AudioExtractType.Upload, label: '本地上传' },
] as const;

/** Part 2 §7: a saved item is named after the first 15 characters of the record's desc. */
export const saveName = (desc: string) => [...desc.trim()].slice(0, LIMITS.analyseNameMaxChars).join('');

/** The download's file name: the save name (or the record's number) and the kind's extension. */
export const downloadName = (record: Pick<ExtractionRecord, 'id' | 'desc'>, kind: Pick<ExtractionKind, 'ext'>) =>
  `${saveName(record.desc).replace(/[\\/:*?"<>|\s]+/g, '_') || `提取${record.id}`}.${kind.ext}`;

/** What the link box holds before submit: something, and (said at once) a link somewhere in it. */
/** The list keeps asking while a record is processing. */
export const anyProcessing = (list: readonly Pick<ExtractionRecord, 'status'>[]) => list.some((r) => r.status === ExtractionStatus.Processing);

/** The audio screen's 本地上传 way: a video file instead of a link. */
export const byUpload = (kind: Pick<ExtractionKind, 'hasWays'>, way: number) => kind.hasWays && way === AudioExtractType.Upload;
