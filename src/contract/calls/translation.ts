/** Video translation: translate a video's speech into another language, the translated videos (part 2 §2.7, §3, §7). */
import { z } from 'zod';
import { defineGroup, specCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { requiredText } from '../schema';
import { Timestamp, intOneOf, jobPage, removeById, requiredId, specPageRead, userRead } from './fields';

export const TranslationRecord = z.object({
  /** ours: needed to delete. */
  id: z.number(),
  name: z.string(),
  url: z.string(),
  /** ours */
  cover: z.string().optional(),
  /** ours: 3 success, 4 failed, other in progress. */
  status: z.number().optional(),
  /** ours */
  create_time: Timestamp.optional(),
  /** ours */
  reason: z.string().optional(),
  /** ours: which voice spoke the dub (MSG.translateVoice…), once the job chose it. */
  voice: z.string().optional(),
  /** ours: the translation's subtitles (SRT), once done. */
  srt: z.string().optional(),
  /** ours: 1 lip sync, 2 voice only. */
  mode: z.number().optional(),
  /** ours: language ids of TRANSLATE_LANGUAGES. */
  source_lang: z.string().optional(),
  target_lang: z.string().optional(),
  /** ours: seconds of the result (of the upload while in progress). */
  duration: z.number().optional(),
  /** ours: credits charged (reserved while in progress, settled on the result's length when done). */
  credits: z.number().optional(),
});
export type TranslationRecord = z.infer<typeof TranslationRecord>;

export const TranslationLang = z.object({
  /** Language code, sent back as source_lang / target_lang. */
  id: z.string(),
  name: z.string(),
  icon: z.string(),
});
export type TranslationLang = z.infer<typeof TranslationLang>;

/** Translation modes (part 2 §7): 1 the mouth is re-synced to the new speech, 2 only the voice is replaced. */
export const TranslationMode = { LipSync: 1, VoiceOnly: 2 } as const;
export type TranslationModeValue = (typeof TranslationMode)[keyof typeof TranslationMode];

/**
 * The languages a video may be translated from and to: ones the speech recognition understands and the offline
 * speech engine speaks (its language cascader's codes: cmn, yue, en-us). `icon` is a short badge the option shows.
 */
export const TRANSLATE_LANGUAGES: readonly TranslationLang[] = [
  { id: 'zh', name: '中文', icon: '中' },
  { id: 'en', name: '英语', icon: 'EN' },
  { id: 'yue', name: '粤语', icon: '粤' },
];

/** Credits per second of video, by mode (lip sync costs more: it re-renders every frame). */
export const TRANSLATE_CREDITS_PER_SECOND: Record<TranslationModeValue, number> = { [TranslationMode.LipSync]: 3, [TranslationMode.VoiceOnly]: 2 };

/** What a translation of `seconds` costs in `mode`: whole seconds, rounded up, at least one. */
export const translateCredits = (seconds: number, mode: TranslationModeValue): number => Math.max(1, Math.ceil(seconds - 1e-6)) * TRANSLATE_CREDITS_PER_SECOND[mode];

export const translationCalls = defineGroup('translation', {
  list: specPageRead('/api/user/videoTranslate', { summary: 'Translated videos (works page, type2 = 3), newest first.', response: jobPage(TranslationRecord) }),
  remove: removeById({ path: '/api/user/videoTranslate', pathFromSpec: false, summary: 'Delete a translated video.' }, '视频ID'),
  submit: specCall('POST', '/api/user/videoTranslate', {
    summary: `Translate a registered video (${LIMITS.video.formats.join('/')}, at most ${LIMITS.video.maxBytes / 1024 / 1024} MB, hint ${LIMITS.translateVideoHintMinutes} min): mode 1 lip sync, 2 voice only (spec name: translate).`,
    request: z
      .object({
        file_id: requiredId(MSG.translationVideoRequired),
        source_lang: requiredText('初始语言', MSG.translationSourceRequired, 20),
        target_lang: requiredText('翻译后的语言', MSG.translationTargetRequired, 20),
        mode: intOneOf('翻译模式', [1, 2]).default(1),
      })
      .refine((v) => v.source_lang !== v.target_lang, { message: MSG.translationSameLanguage, path: ['target_lang'] }),
    response: z.object({ id: z.number() }),
  }),
  languages: userRead('/api/translateLang', {
    summary: 'Translation languages {id, name, icon} (spec name: translateLang); ours: whether and how the words are read (speech recognition, else the captions offline), and the price per second of each mode.',
    response: z.object({
      list: z.array(TranslationLang),
      /** ours: false when the video's words cannot be read at all (the screen says so and cannot submit). */
      ready: z.boolean().optional(),
      /**
       * ours: how the words are read: 'asr' the speech (a recognition engine is configured), 'ocr' the captions on screen
       * offline (none is: only captioned videos translate, and the screen says so).
       */
      reader: z.enum(['asr', 'ocr', '']).optional(),
      /** ours: credits per second of video, keyed by mode. */
      prices: z.record(z.string(), z.number()).optional(),
    }),
  }),
});
