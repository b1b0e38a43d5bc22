/**
 * Emotion marks added by the polish call with action=emotion: MiniMax-style interjection tags written inline in
 * the script, e.g. `今天是不是很开心呀(laughs)，当然了！` — half-width parentheses around one lowercase English
 * word from the closed list below. MiniMax speech models voice them (their t2a text accepts these tags, like the
 * `<#s#>` pause grammar we share with them); every other engine must drop them before speaking: stripEmotionMarks.
 */

/** The marks the model may insert, with the Chinese gloss given to it. */
export const EMOTION_MARKS = {
  laughs: '笑声',
  chuckle: '轻笑',
  sighs: '叹气',
  breath: '换气',
  gasps: '惊讶地吸气',
  emm: '沉吟（嗯…）',
  'clear-throat': '清嗓子',
} as const;
export type EmotionMark = keyof typeof EMOTION_MARKS;

export const EMOTION_MARK_NAMES = Object.keys(EMOTION_MARKS) as EmotionMark[];

/** One mark, e.g. `(laughs)`. */
export const emotionMark = (name: EmotionMark) => `(${name})`;

/** Any mark of the list, in the script. */
export const EMOTION_MARK = new RegExp(`\\((?:${EMOTION_MARK_NAMES.map((n) => n.replace('-', '\\-')).join('|')})\\)`, 'g');

/** A tag of the same shape whose word is not ours (`(happy)`, `(cough)`): the model invented it. */
const TAG_SHAPE = /\(([a-z][a-z-]{1,20})\)/g;

/** The script as a speech engine without interjection support should read it. */
export function stripEmotionMarks(text: string): string {
  return text.replace(EMOTION_MARK, '');
}

/** Drops tags the model made up (a tag-shaped word that is neither ours nor already in the user's text). */
export function dropUnknownTags(text: string, original: string): string {
  return text.replace(TAG_SHAPE, (tag, word: string) => ((EMOTION_MARK_NAMES as string[]).includes(word) || original.includes(tag) ? tag : ''));
}
