/**
 * One-click creation's screens (/cozeVideo start, /cozeVideo/editVideo storyboard, /cozeVideo/history): the form the
 * editor keeps as a project's draft, how a draft is read back (anything missing or wrong falls back to the default),
 * and what stops a submit. The storyboard's cutting and price are the contract's (src/contract/storyboard.ts).
 */
import { LIMITS, MSG, ONECLICK_ASPECTS, SCENE_KINDS, SCENE_MOTIONS, countChars, storyScript, type OneclickAspect, type ScriptPlatform, type StoryScene, type TopicStyle, type VideoChannel } from '../../contract';

export const START_ROUTE = '/cozeVideo';
export const EDIT_ROUTE = '/cozeVideo/editVideo';
export const HISTORY_ROUTE = '/cozeVideo/history';
/** The draft is saved this long after the last change (typing does not save on every key). */
export const AUTOSAVE_MS = 700;

/** The caption looks offered (size, place, colour of the create call's subtitle fields). */
export const SUBTITLE_PRESETS = {
  classic: { label: '经典白字', subtitle_size: 'M', subtitle_position: 'bottom', subtitle_color: 'white' },
  bold: { label: '醒目黄字', subtitle_size: 'L', subtitle_position: 'bottom', subtitle_color: 'yellow' },
  center: { label: '居中大字', subtitle_size: 'L', subtitle_position: 'middle', subtitle_color: 'white' },
  small: { label: '小号白字', subtitle_size: 'S', subtitle_position: 'bottom', subtitle_color: 'white' },
} as const;
export type SubtitlePreset = keyof typeof SUBTITLE_PRESETS;
const PRESET_NAMES = Object.keys(SUBTITLE_PRESETS) as SubtitlePreset[];

export const ASPECT_LABELS: Record<OneclickAspect, string> = { '9:16': '竖屏 9:16', '16:9': '横屏 16:9', '1:1': '方形 1:1' };

export interface OneclickForm {
  name: string;
  script: string;
  aspect: OneclickAspect;
  video_id: number;
  /** A photo-speak picture as the avatar instead (0: the avatar video). */
  photo_id: number;
  user_voice_id: number;
  api: string;
  subtitles: 0 | 1;
  subtitle_style: SubtitlePreset;
  /** The title card over the first seconds ('' none). */
  title_card: string;
  bgm_id: string;
  bgm_volume: number;
  /** The cover: the first frame of this scene (1-based). */
  cover_scene: number;
  scenes: StoryScene[];
}

export const EMPTY_FORM: OneclickForm = {
  name: '', script: '', aspect: '9:16', video_id: 0, photo_id: 0, user_voice_id: 0, api: LIMITS.oneclick.defaultChannel, subtitles: 1, subtitle_style: 'classic', title_card: '', bgm_id: '',
  bgm_volume: LIMITS.music.bgmVolume.default, cover_scene: 1, scenes: [],
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const oneOf = <T extends string>(v: unknown, values: readonly T[], fallback: T): T => (values.includes(v as T) ? (v as T) : fallback);

function sceneOf(v: unknown): StoryScene | null {
  if (!isObject(v)) return null;
  const scene: StoryScene = { text: str(v.text, ''), kind: oneOf(v.kind, SCENE_KINDS, 'avatar') };
  if (typeof v.image_url === 'string' && v.image_url) scene.image_url = v.image_url;
  if (v.motion !== undefined) scene.motion = oneOf(v.motion, SCENE_MOTIONS, 'in');
  return scene;
}

/** A saved draft's JSON text as the form (a draft from an older editor keeps what it can). */
export function formOfDraft(raw: string, name = ''): OneclickForm {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    v = {};
  }
  const d = isObject(v) ? v : {};
  return {
    name: str(d.name, name) || name,
    script: str(d.script, ''),
    aspect: oneOf(d.aspect, ONECLICK_ASPECTS, '9:16'),
    video_id: num(d.video_id, 0),
    photo_id: num(d.photo_id, 0),
    user_voice_id: num(d.user_voice_id, 0),
    api: str(d.api, EMPTY_FORM.api),
    subtitles: d.subtitles === 0 ? 0 : 1,
    subtitle_style: oneOf(d.subtitle_style, PRESET_NAMES, 'classic'),
    title_card: str(d.title_card, '').slice(0, LIMITS.oneclick.titleMaxChars),
    bgm_id: str(d.bgm_id, ''),
    bgm_volume: num(d.bgm_volume, EMPTY_FORM.bgm_volume),
    cover_scene: Math.max(1, Math.floor(num(d.cover_scene, 1))),
    scenes: Array.isArray(d.scenes) ? d.scenes.map(sceneOf).filter((s): s is StoryScene => s !== null) : [],
  };
}

/** The avatar select's value: an avatar video `v<id>`, a photo-speak picture `p<id>`, none ''. */
export const avatarChoice = (f: Pick<OneclickForm, 'video_id' | 'photo_id'>): string => (f.photo_id ? `p${f.photo_id}` : f.video_id ? `v${f.video_id}` : '');
export function avatarOfChoice(value: string): Pick<OneclickForm, 'video_id' | 'photo_id'> {
  const id = Number(value.slice(1)) || 0;
  return value.startsWith('p') ? { video_id: 0, photo_id: id } : { video_id: value.startsWith('v') ? id : 0, photo_id: 0 };
}

/** The cover's scene, within the storyboard as it is now (scenes deleted since fall back to the last). */
export const coverScene = (f: Pick<OneclickForm, 'cover_scene' | 'scenes'>): number => Math.min(Math.max(1, f.cover_scene), Math.max(1, f.scenes.length));

/** The channels offered for the chosen avatar: a photo talks only on the channels that render pictures. */
export const channelsFor = <C extends Pick<VideoChannel, 'api' | 'pictures'>>(channels: readonly C[], f: Pick<OneclickForm, 'photo_id'>): C[] =>
  f.photo_id ? channels.filter((c) => c.pictures) : [...channels];

/** A new avatar choice, and the channel moved to one that can render it when the chosen one cannot. */
export function pickAvatar(value: string, f: Pick<OneclickForm, 'api'>, channels: readonly Pick<VideoChannel, 'api' | 'pictures'>[]): Partial<OneclickForm> {
  const avatar = avatarOfChoice(value);
  const offered = channelsFor(channels, avatar);
  return offered.length && !offered.some((c) => c.api === f.api) ? { ...avatar, api: offered[0]!.api } : avatar;
}

/** What stops the start screen's 生成分镜. */
export function startProblem(f: OneclickForm): string | null {
  if (!f.script.trim()) return MSG.scriptRequired;
  if (countChars(f.script) > LIMITS.oneclick.maxChars) return MSG.oneclickTooLong(LIMITS.oneclick.maxChars);
  return null;
}

/** What stops 生成视频 (the server says the same). */
export function submitProblem(f: OneclickForm): string | null {
  if (!f.scenes.length) return MSG.oneclickScenesRequired;
  if (f.scenes.length > LIMITS.oneclick.maxScenes) return MSG.oneclickTooManyScenes(LIMITS.oneclick.maxScenes);
  const empty = f.scenes.findIndex((s) => !s.text.trim());
  if (empty >= 0) return MSG.oneclickSceneEmpty(empty + 1);
  const bare = f.scenes.findIndex((s) => s.kind === 'broll' && !s.image_url);
  if (bare >= 0) return MSG.oneclickBrollNoPicture(bare + 1);
  if (countChars(storyScript(f.scenes)) > LIMITS.oneclick.maxChars) return MSG.oneclickTooLong(LIMITS.oneclick.maxChars);
  if (!f.video_id && !f.photo_id) return MSG.avatarRequired;
  if (!f.user_voice_id) return MSG.voiceRequired;
  return null;
}

/** 生成文案's form (not part of the draft: the script it writes is). */
export interface TopicForm {
  topic: string;
  platform: ScriptPlatform;
  style: TopicStyle;
  seconds: 30 | 60 | 90;
}

export const EMPTY_TOPIC: TopicForm = { topic: '', platform: '抖音', style: '口播', seconds: 60 };

/** What stops 生成文案 (the server says the same). */
export function topicProblem(t: TopicForm): string | null {
  return countChars(t.topic.trim()) < LIMITS.oneclick.topicMinChars ? MSG.oneclickTopicTooShort(LIMITS.oneclick.topicMinChars) : null;
}
