import type { AudioPlayer, AudioPlayerState, SliderKey } from '../../../core';
import type { Scene, SceneAudio, SceneType } from './scenes';

/** What a scene card does to the draft (MultiplesState through the panel). */
export interface SceneActions {
  setType(id: string, type: SceneType): void;
  setText(id: string, text: string): void;
  setSlider(id: string, key: SliderKey, value: number): void;
  resetSliders(id: string): void;
  setAudio(id: string, audio: SceneAudio | null): void;
  move(id: string, delta: number): void;
  remove(id: string): void;
  audition(id: string): void;
  pickAvatar(id: string): void;
  pickVoice(id: string): void;
}

export interface SceneCardProps {
  scene: Scene;
  index: number;
  count: number;
  flagged: boolean;
  auditioning: boolean;
  /** Only for an audio-only work: the avatar is kept but not used. */
  avatarUnused: boolean;
  /** The player's state when it holds this scene's sound, else null (so other scenes do not re-render). */
  playing: AudioPlayerState | null;
  player: Pick<AudioPlayer, 'toggle' | 'seek'>;
  actions: SceneActions;
}

/** Which sound the shared player holds: a scene's audition or its uploaded audio. */
export const sceneKey = (id: string) => `scene:${id}`;
export const audioKey = (id: string) => `audio:${id}`;
