import { Slider } from '@blueprintjs/core';
import { LIMITS } from '../contract';
import type { SliderKey } from './voice-choice';

export interface VoiceSliderProps {
  param: SliderKey;
  value: number;
  disabled: boolean;
  onChange: (value: number) => void;
  className: string;
}

/** A voice parameter's slider (语速, 音量, 音调) on its range in LIMITS.sliders, without Blueprint's own labels: /create's voice pane and a multi-scene scene show one each. */
export function VoiceSlider({ param, value, disabled, onChange, className }: VoiceSliderProps) {
  const range = LIMITS.sliders[param];
  return <Slider min={range.min} max={range.max} stepSize={range.step} labelRenderer={false} value={value} disabled={disabled} onChange={onChange} className={className} />;
}
