/**
 * What one-click creation asks the chat engine, and how each answer is read (askJson asks once more when it does not
 * fit): a topic's script whose first sentence is a hook, and a picture prompt for one B-roll scene.
 */
import { z } from 'zod';
import { LIMITS, countChars, splitSentences, type ScriptPlatform, type TopicStyle } from '../../../src/contract';
import type { ChatMessage } from '../../engines/chat';

const ONLY_JSON = '只输出一个 JSON 对象，不要任何解释、标题或代码块标记。';

const STYLE_HINTS: Record<TopicStyle, string> = {
  口播: '真人对着镜头直接说话，口语化，短句',
  种草: '分享真实体验和使用感受，突出好处，让人想买',
  知识: '讲清楚一个知识点，有条理，给出实用结论',
  故事: '用一个有起伏的小故事带出观点',
};

export function scriptAsk(p: { topic: string; platform: ScriptPlatform; style: TopicStyle; seconds: number }): ChatMessage[] {
  const chars = Math.round(p.seconds * LIMITS.charsPerSecond);
  const system =
    `你是${p.platform}短视频编剧。根据用户给的主题写一条约 ${p.seconds} 秒（约 ${chars} 字）的${p.style}风格口播文案：${STYLE_HINTS[p.style]}。` +
    '第一句必须是钩子：一句话让人停止划走（提问、反常识、痛点或悬念）；结尾一句引导点赞关注或行动。只写要念出来的话，不写镜头说明、表情或括号注释。' +
    `输出 JSON 对象 {title: 视频标题（不超过20字）, hook: 第一句钩子, script: 完整文案（以钩子开头）}。${ONLY_JSON}`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: `主题：${p.topic}` },
  ];
}

const ScriptAnswer = z.object({ title: z.string().default(''), hook: z.string().default(''), script: z.string().trim().min(1) });

/** The script, starting with its hook (put in front when the model left it out), within the storyboard's length. */
export function readScript(json: unknown): { title: string; script: string } | undefined {
  const parsed = ScriptAnswer.safeParse(json);
  if (!parsed.success) return undefined;
  const hook = parsed.data.hook.trim();
  let script = parsed.data.script;
  if (hook && !script.startsWith(hook) && splitSentences(script)[0]?.trim() !== hook) script = `${hook}${script}`;
  if (countChars(script) > LIMITS.oneclick.maxChars) return undefined;
  return { title: parsed.data.title.trim().slice(0, LIMITS.nameMaxChars), script };
}

export function pictureAsk(sceneText: string, aspect: string): ChatMessage[] {
  const system =
    '你是短视频分镜美术。用户给出一个画面镜头要配的口播文案，请写一条文生图提示词：一个具体、好看、与文案内容相符的画面，' +
    `写清主体、场景、光线和风格，适合 ${aspect} 画幅，画面中不要出现任何文字。输出 JSON 对象 {prompt: 提示词（不超过150字）}。${ONLY_JSON}`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: sceneText },
  ];
}

export function readPicturePrompt(json: unknown): string | undefined {
  const parsed = z.object({ prompt: z.string().trim().min(1) }).safeParse(json);
  return parsed.success ? parsed.data.prompt.slice(0, LIMITS.promptMaxChars) : undefined;
}
