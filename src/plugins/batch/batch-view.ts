/**
 * What the batch screen shows, without the screen: the template's columns, the cells of a table (file or paste)
 * as grid rows, a row's names (avatar, voice, channel, music) turned into the ids a work needs — an unknown name
 * answered with the closest ones —, and the row states' labels.
 */
import { BatchRowStatus, MSG, type BatchRowFields } from '../../contract';

export const BATCH_ROUTE = '/batch';
export const TEMPLATE_HEADERS = ['名称', '文案', '数字人', '声音', '通道', '字幕', '背景音乐'] as const;
/** The template's example row. */
export const TEMPLATE_EXAMPLE = ['门店开业', '大家好，欢迎光临我们的新店。', '（数字人的名称）', '（声音的名称）', '（通道名称）', '否', ''];

export interface GridRow {
  key: number;
  name: string;
  text: string;
  avatar: string;
  voice: string;
  channel: string;
  subtitles: string;
  bgm: string;
}
export type GridField = Exclude<keyof GridRow, 'key'>;
export const GRID_FIELDS: readonly GridField[] = ['name', 'text', 'avatar', 'voice', 'channel', 'subtitles', 'bgm'];

/** Named things a row may use: avatars and voices (mine and public), channels, background music. */
export interface Catalog {
  avatars: readonly { id: number; name: string }[];
  voices: readonly { id: number; name: string }[];
  channels: readonly { api: string; name: string }[];
  music: readonly { id: string; name: string }[];
}

let nextKey = 1;
export const blankRow = (): GridRow => ({ key: nextKey++, name: '', text: '', avatar: '', voice: '', channel: '', subtitles: '否', bgm: '' });

const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());

/**
 * Grid rows of a table's cells: columns found by the template's headers when the first row has them (else in the
 * template's order); empty rows are left out.
 */
export function rowsFromCells(cells: readonly (readonly unknown[])[]): GridRow[] {
  const head = (cells[0] ?? []).map(cell);
  const hasHeader = TEMPLATE_HEADERS.some((h) => head.includes(h));
  const column = TEMPLATE_HEADERS.map((h, i) => (hasHeader ? head.indexOf(h) : i));
  return (hasHeader ? cells.slice(1) : cells)
    .map((r) => {
      const at = (i: number) => (column[i]! >= 0 ? cell(r[column[i]!]) : '');
      return { ...blankRow(), name: at(0), text: at(1), avatar: at(2), voice: at(3), channel: at(4), subtitles: at(5) || '否', bgm: at(6) };
    })
    .filter((r) => GRID_FIELDS.some((f) => f !== 'subtitles' && r[f]));
}

/** Edit distance, for the closest names offered. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[b.length]!;
}

/** Up to three names nearest to `name` (those sharing a character first). */
export function closestNames(name: string, names: readonly string[], n = 3): string[] {
  const scored = [...new Set(names)].map((x) => ({ x, d: distance(name, x) - ([...name].some((c) => x.includes(c)) ? 0.5 : 0) }));
  return scored.sort((p, q) => p.d - q.d).slice(0, n).map((s) => s.x);
}

const unknown = (message: string, name: string, names: readonly string[]) => {
  const near = closestNames(name, names);
  return near.length ? `${message}${MSG.batchClosest(near)}` : message;
};

/** A row as the server takes it, or the error of a name that matches nothing (with the closest names). */
export function resolveRow(row: GridRow, c: Catalog): { fields: BatchRowFields } | { error: string; field: GridField } {
  const avatar = c.avatars.find((a) => a.name === row.avatar);
  if (row.avatar && !avatar) return { field: 'avatar', error: unknown(MSG.batchAvatarUnknown(row.avatar), row.avatar, c.avatars.map((a) => a.name)) };
  const voice = c.voices.find((v) => v.name === row.voice);
  if (row.voice && !voice) return { field: 'voice', error: unknown(MSG.batchVoiceUnknown(row.voice), row.voice, c.voices.map((v) => v.name)) };
  const channel = row.channel ? c.channels.find((x) => x.name === row.channel || x.api === row.channel) : c.channels[0];
  if (row.channel && !channel) return { field: 'channel', error: unknown(MSG.batchChannelUnknown(row.channel), row.channel, c.channels.map((x) => x.name)) };
  const bgm = c.music.find((m) => m.name === row.bgm);
  if (row.bgm && !bgm) return { field: 'bgm', error: unknown(MSG.musicTrackMissing, row.bgm, c.music.map((m) => m.name)) };
  return {
    fields: {
      name: row.name, text: row.text, video_id: avatar?.id, user_voice_id: voice?.id, api: channel?.api,
      subtitles: row.subtitles === '是' ? 1 : 0, ...(bgm ? { bgm: bgm.id } : {}),
    },
  };
}

export const ROW_STATUS: Record<number, { text: string; intent: 'none' | 'primary' | 'success' | 'danger' | 'warning' }> = {
  [BatchRowStatus.Queued]: { text: '排队中', intent: 'none' },
  [BatchRowStatus.Rendering]: { text: '合成中', intent: 'primary' },
  [BatchRowStatus.Done]: { text: '已完成', intent: 'success' },
  [BatchRowStatus.Failed]: { text: '失败', intent: 'danger' },
  [BatchRowStatus.Cancelled]: { text: '已取消', intent: 'warning' },
};
