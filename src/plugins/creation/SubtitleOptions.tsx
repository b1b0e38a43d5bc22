import { Switch } from '@blueprintjs/core';
import type { SubtitleColor, SubtitlePosition, SubtitleSize } from '../../contract';
import { Segments } from '../../core';
import { SUBTITLE_OPTIONS, type SubtitleChoice } from './subtitle-choice';
import './subtitles.css';

export interface SubtitleOptionsProps {
  value: SubtitleChoice;
  onChange: (value: SubtitleChoice) => void;
  /** Why captions cannot be burned in here (an audio-only work), shown instead of the options. */
  unavailable?: string;
  disabled?: boolean;
}

/** 字幕: burned in or not, and how they look; the sample shows the chosen colour and size. */
export function SubtitleOptions({ value, onChange, unavailable, disabled }: SubtitleOptionsProps) {
  const set = (patch: Partial<SubtitleChoice>) => onChange({ ...value, ...patch });
  const on = value.on && !unavailable;
  return (
    <div className="cr-subtitles" data-testid="subtitle-options" data-on={on ? '1' : '0'}>
      <div className="cr-subtitles-head">
        <Switch
          className="cr-subtitles-switch"
          checked={on}
          disabled={disabled || Boolean(unavailable)}
          label="烧录字幕"
          onChange={(e) => set({ on: e.currentTarget.checked })}
          data-testid="subtitle-on"
        />
        {on && (
          <span className={`cr-subtitles-sample size-${value.size} color-${value.color}`} aria-hidden data-testid="subtitle-sample">
            字幕样式
          </span>
        )}
      </div>
      <span className="cr-subtitles-hint">{unavailable ?? (on ? '台词逐句显示在画面上，停顿时不显示' : '不烧录时，作品页仍可下载 SRT 字幕')}</span>
      {on && (
        <div className="cr-subtitles-grid">
          <span className="cr-subtitles-label">大小</span>
          <Segments value={value.size} options={SUBTITLE_OPTIONS.size} onChange={(v) => set({ size: v as SubtitleSize })} testId="subtitle-size" fill />
          <span className="cr-subtitles-label">位置</span>
          <Segments value={value.position} options={SUBTITLE_OPTIONS.position} onChange={(v) => set({ position: v as SubtitlePosition })} testId="subtitle-position" fill />
          <span className="cr-subtitles-label">颜色</span>
          <Segments value={value.color} options={SUBTITLE_OPTIONS.color} onChange={(v) => set({ color: v as SubtitleColor })} testId="subtitle-color" fill />
        </div>
      )}
    </div>
  );
}
