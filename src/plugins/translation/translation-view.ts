/** What the /store/sea screen decides without the server: the upload check, the submit check and the price shown. */
import { LIMITS, MSG, TRANSLATE_CREDITS_PER_SECOND, TranslateMode, translateCredits, type TranslateLang, type TranslateModeValue } from '../../contract';

export const MODES: readonly { value: TranslateModeValue; label: string; hint: string }[] = [
  { value: TranslateMode.LipSync, label: '口型同步', hint: '换声音，并让口型跟随新的语音' },
  { value: TranslateMode.VoiceOnly, label: '仅换声音', hint: '保留原画面，只替换配音' },
];

/** A chosen file before it is sent: MP4/MOV of at most 500 MB. */
export function uploadProblem(file: { name: string; size: number }): string | null {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(LIMITS.video.formats as readonly string[]).includes(ext) || file.size > LIMITS.video.maxBytes) return MSG.translateVideoInvalid;
  return null;
}

/** The first thing missing before submit, in the spec's order, or null. */
export function submitProblem(form: { fileId?: number; source: string; target: string }): string | null {
  if (!form.fileId) return MSG.translateVideoRequired;
  if (!form.source) return MSG.translateSourceRequired;
  if (!form.target) return MSG.translateTargetRequired;
  if (form.source === form.target) return MSG.translateSameLanguage;
  return null;
}

/** The price line: credits for this video's seconds in this mode, or the rate alone before a video is chosen. */
export function priceText(mode: TranslateModeValue, perSecond: number, seconds?: number): string {
  if (!seconds) return `${perSecond} 积分/秒`;
  return `约 ${translateCredits(seconds, mode)} 积分（${Math.ceil(seconds - 1e-6)} 秒 × ${perSecond} 积分/秒，按成片时长结算）`;
}

/**
 * What the languages answer means for the screen: the list, whether it may submit, whether the words come from the
 * captions on screen (no recognition engine: only captioned videos translate), this mode's rate.
 */
export function languagesView(answer: { list: TranslateLang[]; ready?: boolean; reader?: string; prices?: Record<string, number> } | undefined, mode: TranslateModeValue) {
  return {
    languages: answer?.list ?? [],
    ready: answer?.ready !== false,
    byCaptions: answer?.reader === 'ocr',
    perSecond: answer?.prices?.[mode] ?? TRANSLATE_CREDITS_PER_SECOND[mode],
  };
}
