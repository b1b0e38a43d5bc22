/**
 * The multi-scene draft (part 2 §2.3, §3 scene, §5, §9) as plain data and pure operations: the scene list
 * (add, remove, reorder, switch text/audio, change avatar or voice, apply a voice to all), the per-scene audition
 * cache, the client-side checks in the server's order, the estimate and its price, and the submitted request.
 */
import {
  LIMITS, MSG, MULTI_SCENE_API, countChars, estimateSeconds, multiSceneCredits, scriptLimit, stripEmotionMarks, stripPauses, workNameOr,
  type Avatar, type CallRequest, type SceneItem, type Voice, API,
} from '../../../contract';
import {
  SLIDER_DEFAULTS, isRecord, numberOr, pickedOr, roundSlider, sceneVoiceOf, stringOr, voiceSettings,
  type DraftRules, type SceneVoice, type SliderKey,
} from '../../../core';
import { defaultSubtitles, reviveSubtitles, subtitleFields, type SubtitleChoice } from '../subtitle-choice';
import { bgmFields, defaultBgm, reviveBgm, type BgmChoice } from '../bgm-choice';

export type SceneType = 'text' | 'audio';
export type DriveMode = 'serial' | 'random';
export type OutputMode = 'video' | 'audio';

/** What a scene keeps of its avatar: the cover, and the video's length sent as video_duration. */
export interface SceneAvatar {
  id: number;
  name: string;
  cover: string;
  /** 1 landscape, 2 portrait. */
  orientation: 1 | 2;
  duration?: number;
}

/** An audio scene's uploaded file (the spec's uploaded audio name, url and duration). */
export interface SceneAudio {
  file_id: number;
  url: string;
  name: string;
  /** Seconds, as the browser read them; undefined when it could not. */
  duration?: number;
}

/** A finished audition of a text scene: valid while the scene still says the same thing the same way. */
export interface SceneAudition {
  key: string;
  url: string;
  file_id: number;
}

export interface Scene {
  /** Local identity (list keys, test ids); never sent. */
  id: string;
  type: SceneType;
  text: string;
  voice: SceneVoice | null;
  rate: number;
  volume: number;
  pitch: number;
  avatar: SceneAvatar | null;
  audio: SceneAudio | null;
  audition: SceneAudition | null;
}

export interface MultiDraft {
  name: string;
  scenes: Scene[];
  driveMode: DriveMode;
  outputMode: OutputMode;
  /** Burned-in captions (a video output only). */
  subtitles: SubtitleChoice;
  /** Background music under the whole work (video or audio). */
  bgm: BgmChoice;
}

let seq = 0;
/** A fresh local scene id. */
export const sceneId = () => `s${(++seq).toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`;

/** A new scene of a type; it starts with the avatar, voice and sliders of `like` (the scene above it), if any. */
export function newScene(type: SceneType, like?: Scene | null, id: string = sceneId()): Scene {
  return {
    id,
    type,
    text: '',
    voice: like?.voice ?? null,
    rate: like?.rate ?? SLIDER_DEFAULTS.rate,
    volume: like?.volume ?? SLIDER_DEFAULTS.volume,
    pitch: like?.pitch ?? SLIDER_DEFAULTS.pitch,
    avatar: like?.avatar ?? null,
    audio: null,
    audition: null,
  };
}

/** The page opens with one text scene, 未命名, serial, video. */
export function emptyDraft(): MultiDraft {
  return { name: LIMITS.defaultWorkName, scenes: [newScene('text')], driveMode: 'serial', outputMode: 'video', subtitles: defaultSubtitles(), bgm: defaultBgm() };
}

export const canAddScene = (draft: MultiDraft) => draft.scenes.length < LIMITS.sceneMaxCount;
export const sceneCountExceeded = `场景不能超过${LIMITS.sceneMaxCount}个`;

/** Appends a scene (like the last one); the draft is unchanged at the scene limit. */
export function addScene(draft: MultiDraft, type: SceneType, id?: string): MultiDraft {
  if (!canAddScene(draft)) return draft;
  return { ...draft, scenes: [...draft.scenes, newScene(type, draft.scenes.at(-1), id)] };
}

/** Removes a scene; the last one stays (a work has at least one scene). */
export function removeScene(draft: MultiDraft, id: string): MultiDraft {
  if (draft.scenes.length <= 1 || !draft.scenes.some((s) => s.id === id)) return draft;
  return { ...draft, scenes: draft.scenes.filter((s) => s.id !== id) };
}

/** Moves a scene by `delta` places (−1 up, +1 down), clamped to the list. */
export function moveScene(draft: MultiDraft, id: string, delta: number): MultiDraft {
  const from = draft.scenes.findIndex((s) => s.id === id);
  if (from < 0) return draft;
  const to = Math.max(0, Math.min(draft.scenes.length - 1, from + delta));
  if (to === from) return draft;
  const scenes = [...draft.scenes];
  const [scene] = scenes.splice(from, 1);
  scenes.splice(to, 0, scene!);
  return { ...draft, scenes };
}

function patchScene(draft: MultiDraft, id: string, patch: (s: Scene) => Scene): MultiDraft {
  let changed = false;
  const scenes = draft.scenes.map((s) => {
    if (s.id !== id) return s;
    const next = patch(s);
    if (next !== s) changed = true;
    return next;
  });
  return changed ? { ...draft, scenes } : draft;
}

export const setSceneType = (draft: MultiDraft, id: string, type: SceneType) => patchScene(draft, id, (s) => (s.type === type ? s : { ...s, type }));

/** Editing the text clears that scene's audition (part 2 §4). */
export const setSceneText = (draft: MultiDraft, id: string, text: string) => patchScene(draft, id, (s) => (s.text === text ? s : { ...s, text, audition: null }));

/** Changing a scene's voice takes the voice's own settings and clears the scene's audition (part 2 §4). */
export function setSceneVoice(draft: MultiDraft, id: string, voice: Voice): MultiDraft {
  return patchScene(draft, id, (s) => ({ ...s, voice: sceneVoiceOf(voice), ...voiceSettings(voice), audition: null }));
}

/** 所有场景使用: every scene takes the voice (and its settings); each scene's audition is cleared. */
export function applyVoiceToAll(draft: MultiDraft, voice: Voice): MultiDraft {
  const settings = voiceSettings(voice);
  return { ...draft, scenes: draft.scenes.map((s) => ({ ...s, voice: sceneVoiceOf(voice), ...settings, audition: null })) };
}

/** A slider moved: the scene's audition no longer matches what it would say, so it is cleared. */
export function setSceneSlider(draft: MultiDraft, id: string, key: SliderKey, value: number): MultiDraft {
  const range = LIMITS.sliders[key];
  const v = roundSlider(Math.max(range.min, Math.min(range.max, value)));
  return patchScene(draft, id, (s) => (s[key] === v ? s : { ...s, [key]: v, audition: null }));
}

export function resetSceneSliders(draft: MultiDraft, id: string): MultiDraft {
  return patchScene(draft, id, (s) =>
    s.rate === SLIDER_DEFAULTS.rate && s.volume === SLIDER_DEFAULTS.volume && s.pitch === SLIDER_DEFAULTS.pitch ? s : { ...s, ...SLIDER_DEFAULTS, audition: null },
  );
}

export function sceneAvatarOf(avatar: Pick<Avatar, 'id' | 'name' | 'cover' | 'cover_small' | 'orientation' | 'duration'>): SceneAvatar {
  return {
    id: avatar.id,
    name: avatar.name,
    cover: avatar.cover || avatar.cover_small,
    orientation: avatar.orientation === 1 ? 1 : 2,
    duration: avatar.duration !== undefined && Number.isFinite(avatar.duration) && avatar.duration > 0 ? avatar.duration : undefined,
  };
}

export const setSceneAvatar = (draft: MultiDraft, id: string, avatar: SceneAvatar) => patchScene(draft, id, (s) => ({ ...s, avatar }));
export const setSceneAudio = (draft: MultiDraft, id: string, audio: SceneAudio | null) => patchScene(draft, id, (s) => (s.audio === audio ? s : { ...s, audio }));

// ------------------------------------------------------------------------------------------------ auditions

/** What an audition of the scene depends on: its text, voice and sliders. */
export function auditionKey(scene: Pick<Scene, 'text' | 'voice' | 'rate' | 'volume' | 'pitch'>): string {
  return JSON.stringify([scene.text, scene.voice?.id ?? null, scene.rate, scene.volume, scene.pitch]);
}

/** The scene's audition if it still matches the scene (reused for playback and sent with the scene), else null. */
export function cachedAudition(scene: Scene): SceneAudition | null {
  return scene.type === 'text' && scene.audition && scene.audition.key === auditionKey(scene) ? scene.audition : null;
}

/** Keeps a finished audition, but only if the scene has not changed since it was asked for (`key`). */
export function setSceneAudition(draft: MultiDraft, id: string, audition: SceneAudition): MultiDraft {
  return patchScene(draft, id, (s) => (auditionKey(s) === audition.key ? { ...s, audition } : s));
}

/** The audition call of a scene, or the spec's message when it lacks text or a voice. */
export function auditionRequest(scene: Scene): { ok: true; key: string; request: CallRequest<typeof API.voices.audition> } | { ok: false; message: string } {
  if (!hasSpeech(scene.text) || !scene.voice) return { ok: false, message: MSG.auditionNeedsTextAndVoice };
  const limit = sceneLimit(scene);
  if (countChars(scene.text) > limit) return { ok: false, message: MSG.scriptTooLong(limit) };
  return {
    ok: true,
    key: auditionKey(scene),
    request: { voice_id: scene.voice.id, text: scene.text.trim(), rate: scene.rate, volume: scene.volume, pitch: scene.pitch },
  };
}

// ------------------------------------------------------------------------------------------------ checks

/** Text with something to say: pause markers and emotion marks alone are not content. */
export function hasSpeech(text: string): boolean {
  return stripEmotionMarks(stripPauses(text)).trim() !== '';
}

/** A text scene's limit: multi-scene works are on fy (10000), and a voice of nw keeps its own 500. */
export function sceneLimit(scene: Pick<Scene, 'voice'>): number {
  return Math.min(scriptLimit(MULTI_SCENE_API), scriptLimit(scene.voice?.api));
}

export interface DraftProblem {
  message: string;
  /** The scene to show (null: the draft as a whole). */
  sceneId: string | null;
}

/**
 * The first problem, in the server's order: every scene's content (a text scene: text, its length, then a voice; an
 * audio scene: its upload), then, for a video, every scene's avatar. Null when the draft can be submitted.
 */
export function draftProblem(draft: MultiDraft): DraftProblem | null {
  if (draft.scenes.length === 0) return { message: MSG.sceneListEmpty, sceneId: null };
  if (draft.scenes.length > LIMITS.sceneMaxCount) return { message: sceneCountExceeded, sceneId: null };
  for (const scene of draft.scenes) {
    if (scene.type === 'audio') {
      if (!scene.audio) return { message: MSG.sceneAudioRequired, sceneId: scene.id };
      continue;
    }
    if (!hasSpeech(scene.text)) return { message: MSG.sceneTextRequired, sceneId: scene.id };
    const limit = sceneLimit(scene);
    if (countChars(scene.text) > limit) return { message: MSG.scriptTooLong(limit), sceneId: scene.id };
    if (!scene.voice) return { message: MSG.voiceRequired, sceneId: scene.id };
  }
  if (draft.outputMode === 'video') {
    const missing = draft.scenes.find((s) => !s.avatar);
    if (missing) return { message: MSG.avatarRequired, sceneId: missing.id };
  }
  return null;
}

// ------------------------------------------------------------------------------------------------ estimate

/** Seconds a scene is expected to last: characters / (4.2 × its speed) + pauses for text, the upload's length for audio. */
export function sceneSeconds(scene: Scene): number {
  if (scene.type === 'audio') return scene.audio?.duration ?? 0;
  return hasSpeech(scene.text) ? estimateSeconds(scene.text, scene.rate) : 0;
}

export interface Estimate {
  seconds: number;
  /** The lip-sync channel's credits per second of the result, rounded up (what the server reserves); 0 while unknown. */
  credits: number;
  /** An uploaded audio whose length the browser could not read (the estimate leaves it out). */
  unknownAudio: boolean;
}

/** The draft's estimate at `creditsPerSecond` (the multi-scene lip-sync channel's; undefined while not known). */
export function estimateDraft(draft: MultiDraft, creditsPerSecond: number | undefined): Estimate {
  const seconds = draft.scenes.reduce((sum, s) => sum + sceneSeconds(s), 0);
  return {
    seconds,
    credits: creditsPerSecond === undefined ? 0 : priceOf(seconds, creditsPerSecond),
    unknownAudio: draft.scenes.some((s) => s.type === 'audio' && s.audio !== null && s.audio.duration === undefined),
  };
}

/** Credits for a length at a rate: the contract's multiSceneCredits (the server's reservation); 0 for nothing to say. */
export function priceOf(seconds: number, creditsPerSecond: number): number {
  return seconds > 0 ? multiSceneCredits(seconds, creditsPerSecond) : 0;
}

/** 12.345 → 12.3; 0 → 0. */
export function formatSeconds(seconds: number): string {
  if (!(seconds > 0)) return '0';
  return String(Math.round(seconds * 10) / 10);
}

// ------------------------------------------------------------------------------------------------ submission

/** One scene as submitted (part 2 §3 submitted scene item). */
export function sceneItem(scene: Scene): SceneItem {
  // The avatar goes with the scene in both output modes (an audio-only work ignores it; switching back keeps it).
  const avatar = scene.avatar ? { video_id: scene.avatar.id, ...(scene.avatar.duration !== undefined ? { video_duration: scene.avatar.duration } : {}) } : {};
  if (scene.type === 'audio') return { type: 'audio', file_id: scene.audio?.file_id, ...avatar };
  const audition = cachedAudition(scene);
  return {
    type: 'text',
    text: scene.text.trim(),
    voice_id: scene.voice?.id,
    rate: scene.rate,
    volume: scene.volume,
    pitch: scene.pitch,
    ...avatar,
    ...(audition ? { file_id: audition.file_id } : {}),
  };
}

/** The API.works.multi request: name (when left 未命名, the first text scene's first words), api fy, the modes, the scenes as JSON text, and the captions of a video. */
export function buildSubmission(draft: MultiDraft): CallRequest<typeof API.works.multi> {
  const items = draft.scenes.map(sceneItem);
  return {
    name: workNameOr(draft.name, draft.scenes.find((sc) => sc.type === 'text' && sc.text.trim())?.text ?? ''),
    api: MULTI_SCENE_API,
    drive_mode: draft.driveMode,
    output_mode: draft.outputMode,
    content: JSON.stringify(items.map(withoutUndefined)),
    ...(draft.outputMode === 'video' ? subtitleFields(draft.subtitles) : {}),
    ...bgmFields(draft.bgm),
  } as CallRequest<typeof API.works.multi>;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Where the user lands after a submission: the works page's multi-scene level, on the video or audio list. */
export function worksQuery(outputMode: OutputMode): { type1: 1; type2: 1 | 2 } {
  return { type1: 1, type2: outputMode === 'audio' ? 2 : 1 };
}

// ------------------------------------------------------------------------------------------------ audio uploads

/** The audio upload's accept list (mp3, m4a, wav). */
export const SCENE_AUDIO_ACCEPT = '.mp3,.m4a,.wav,audio/mpeg,audio/mp3,audio/mp4,audio/x-m4a,audio/wav,audio/x-wav,audio/wave';

/** The audio scene's file check: MP3/M4A/WAV, not empty, at most LIMITS.audio.maxBytes. */
export function checkSceneAudio(file: { name: string; size: number }): string | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const formats: readonly string[] = LIMITS.audio.formats;
  if (!formats.includes(ext) || file.size <= 0) return MSG.audioInvalid;
  if (file.size > LIMITS.audio.maxBytes) return MSG.audioTooLarge(LIMITS.audio.maxBytes / 1024 / 1024);
  return null;
}

// ------------------------------------------------------------------------------------------------ the stored draft

/** Where /multiples keeps its draft (the Storage service adds `aisa.`). */
export const MULTI_DRAFT_KEY = 'multiples.draft';

/** Some scene holds text not yet submitted: closing the tab asks first. */
export const hasUnsavedText = (draft: MultiDraft) => draft.scenes.some((s) => s.text.trim() !== '');

function reviveScene(stored: unknown): Scene | null {
  if (!isRecord(stored)) return null;
  const scene = newScene(stored.type === 'audio' ? 'audio' : 'text');
  const audio = isRecord(stored.audio) && typeof stored.audio.file_id === 'number' ? (stored.audio as unknown as SceneAudio) : null;
  return {
    ...scene,
    text: stringOr(stored.text, ''),
    voice: pickedOr<SceneVoice>(stored.voice),
    avatar: pickedOr<SceneAvatar>(stored.avatar),
    rate: numberOr(stored.rate, scene.rate),
    volume: numberOr(stored.volume, scene.volume),
    pitch: numberOr(stored.pitch, scene.pitch),
    audio,
  };
}

/** The multi-scene draft in storage: scenes get fresh local ids and no audition (its file may be gone by then). */
export const multiDraftRules: DraftRules<MultiDraft> = {
  revive(stored) {
    if (!isRecord(stored) || !Array.isArray(stored.scenes)) return null;
    const scenes = stored.scenes.map(reviveScene).filter((s): s is Scene => s !== null).slice(0, LIMITS.sceneMaxCount);
    if (scenes.length === 0) return null;
    return {
      name: stringOr(stored.name, LIMITS.defaultWorkName),
      scenes,
      driveMode: stored.driveMode === 'random' ? 'random' : 'serial',
      outputMode: stored.outputMode === 'audio' ? 'audio' : 'video',
      subtitles: reviveSubtitles(stored.subtitles),
      bgm: reviveBgm(stored.bgm),
    };
  },
  keep: (draft) => ({ ...draft, scenes: draft.scenes.map((s) => ({ ...s, audition: null })) }),
  isEmpty: (draft) => {
    const strip = (d: MultiDraft) => JSON.stringify({ ...d, scenes: d.scenes.map((s) => ({ ...s, id: '', audition: null })) });
    return strip(draft) === strip(emptyDraft());
  },
};
