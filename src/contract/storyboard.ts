/**
 * One-click creation's storyboard (issue 29), the same on the client (what it proposes and prices before submit) and
 * the server (what it checks and reserves): a script cut into scenes at sentence ends, about 3–8 s each; the first and
 * last scene show the avatar, and between them B-roll alternates with the avatar.
 */
import { LIMITS } from './limits';
import { estimateSeconds } from './script';
import { splitSentences } from './subtitles';

export const SCENE_KINDS = ['avatar', 'broll'] as const;
export type SceneKind = (typeof SCENE_KINDS)[number];
/** Camera motion over a B-roll picture: push in, pull out, pan. */
export const SCENE_MOTIONS = ['in', 'out', 'pan'] as const;
export type SceneMotion = (typeof SCENE_MOTIONS)[number];
export const SCENE_MOTION_LABELS: Record<SceneMotion, string> = { in: '推近', out: '拉远', pan: '平移' };
export const SCENE_KIND_LABELS: Record<SceneKind, string> = { avatar: '数字人', broll: '画面' };
export const ONECLICK_ASPECTS = ['9:16', '16:9', '1:1'] as const;
export type OneclickAspect = (typeof ONECLICK_ASPECTS)[number];

/** A topic's script (生成文案): the platform it is written for, its style, its length in seconds. */
export const SCRIPT_PLATFORMS = ['抖音', '视频号', '小红书', '快手'] as const;
export type ScriptPlatform = (typeof SCRIPT_PLATFORMS)[number];
export const TOPIC_STYLES = ['口播', '种草', '知识', '故事'] as const;
export type TopicStyle = (typeof TOPIC_STYLES)[number];
export const TOPIC_SECONDS = [30, 60, 90] as const;

export interface StoryScene {
  text: string;
  kind: SceneKind;
  image_url?: string;
  motion?: SceneMotion;
}

const { min, target } = LIMITS.oneclick.sceneSeconds;

/** The kind a scene gets by its place: avatar first and last, B-roll at odd places between. */
export const kindAt = (index: number, count: number): SceneKind => (index === 0 || index === count - 1 || index % 2 === 0 ? 'avatar' : 'broll');

/**
 * Sentences grouped greedily into scenes: a sentence joins the scene while the scene is still shorter than `min`, or
 * while the two stay within `target` seconds. A sentence longer than `max` is a scene of its own.
 */
export function proposeStoryboard(script: string, rate = 1): StoryScene[] {
  const texts: string[] = [];
  let current = '';
  for (const sentence of splitSentences(script)) {
    const joined = current + sentence;
    if (!current || estimateSeconds(current, rate) < min || estimateSeconds(joined, rate) <= target) current = joined;
    else {
      texts.push(current);
      current = sentence;
    }
  }
  if (current) texts.push(current);
  return texts.map((text, i) => ({ text, kind: kindAt(i, texts.length), ...(kindAt(i, texts.length) === 'broll' ? { motion: SCENE_MOTIONS[((i - 1) / 2) % 3]! } : {}) }));
}

/** The whole script a storyboard speaks (one speech track). */
export const storyScript = (scenes: readonly Pick<StoryScene, 'text'>[]): string => scenes.map((s) => s.text.trim()).join('');

/** Estimated seconds of each scene's speech. */
export const sceneSeconds = (scenes: readonly Pick<StoryScene, 'text'>[], rate = 1): number[] => scenes.map((s) => estimateSeconds(s.text, rate));

/**
 * The price of a storyboard: avatar seconds at the video channel's credits per second, B-roll seconds at the
 * multi-scene rate; at least 1 credit.
 */
export function storyboardPrice(scenes: readonly StoryScene[], channelCredits: number, rate = 1): { avatarSeconds: number; brollSeconds: number; credits: number } {
  const seconds = sceneSeconds(scenes, rate);
  let avatarSeconds = 0;
  let brollSeconds = 0;
  scenes.forEach((s, i) => {
    if (s.kind === 'broll') brollSeconds += seconds[i]!;
    else avatarSeconds += seconds[i]!;
  });
  return { avatarSeconds, brollSeconds, credits: oneclickCredits(avatarSeconds, brollSeconds, channelCredits) };
}

export const oneclickCredits = (avatarSeconds: number, brollSeconds: number, channelCredits: number): number =>
  Math.max(1, Math.ceil(avatarSeconds * channelCredits + brollSeconds * LIMITS.oneclick.brollCreditsPerSecond));

/** Split a scene at its middle sentence (or its middle character, for one sentence); merge a scene with the next. */
export function splitScene(scenes: readonly StoryScene[], index: number): StoryScene[] {
  const scene = scenes[index];
  if (!scene) return [...scenes];
  const sentences = splitSentences(scene.text);
  let first: string;
  let second: string;
  if (sentences.length > 1) {
    const half = Math.ceil(sentences.length / 2);
    first = sentences.slice(0, half).join('');
    second = sentences.slice(half).join('');
  } else {
    const chars = [...scene.text];
    const half = Math.ceil(chars.length / 2);
    first = chars.slice(0, half).join('');
    second = chars.slice(half).join('');
  }
  if (!first.trim() || !second.trim()) return [...scenes];
  return [...scenes.slice(0, index), { ...scene, text: first }, { ...scene, text: second }, ...scenes.slice(index + 1)];
}

export function mergeScenes(scenes: readonly StoryScene[], index: number): StoryScene[] {
  const a = scenes[index];
  const b = scenes[index + 1];
  if (!a || !b) return [...scenes];
  return [...scenes.slice(0, index), { ...a, text: a.text + b.text }, ...scenes.slice(index + 2)];
}
