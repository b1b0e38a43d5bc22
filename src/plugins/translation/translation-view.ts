/** What the /store/sea screen decides without the server: the upload check, the submit check and the price shown. */
import { LIMITS, MSG, TRANSLATE_CREDITS_PER_SECOND, TranslationMode, translateCredits, type TranslationLang, type TranslationModeValue } from '../../contract';

export const MODES: readonly { value: TranslationModeValue; label: string; hint: string }[] = [
  { value: TranslationMode.LipSync, label: '口型同步', hint: '换声音，并让口型跟随新的语音' },
  { value: TranslationMode.VoiceOnly, label: '仅换声音', hint: '保留原画面，只替换配音' },
];

/** A chosen file before it is sent: MP4/MOV of at most 500 MB. */
export function uploadProblem(file: { name: string; size: number }): string | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(LIMITS.video.formats as readonly string[]).includes(ext) || file.size > LIMITS.video.maxBytes) return MSG.translationVideoInvalid;
  return null;
}

/** The first thing missing before submit, in the spec's order, or null. */
export function submitProblem(form: { fileId?: number; source: string; target: string }): string | null {
  if (!form.fileId) return MSG.translationVideoRequired;
  if (!form.source) return MSG.translationSourceRequired;
  if (!form.target) return MSG.translationTargetRequired;
  if (form.source === form.target) return MSG.translationSameLanguage;
  return null;
}

/** The price line: credits for this video's seconds in this mode, or the rate alone before a video is chosen. */
export function priceText(mode: TranslationModeValue, perSecond: number, seconds?: number): string {
  if (!seconds) return `${perSecond} 积分/秒`;
  return `约 ${translateCredits(seconds, mode)} 积分（${Math.ceil(seconds - 1e-6)} 秒 × ${perSecond} 积分/秒，按成片时长结算）`;
}

/**
 * What the languages answer means for the screen: the list, whether it may submit, whether the words come from the
 * captions on screen (no recognition engine: only captioned videos translate), this mode's rate.
 */
export function languagesView(answer: { list: TranslationLang[]; ready?: boolean; reader?: string; prices?: Record<string, number> } | undefined, mode: TranslationModeValue) {
  return {
    languages: answer?.list ?? [],
    ready: answer?.ready !== false,
    byCaptions: answer?.reader === 'ocr',
    perSecond: answer?.prices?.[mode] ?? TRANSLATE_CREDITS_PER_SECOND[mode],
  };
}
