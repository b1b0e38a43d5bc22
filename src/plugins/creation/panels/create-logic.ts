/**
 * /create as plain data and pure rules (part 2 §2.2, §3 work submission, §4, §5, §9): the draft, what clears the
 * cached audition, the checks in the spec's order with its messages, which voice sliders a channel disables, the
 * audition and the submitted request (rate/volume/pitch only with a public voice), and the address's parameters.
 */
import {
  LIMITS, MSG, VoiceStatus, byEffect, countChars, estimateSeconds, scriptLimit, workCredits, workNameOr,
  type API, type Avatar, type CallRequest, type Material, type Photo, type VideoChannel, type Voice,
} from '../../../contract';
import { hasText, isRecord, numberOr, pickedOr, stringOr, type DraftRules } from '../../../core';
import { defaultSubtitles, reviveSubtitles, subtitleFields, type SubtitleChoice } from '../subtitle-choice';
import { bgmFields, defaultBgm, reviveBgm, type BgmChoice } from '../bgm-choice';

export type DriveMode = 'text' | 'audio';
export type SliderKey = 'rate' | 'volume' | 'pitch';
export type Sliders = Record<SliderKey, number>;

export const SLIDER_KEYS: readonly SliderKey[] = ['rate', 'volume', 'pitch'];
export const SLIDER_LABELS: Record<SliderKey, string> = { rate: '语速', volume: '音量', pitch: '音调' };
export const DEFAULT_SLIDERS: Sliders = {
  rate: LIMITS.sliders.rate.default,
  volume: LIMITS.sliders.volume.default,
  pitch: LIMITS.sliders.pitch.default,
};

/**
 * The picked avatar: one of the user's or the public avatars (video_id), a material-library video (material_video_id),
 * or a pet or person picture (photo_id, on /pet/establish and /store/characters).
 */
export interface PickedAvatar {
  kind: 'avatar' | 'material' | 'photo';
  id: number;
  name: string;
  cover: string;
  url: string;
  /** Seconds, when known (channel gj needs 30–300 s). */
  duration?: number;
}

/** The audio of audio-driven mode: an upload (voice_id) or a material-library audio (material_audio_id). */
export interface DriveAudio {
  kind: 'upload' | 'material';
  id: number;
  name: string;
  url: string;
  duration?: number;
}

/** A finished audition, valid while the draft still says the same thing the same way. */
export interface CachedAudition {
  key: string;
  url: string;
  file_id: number;
}

export interface CreateDraft {
  /** The work's name; blank is sent as 未命名. */
  name: string;
  mode: DriveMode;
  text: string;
  /** '' = the channel's default language. */
  language: string;
  emotion: string;
  avatar: PickedAvatar | null;
  voice: Voice | null;
  /** The confirmed speed/volume/pitch (确认修改), sent with a public voice only. */
  params: Sliders;
  audio: DriveAudio | null;
  audition: CachedAudition | null;
  /** The video channel last chosen in the channel dialog (its price shows in the preview). */
  channel: string;
  /** Burned-in captions, chosen in the channel dialog. */
  subtitles: SubtitleChoice;
  /** Background music, chosen in the channel dialog. */
  bgm: BgmChoice;
}

/** No channel chosen yet: the dialog preselects the best there is (preferredChannel). */
export const DEFAULT_CHANNEL = '';

/** Where a screen keeps the channel last submitted with (it outlives the draft, which goes after a submission). */
export const CREATE_CHANNEL_KEY = 'create.channel';

/** The channel to preselect: the user's last choice while it is offered, else the best (highest version: 本地口型 today). */
export const preferredChannel = (channels: readonly VideoChannel[], choice: string): VideoChannel | undefined =>
  channels.find((c) => c.api === choice) ?? byEffect(channels)[0];

export const emptyDraft = (): CreateDraft => ({
  name: LIMITS.defaultWorkName, mode: 'text', text: '', language: '', emotion: 'default', avatar: null, voice: null,
  params: { ...DEFAULT_SLIDERS }, audio: null, audition: null, channel: DEFAULT_CHANNEL, subtitles: defaultSubtitles(), bgm: defaultBgm(),
});

/** Channels whose engine takes an emotion (MiniMax's set is the spec's: default, happy, sad, …). */
const EMOTION_CHANNELS: readonly string[] = ['mm'];
export const channelHasEmotion = (api: string | undefined) => Boolean(api && EMOTION_CHANNELS.includes(api));

/** A public (system) voice: the only kind whose speed/volume/pitch travel with the audition and the work. */
export const isPublicVoice = (voice: Pick<Voice, 'source'> | null | undefined) => voice?.source === 2;

// ------------------------------------------------------------------------------------------------ pickers

export const avatarOf = (a: Avatar): PickedAvatar => ({ kind: 'avatar', id: a.id, name: a.name, cover: a.cover || a.cover_small, url: a.url, duration: a.duration });
export const materialAvatarOf = (m: Material): PickedAvatar => ({ kind: 'material', id: m.id, name: m.name, cover: m.cover, url: m.url, duration: m.duration });
/** A picture shows as itself: no video url, its image as the cover. */
export const photoOf = (p: Photo): PickedAvatar => ({ kind: 'photo', id: p.id, name: p.name, cover: p.url || p.cover, url: '' });
export const materialAudioOf = (m: Pick<Material, 'id' | 'name' | 'url' | 'duration'>): DriveAudio => ({ kind: 'material', id: m.id, name: m.name, url: m.url, duration: m.duration });

/** Why an avatar cannot be picked (still cloning, failed), or null. */
export function avatarPickProblem(avatar: Pick<Avatar, 'status'>): string | null {
  if (avatar.status === 1) return MSG.avatarNotReady;
  if (avatar.status === 4) return '该数字人克隆失败，请选择其他数字人';
  return null;
}

/** Training and failed voices cannot be chosen (part 2 §4). */
export function voicePickProblem(voice: Pick<Voice, 'generate_status'>): string | null {
  if (voice.generate_status === VoiceStatus.Training) return MSG.voiceTraining;
  if (voice.generate_status === VoiceStatus.Failed) return MSG.voiceFailed;
  return null;
}

/** The sliders a voice starts with: its own saved settings, clamped to the ranges. */
export function slidersOf(voice: Pick<Voice, 'rate' | 'volume' | 'pitch'> | null): Sliders {
  if (!voice) return { ...DEFAULT_SLIDERS };
  const pick = (key: SliderKey) => {
    const r = LIMITS.sliders[key];
    const v = Number(voice[key]);
    return Number.isFinite(v) && v >= r.min && v <= r.max ? v : r.default;
  };
  return { rate: pick('rate'), volume: pick('volume'), pitch: pick('pitch') };
}

/** Speed is disabled for nw; volume and pitch for fish and nw (part 2 §5). */
export function disabledSliders(api: string | undefined): Record<SliderKey, boolean> {
  const nw = api === 'nw';
  const fish = api === 'fish';
  return { rate: nw, volume: fish || nw, pitch: fish || nw };
}

export const roundSlider = (v: number) => Math.round(v * 10) / 10;

// ------------------------------------------------------------------------------------------------ the cache

/** What an audition depends on: text, voice, language, emotion, and the parameters a public voice sends. */
export function auditionKey(d: Pick<CreateDraft, 'text' | 'voice' | 'language' | 'emotion' | 'params'>): string {
  const params = isPublicVoice(d.voice) ? sentParams(d.voice!.api, d.params) : {};
  return JSON.stringify([d.text, d.voice?.id ?? null, d.language, channelHasEmotion(d.voice?.api) ? d.emotion : '', params]);
}

/** The draft's audition if it still matches the draft, else null. */
export function cachedAudition(d: CreateDraft): CachedAudition | null {
  return d.audition && d.audition.key === auditionKey(d) ? d.audition : null;
}

/**
 * A change to the draft. Editing the text, emotion or language, or changing the voice (or a public voice's confirmed
 * parameters), clears the cached audition (part 2 §4); a new voice starts from its own settings, its channel's default
 * language and emotion.
 */
export function applyPatch(d: CreateDraft, patch: Partial<CreateDraft>): CreateDraft {
  const next: CreateDraft = { ...d, ...patch };
  if (patch.voice !== undefined && patch.voice?.id !== d.voice?.id) {
    if (patch.params === undefined) next.params = slidersOf(patch.voice);
    if (patch.language === undefined) next.language = '';
    if (patch.emotion === undefined) next.emotion = 'default';
  }
  if (patch.audition === undefined && next.audition && auditionKey(next) !== auditionKey(d)) next.audition = null;
  return next;
}

/** Keeps a finished audition only if the draft has not changed since it was asked for. */
export function withAudition(d: CreateDraft, audition: CachedAudition): CreateDraft {
  return auditionKey(d) === audition.key ? { ...d, audition } : d;
}

// ------------------------------------------------------------------------------------------------ checks

/** The audition's check: text and a usable voice. */
export function auditionProblem(d: Pick<CreateDraft, 'text' | 'voice'>): string | null {
  if (!hasText(d.text) || !d.voice) return MSG.auditionNeedsTextAndVoice;
  return voicePickProblem(d.voice);
}

/** 合成视频's checks, in the spec's order: avatar; then text and voice (text mode) or the audio (audio mode); the limit. */
export function submitProblem(d: CreateDraft): string | null {
  if (!d.avatar) return MSG.avatarRequired;
  if (d.mode === 'audio') return d.audio ? null : MSG.audioFileRequired;
  if (!hasText(d.text)) return MSG.scriptRequired;
  if (!d.voice) return MSG.voiceRequired;
  const voice = voicePickProblem(d.voice);
  if (voice) return voice;
  const limit = scriptLimit(d.voice.api);
  if (countChars(d.text) > limit) return MSG.scriptTooLong(limit);
  return null;
}

/** Channel gj needs an avatar video of 30 to 300 s. */
export function channelProblem(api: string, avatar: Pick<PickedAvatar, 'duration'> | null): string | null {
  if (api !== 'gj') return null;
  const s = avatar?.duration;
  const { min, max } = LIMITS.gjAvatarSeconds;
  return s !== undefined && s >= min && s <= max ? null : MSG.gjDurationInvalid;
}

// ------------------------------------------------------------------------------------------------ requests

/** The parameters a public voice sends: those its channel does not disable. */
export function sentParams(api: string | undefined, params: Sliders): Partial<Sliders> {
  const off = disabledSliders(api);
  const out: Partial<Sliders> = {};
  for (const key of SLIDER_KEYS) if (!off[key]) out[key] = params[key];
  return out;
}

type AuditionRequest = CallRequest<typeof API.voices.audition>;
export type WorkRequest = CallRequest<typeof API.works.create>;

/** The audition call of the draft (call after auditionProblem). */
export function auditionRequest(d: CreateDraft): AuditionRequest {
  const voice = d.voice!;
  return {
    voice_id: voice.id,
    text: d.text,
    ...(isPublicVoice(voice) ? sentParams(voice.api, d.params) : {}),
    ...(d.language ? { language: d.language } : {}),
    ...(channelHasEmotion(voice.api) ? { emotion: d.emotion } : {}),
  } as AuditionRequest;
}

/**
 * The work submission (part 2 §3), with the burned-in captions when chosen. Audio mode: the uploaded audio as voice_id, or material_audio_id. Text mode: text,
 * user_voice_id, language and emotion, rate/volume/pitch only with a public voice, and voice_id = the audition's file
 * when there is one (without it the server speaks the text itself).
 */
export function buildSubmission(d: CreateDraft, api: string, auditionFileId?: number): WorkRequest {
  const avatar = d.avatar!;
  const base = {
    name: workNameOr(d.name, d.mode === 'text' ? d.text : '', d.mode === 'audio' ? (d.audio?.name ?? '').replace(/\.[^.]+$/, '') : avatar.name),
    api,
    ...subtitleFields(d.subtitles),
    ...bgmFields(d.bgm),
    ...(avatar.kind === 'material' ? { material_video_id: avatar.id } : avatar.kind === 'photo' ? { photo_id: avatar.id } : { video_id: avatar.id }),
  };
  if (d.mode === 'audio') {
    const audio = d.audio!;
    return { ...base, drive: 'audio', ...(audio.kind === 'material' ? { material_audio_id: audio.id } : { voice_id: audio.id }) } as WorkRequest;
  }
  const voice = d.voice!;
  return {
    ...base,
    drive: 'text',
    text: d.text,
    user_voice_id: voice.id,
    ...(isPublicVoice(voice) ? sentParams(voice.api, d.params) : {}),
    ...(d.language ? { language: d.language } : {}),
    ...(channelHasEmotion(voice.api) ? { emotion: d.emotion } : {}),
    ...(auditionFileId ? { voice_id: auditionFileId } : {}),
  } as WorkRequest;
}

/** After a refused submission: the cache, the pending audio and the text are cleared (part 2 §4). */
export const afterRefusal = (d: CreateDraft): CreateDraft => ({ ...d, audition: null, audio: null, text: '' });

// ------------------------------------------------------------------------------------------------ the address

export interface CreateQuery {
  /** id: an avatar (or with source=3 a material video). */
  avatarId: number | null;
  /** hs: 1 landscape, 2 portrait. */
  orientation: 1 | 2 | null;
  material: boolean;
  /** origin=audio&audioId=…: a material audio, audio-driven. */
  audioId: number | null;
  /** type=fk: the text stored under createText. */
  storedText: boolean;
  /** On the picture screens: source 1 my upload, 2 the AI library (sc marks the material library). */
  photoSource: 1 | 2 | null;
}

const positive = (v: string | undefined) => {
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : null;
};

export function parseCreateQuery(q: Record<string, string | undefined>): CreateQuery {
  return {
    avatarId: positive(q.id),
    orientation: q.hs === '1' ? 1 : q.hs === '2' ? 2 : null,
    material: q.source === '3' || q.sc !== undefined,
    audioId: q.origin === 'audio' ? positive(q.audioId) : null,
    storedText: q.type === 'fk',
    photoSource: q.source === '1' ? 1 : q.source === '2' ? 2 : null,
  };
}

/** The works page on the digital-human video tab (type1 0 video works, type2 1 数字人视频). */
export const WORKS_AFTER_SUBMIT = { path: '/works', query: { type1: 0, type2: 1 } } as const;

/**
 * How long the work should last: the audio's length (audio mode), else the script at the speed it will be spoken
 * (the voice's speed slider, unless its channel ignores speed), as the server estimates it.
 */
export function draftSeconds(d: Pick<CreateDraft, 'mode' | 'audio' | 'text' | 'voice' | 'params'>): number {
  if (d.mode === 'audio') return d.audio?.duration ?? 0;
  return estimateSeconds(d.text, disabledSliders(d.voice?.api).rate ? 1 : d.params.rate);
}

/** Estimated seconds × the channel's credits per second, rounded up: what works.create reserves. */
export const estimatePrice = workCredits;


// ------------------------------------------------------------------------------------------------ the stored draft

/** Where /create keeps its draft (the Storage service adds `aisa.`). */
export const CREATE_DRAFT_KEY = 'create.draft';

/** Text typed and not yet submitted: closing the tab asks first. */
export const hasUnsavedText = (d: Pick<CreateDraft, 'text'>) => hasText(d.text);

/**
 * /create's draft in storage: everything but the audition (its file may be gone by the next visit); a stored draft
 * is laid over an empty one field by field, so a draft of an older version still opens.
 */
export const createDraftRules: DraftRules<CreateDraft> = {
  revive(stored) {
    if (!isRecord(stored)) return null;
    const empty = emptyDraft();
    const params = isRecord(stored.params) ? stored.params : {};
    return {
      name: stringOr(stored.name, empty.name),
      mode: stored.mode === 'audio' ? 'audio' : 'text',
      text: stringOr(stored.text, ''),
      language: stringOr(stored.language, ''),
      emotion: stringOr(stored.emotion, empty.emotion),
      avatar: pickedOr<PickedAvatar>(stored.avatar),
      voice: pickedOr<Voice>(stored.voice),
      params: { rate: numberOr(params.rate, empty.params.rate), volume: numberOr(params.volume, empty.params.volume), pitch: numberOr(params.pitch, empty.params.pitch) },
      audio: pickedOr<DriveAudio>(stored.audio),
      audition: null,
      channel: stringOr(stored.channel, empty.channel),
      subtitles: reviveSubtitles(stored.subtitles),
      bgm: reviveBgm(stored.bgm),
    };
  },
  keep: (d) => ({ ...d, audition: null }),
  isEmpty: (d) => JSON.stringify({ ...d, audition: null }) === JSON.stringify(emptyDraft()),
};
