/** Pure helpers of the materials page: tabs, the source filter, labels. */
import { LIMITS, MATERIAL_SOURCES, MSG, type Material, type MaterialType } from '../../contract';

export const MATERIAL_ROUTE = '/material/index';

export const MATERIAL_TABS: readonly { type: MaterialType; title: string; icon: 'video' | 'music' | 'media' | 'document' }[] = [
  { type: 'video', title: '视频', icon: 'video' },
  { type: 'audio', title: '音频', icon: 'music' },
  { type: 'image', title: '图片', icon: 'media' },
  { type: 'text', title: '文本', icon: 'document' },
];

export type MaterialSource = (typeof MATERIAL_SOURCES)[number];
/** material.list's source filter (the contract's reading of the spec's 0/1/2). */
export const SOURCE_OPTIONS: readonly { value: MaterialSource; label: string }[] = [
  { value: 0, label: '全部' },
  { value: 1, label: '我上传的' },
  { value: 2, label: '工具保存' },
];

export function typeFromQuery(value: string | undefined): MaterialType {
  return MATERIAL_TABS.find((t) => t.type === value)?.type ?? 'video';
}

export function sourceFromQuery(value: string | undefined): MaterialSource {
  return value === '1' ? 1 : value === '2' ? 2 : 0;
}

/** Where a material came from, for its card. */
export function originLabel(m: Pick<Material, 'source' | 'origin'>): string {
  if (m.origin === 'analyse') return '提取保存';
  if (m.origin === 'copy_chat') return '文案火花';
  if (m.origin === 'copywrite') return '文案提取';
  return m.source === 1 ? '我上传的' : m.source === 2 ? '工具保存' : '';
}

/** The first line(s) of a text material, whitespace collapsed. */
export function excerpt(text: string | undefined, max = 120): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function emptyText(type: MaterialType, source: MaterialSource): { title: string; description: string } {
  const title = `暂无${MATERIAL_TABS.find((t) => t.type === type)!.title}素材`;
  if (type === 'text') return { title, description: '在「文案火花」中把满意的回答保存到素材库后，会出现在这里。' };
  if (source === 2) {
    return {
      title,
      description: type === 'image' ? '从创作工具保存的图片会出现在这里。' : '在「视频提取」「音频提取」中点击「保存到素材库」，处理完成后会出现在这里。',
    };
  }
  return { title, description: '点击「上传素材」添加；创作时上传的文件也会保存在这里。' };
}

/** What the upload dialog of each media tab accepts, and its client-side check (size and format). */
export interface UploadRule {
  fileType: 'video' | 'voice' | 'image';
  accept: string;
  hint: string;
  check: (file: { name: string; size: number }) => string | null;
}

const extOf = (name: string) => /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase() ?? '';
const MB = 1024 * 1024;

export const UPLOAD_RULES: Record<Exclude<MaterialType, 'text'>, UploadRule> = {
  video: {
    fileType: 'video',
    accept: '.mp4,.mov,video/mp4,video/quicktime',
    hint: `MP4 / MOV，${LIMITS.video.maxBytes / MB}MB 以内，时长 ${LIMITS.video.minSeconds} 秒 ~ ${LIMITS.video.maxSeconds / 60} 分钟`,
    check: (f) => (LIMITS.video.formats.includes(extOf(f.name) as never) && f.size > 0 && f.size <= LIMITS.video.maxBytes ? null : MSG.avatarVideoInvalid),
  },
  audio: {
    fileType: 'voice',
    accept: '.mp3,.m4a,.wav,audio/mpeg,audio/mp4,audio/wav,audio/x-m4a',
    hint: `MP3 / M4A / WAV，${LIMITS.audio.maxBytes / MB}MB 以内，时长 ${LIMITS.audio.minSeconds} 秒 ~ ${LIMITS.audio.maxSeconds / 60} 分钟`,
    check: (f) =>
      !LIMITS.audio.formats.includes(extOf(f.name) as never) ? MSG.audioInvalid : f.size <= 0 || f.size > LIMITS.audio.maxBytes ? MSG.audioTooLarge(LIMITS.audio.maxBytes / MB) : null,
  },
  image: {
    fileType: 'image',
    accept: '.png,.jpg,.jpeg,image/png,image/jpeg',
    hint: `PNG / JPG，${LIMITS.image.maxBytes / MB}MB 以内，短边不小于 ${LIMITS.image.minSide} 像素`,
    check: (f) => (!LIMITS.image.formats.includes(extOf(f.name) as never) ? MSG.imageInvalid : f.size <= 0 || f.size > LIMITS.image.maxBytes ? MSG.imageTooLarge : null),
  },
};

/** The material upload dialog takes this many files at once. */
export const UPLOAD_MAX_FILES = 5;
