/** Copywriting helpers of the script editor: text polish, emotion marks, AI-writing themes and writing (part 2 §2.2, §3, §5, §7). */
import { z } from 'zod';
import { defineGroup, userCall } from '../call';
import { MSG } from '../messages';
import { LIMITS } from '../limits';
import { requiredText } from '../schema';
import { intOneOf, optionalFilter, scriptText, userList } from './fields';

type WritingLength = (typeof LIMITS.writingLengths)[number]['value'];
export const WRITING_LENGTHS = LIMITS.writingLengths.map((l) => l.value) as unknown as readonly [WritingLength, ...WritingLength[]];

export const WritingTheme = z.object({
  name: z.string(),
  list: z.array(z.object({ name: z.string() })),
});
export type WritingTheme = z.infer<typeof WritingTheme>;

export const writingCalls = defineGroup('writing', {
  textpolish: userCall('POST', '/api/user/textpolish', {
    summary:
      'Polish a script, or with action=emotion add emotion marks: MiniMax-style interjection tags inline after the words they ' +
      'colour, half-width parentheses around one lowercase word of a closed list — (laughs) (chuckle) (sighs) (breath) (gasps) ' +
      '(emm) (clear-throat) — which MiniMax voices and other speech engines strip before speaking. Pause markers <#s#> come back ' +
      'exactly, in order. Free (the spec prices neither). No chat engine configured: code 1, MSG.chatEngineMissing (spec name: textpolish).',
    request: z.object({
      text: scriptText('文本', MSG.textRequired),
      action: optionalFilter(z.literal('emotion', { error: '操作取值有误' })),
    }),
    response: z.object({ content: z.string() }),
  }),
  theme: userList({ path: '/api/theme', pathFromSpec: false, summary: 'AI-writing themes, each with its topics: sample topic descriptions the dialog can copy (spec name: theme).' }, WritingTheme),
  aiWriting: userCall('POST', '/api/user/aiWriting', {
    summary:
      'Write a script from a topic description and a length (0 = unlimited, else about N characters); answers MSG.writingSucceeded. ' +
      'Free (the spec prices it nowhere). No chat engine configured: code 1, MSG.chatEngineMissing.',
    request: z.object({
      keyword: requiredText('主题描述', MSG.topicRequired, LIMITS.topicMaxChars),
      length: intOneOf('字数', WRITING_LENGTHS).default(WRITING_LENGTHS[0]),
    }),
    response: z.object({ content: z.string() }),
  }),
});
