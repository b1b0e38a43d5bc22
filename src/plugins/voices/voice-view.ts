/**
 * Pure helpers of the voices plugin: the status line, which card actions are open, the channel list of the picker,
 * the clone audio check, the form's problems, the tab of /clone, and the waveform's peaks.
 */
import { LIMITS, MSG, VOICE_TYPE_NAME_LOCKED, VoiceStatus, type Voice, type VoiceChannel } from '../../contract';
import { cloneFormCheck, sampleWords, type CloneOutcome } from '../../core';

export type VoicePhase = 'training' | 'failed' | 'ready';

/** generate_status (part 1 §4): 1 in progress, 3 failed, any other value usable. */
export function voicePhase(voice: Pick<Voice, 'generate_status'>): VoicePhase {
  if (voice.generate_status === VoiceStatus.Training) return 'training';
  if (voice.generate_status === VoiceStatus.Failed) return 'failed';
  return 'ready';
}

/** The card's status line: 训练中, 失败, 可修改N次 (remained_times > 0) or 不可修改. */
/** A voice's clone as useCloneOutcomes reads it. */
export const cloneOutcome = (v: Pick<Voice, 'generate_status'>): CloneOutcome => {
  const phase = voicePhase(v);
  return phase === 'training' ? 'pending' : phase;
};
export const VOICE_CLONE_WORDS = { ready: MSG.voiceCloneReady, failed: MSG.voiceCloneFailed };

export function statusLine(voice: Pick<Voice, 'generate_status' | 'remained_times'>): string {
  const phase = voicePhase(voice);
  if (phase === 'training') return '训练中';
  if (phase === 'failed') return '失败';
  return voice.remained_times > 0 ? `可修改${voice.remained_times}次` : '不可修改';
}

/** The tone of the status line (for its colour). */
export function statusTone(voice: Pick<Voice, 'generate_status' | 'remained_times'>): 'training' | 'failed' | 'modifiable' | 'fixed' {
  const phase = voicePhase(voice);
  if (phase !== 'ready') return phase;
  return voice.remained_times > 0 ? 'modifiable' : 'fixed';
}

export const isNameLocked = (voice: Pick<Voice, 'type'>) => voice.type === VOICE_TYPE_NAME_LOCKED;
export const isConfirmed = (voice: Pick<Voice, 'confirmed'>) => voice.confirmed === 1;

export interface VoiceActions {
  /** Not for a name-locked voice (type 11). */
  rename: boolean;
  /** Only when not in progress and remained_times > 0 (and not yet confirmed: a confirmed voice is fixed). */
  modify: boolean;
  /** Only when remained_times = 0 (and not while a modification trains: the server refuses that). */
  remove: boolean;
  /** A generated voice, once. */
  confirm: boolean;
  /** There is a sample to hear. */
  play: boolean;
}

/** Which actions of an own voice's card are open. */
export function voiceActions(voice: Voice): VoiceActions {
  const phase = voicePhase(voice);
  return {
    rename: !isNameLocked(voice),
    modify: phase !== 'training' && voice.remained_times > 0 && !isConfirmed(voice),
    remove: voice.remained_times <= 0 && phase !== 'training',
    confirm: phase === 'ready' && !isConfirmed(voice),
    play: voice.url.trim() !== '',
  };
}

/** Why training failed (the server's `reason`, read loosely), or a plain fallback. */
export function failureReason(voice: Voice): string {
  const reason = (voice as Voice & { reason?: unknown }).reason;
  return typeof reason === 'string' && reason.trim() ? reason.trim() : '训练失败，请修改后重试';
}

/** The channel whose voices are edited only with a handheld device's recording. */
export const HANDHELD_CHANNEL_API = 'xf';

/** Editing a voice of channel xf is refused (part 1 §5); null when the edit may go on. */
export function modifyRefusal(voice: Pick<Voice, 'api'>): string | null {
  return voice.api === HANDHELD_CHANNEL_API ? MSG.voiceXfEditRefused : null;
}

/** The channel picker hides the channel whose api is xf. */
export function pickableChannels(list: readonly VoiceChannel[]): VoiceChannel[] {
  return list.filter((c) => c.api !== HANDHELD_CHANNEL_API);
}

/** Credits per clone: 0 is free. */
export function channelPrice(channel: Pick<VoiceChannel, 'credits'>): string {
  return channel.credits > 0 ? `${channel.credits} 积分/次` : '免费';
}

/**
 * Whether a channel card shows its free clones left: only on a paid channel, where they matter. A free channel
 * would otherwise read 免费 beside 剩余免费 0 次.
 */
export function showsFreeTimes(channel: Pick<VoiceChannel, 'credits'>): boolean {
  return channel.credits > 0;
}

export const DEFAULT_UPLOAD_TIPS = '建议上传 3~5 分钟的清晰人声录音，效果更佳';

/** The channel's own upload tip, or the default advice (3 to 5 minutes). */
export function uploadTips(channel: Pick<VoiceChannel, 'upload_tips'> | null | undefined): string {
  return channel?.upload_tips.trim() || DEFAULT_UPLOAD_TIPS;
}

/** The channel a voice was cloned on (for modify), else a stand-in with the voice's own words. */
export function channelOf(voice: Pick<Voice, 'api' | 'voice_channel_name' | 'version_name'>, channels: readonly VoiceChannel[]): VoiceChannel {
  return (
    channels.find((c) => c.api === voice.api) ?? {
      api: voice.api,
      name: voice.voice_channel_name || voice.api,
      desc: '',
      version_name: voice.version_name,
      credits: 0,
      free_times: 0,
      train_times: 0,
      upload_tips: '',
      language: '',
    }
  );
}

/** The accept list of the clone upload (mp3, m4a, wav). */
export const CLONE_AUDIO_ACCEPT = '.mp3,.m4a,.wav,audio/mpeg,audio/mp3,audio/mp4,audio/x-m4a,audio/wav,audio/x-wav,audio/wave';

const MB = 1024 * 1024;
export const AUDIO_MAX_MB = LIMITS.audio.maxBytes / MB;
/** The clone recording's limits in words. */
export const AUDIO_SAMPLE = sampleWords(LIMITS.audio);

/** The clone dialog's file check: MP3/M4A/WAV, not empty, at most LIMITS.audio.maxBytes (20 MB). */
export function checkCloneAudio(file: { name: string; size: number }): string | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  const formats: readonly string[] = LIMITS.audio.formats;
  if (!formats.includes(ext) || file.size <= 0) return MSG.audioInvalid;
  if (file.size > LIMITS.audio.maxBytes) return MSG.audioTooLarge(AUDIO_MAX_MB);
  return null;
}

/** A length the browser read: out of 5 s..30 min is refused; unknown is left to the server. */
export function checkAudioDuration(seconds: number | undefined): string | null {
  if (seconds === undefined || !Number.isFinite(seconds)) return null;
  return seconds < LIMITS.audio.minSeconds || seconds > LIMITS.audio.maxSeconds ? MSG.audioDurationInvalid : null;
}

/** Shorter than the advised 10 s of recording (a hint, not a refusal). */
export function shortRecording(seconds: number | undefined): boolean {
  return seconds !== undefined && Number.isFinite(seconds) && seconds < LIMITS.audio.adviseMinSeconds;
}

/** What the clone form lacks, in the spec's order (name, then audio), or null. */
export const cloneFormProblem = cloneFormCheck(MSG.voiceNameRequired, MSG.voiceAudioRequired);

/** The requirement lines of the clone dialog. */
export function audioRequirements(channel: Pick<VoiceChannel, 'upload_tips'> | null | undefined): string[] {
  return [
    `格式为 ${AUDIO_SAMPLE.formats}，仅 1 个文件`,
    `文件小于 ${AUDIO_SAMPLE.size}`,
    `时长 ${AUDIO_SAMPLE.length}`,
    `建议录音至少 ${LIMITS.audio.adviseMinSeconds} 秒`,
    uploadTips(channel),
  ];
}

/** /clone?id=: 1 my voices (the default), 2 public voices. */
export type VoiceTab = 1 | 2;
export function tabFromQuery(query: Record<string, string | undefined>): VoiceTab {
  return query.id === '2' ? 2 : 1;
}
