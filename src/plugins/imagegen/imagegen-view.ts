/** Pure rules of the text-to-image screen (part 2 §2.8, §4, §9), unit-tested in imagegen-view.spec.ts. */
import { ImagegenStatus, LIMITS, type ImageRecord, type PromptSuggestion } from '../../contract';

export type ImageRatio = (typeof LIMITS.imageRatios)[number];

export interface ImageForm {
  text: string;
  ratio: ImageRatio;
  num: number;
  /** The reference picture's url ('' for none). */
  image: string;
}

export const EMPTY_FORM: ImageForm = { text: '', ratio: LIMITS.imageRatios[0], num: LIMITS.imageCountRange[0], image: '' };

export const COUNTS = Array.from({ length: LIMITS.imageCountRange[1] - LIMITS.imageCountRange[0] + 1 }, (_, i) => LIMITS.imageCountRange[0] + i);

export const cost = (num: number) => num * LIMITS.imageCreditsEach;

/** `count` different suggestions at random (all when there are fewer). */
export function pickPrompts(list: readonly PromptSuggestion[], count = LIMITS.recommendCount, random: () => number = Math.random): PromptSuggestion[] {
  const pool = [...list];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, count);
}

/** Choosing a record refills the form with its settings (part 2 §4). */
export function formOf(record: ImageRecord): ImageForm {
  const ratio = (LIMITS.imageRatios as readonly string[]).includes(record.ratio) ? (record.ratio as ImageRatio) : EMPTY_FORM.ratio;
  const num = Math.min(Math.max(record.num, LIMITS.imageCountRange[0]), LIMITS.imageCountRange[1]);
  return { text: record.text, ratio, num, image: record.image };
}

export type RecordState = 'done' | 'failed' | 'running';

export function recordState(record: ImageRecord): RecordState {
  if (record.status === ImagegenStatus.Success) return 'done';
  if (record.status === ImagegenStatus.Failed) return 'failed';
  return 'running';
}

/** The width/height of a ratio's little shape in the ratio picker, at most `box` px. */
export function ratioShape(ratio: string, box = 18): { width: number; height: number } {
  const [w, h] = ratio.split(':').map(Number) as [number, number];
  const scale = box / Math.max(w, h);
  return { width: Math.round(w * scale), height: Math.round(h * scale) };
}

/** A download's file name: the prompt's start, the picture's number, the stored extension. */
export function imageFileName(prompt: string, index: number, url: string): string {
  const ext = /\.(png|jpe?g|webp)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase() ?? 'png';
  const stem = [...prompt.replace(/[\\/:*?"<>|\s]+/g, ' ').trim()].slice(0, 12).join('').trim() || '图片';
  return `${stem}-${index + 1}.${ext}`;
}

/** The record the preview shows: the one chosen while it is done, else the newest finished one. */
export const previewedRecord = (list: readonly ImageRecord[], chosenId: number | null) =>
  list.find((r) => r.id === chosenId && recordState(r) === 'done') ?? list.find((r) => recordState(r) === 'done');

/** The carousel's picture: the index asked for, within the record's pictures. */
export const shownSlide = (index: number, count: number) => Math.min(index, Math.max(count - 1, 0));
