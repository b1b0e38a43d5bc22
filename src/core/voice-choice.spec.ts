import { describe, expect, it } from 'vitest';
import { roundSlider, sceneVoiceOf, sliderEnabled, voiceLabel, voiceSettings } from './voice-choice';

describe('a voice as the creation screens keep it', () => {
  it('keeps its id, name, channel and version', () => {
    expect(sceneVoiceOf({ id: 7, name: '小林', api: 'mm', version_name: '2.0', voice_channel_name: 'MiniMax' })).toEqual({ id: 7, name: '小林', api: 'mm', version_name: '2.0', channel_name: 'MiniMax' });
  });

  it('labels a voice by its channel and version', () => {
    expect(voiceLabel({ channel_name: '离线声音', version_name: '1.0', api: 'local' })).toBe('离线声音 1.0');
    expect(voiceLabel({ channel_name: '', version_name: '', api: 'fish' })).toBe('fish');
  });

  it("takes a voice's settings within the sliders' ranges (1 when unset or out of range)", () => {
    expect(voiceSettings({ rate: 1.5, volume: 0, pitch: 9 })).toEqual({ rate: 1.5, volume: 1, pitch: 1 });
    expect(voiceSettings({})).toEqual({ rate: 1, volume: 1, pitch: 1 });
  });

  it('disables speed for nw, and volume and pitch for fish and nw', () => {
    expect(['rate', 'volume', 'pitch'].map((k) => sliderEnabled('nw', k as never))).toEqual([false, false, false]);
    expect(['rate', 'volume', 'pitch'].map((k) => sliderEnabled('fish', k as never))).toEqual([true, false, false]);
    expect(['rate', 'volume', 'pitch'].map((k) => sliderEnabled('local', k as never))).toEqual([true, true, true]);
    expect(sliderEnabled(undefined, 'pitch')).toBe(true);
  });

  it('rounds a slider to one decimal', () => {
    expect(roundSlider(1.26)).toBe(1.3);
    expect(roundSlider(0.94)).toBe(0.9);
  });
});
