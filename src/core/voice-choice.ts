/**
 * A voice as a creation screen keeps it (a scene of /multiples, a role of the dubbing studio), and the speed, volume
 * and pitch sliders beside it: pure data, shared by the screens that pick voices (part 2 §2.3, §5).
 */
import { LIMITS, type Voice } from '../contract';

export type SliderKey = 'rate' | 'volume' | 'pitch';

/** What a scene or a role keeps of its voice (the spec's scene entity: voice name and version name). */
export interface SceneVoice {
  id: number;
  name: string;
  api: string;
  version_name: string;
  /** The channel's display name (voice_channel_name). */
  channel_name: string;
}

/** The voice's channel line: 离线声音 1.0. */
export function voiceLabel(voice: Pick<SceneVoice, 'channel_name' | 'version_name' | 'api'>): string {
  return [voice.channel_name, voice.version_name].filter(Boolean).join(' ') || voice.api;
}

export const SLIDER_DEFAULTS: Record<SliderKey, number> = {
  rate: LIMITS.sliders.rate.default,
  volume: LIMITS.sliders.volume.default,
  pitch: LIMITS.sliders.pitch.default,
};

export function sceneVoiceOf(voice: Pick<Voice, 'id' | 'name' | 'api' | 'version_name' | 'voice_channel_name'>): SceneVoice {
  return { id: voice.id, name: voice.name, api: voice.api, version_name: voice.version_name, channel_name: voice.voice_channel_name };
}

export const roundSlider = (value: number) => Math.round(value * 10) / 10;

/** A voice's own settings (its saved speed, volume and pitch; 1 when unset), within the sliders' ranges. */
export function voiceSettings(voice: Partial<Pick<Voice, SliderKey>>): Record<SliderKey, number> {
  const pick = (key: SliderKey) => {
    const value = Number(voice[key]);
    const range = LIMITS.sliders[key];
    return Number.isFinite(value) && value >= range.min && value <= range.max ? roundSlider(value) : SLIDER_DEFAULTS[key];
  };
  return { rate: pick('rate'), volume: pick('volume'), pitch: pick('pitch') };
}

/** Speed is fixed for nw; volume and pitch for fish and nw (part 2 §5). */
export function sliderEnabled(channelApi: string | undefined, key: SliderKey): boolean {
  if (channelApi === 'nw') return false;
  if (channelApi === 'fish') return key === 'rate';
  return true;
}
