/**
 * 背景音乐 of a work: a track of the music library (the operator's and the user's own marked as background music),
 * listened to before it is chosen, and its level; the render ducks it under the speech, fades it in and out, and
 * loops or cuts it to the work's length.
 */
import { Button, Slider } from '@blueprintjs/core';
import { API, LIMITS } from '../../contract';
import { HTMLSelect, RecordOptions, TOKENS, musicTrackLabel, useAudioPlayer, useRemote, useService, type ApiClient, type Notifier } from '../../core';
import type { BgmChoice } from './bgm-choice';
import './subtitles.css';

const V = LIMITS.music.bgmVolume;

export interface BgmPickerProps {
  value: BgmChoice;
  onChange: (value: BgmChoice) => void;
  disabled?: boolean;
}

export function BgmPicker({ value, onChange, disabled }: BgmPickerProps) {
  const api = useService<ApiClient>(TOKENS.ApiClient);
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const library = useRemote('music:library', (signal) => api.call(API.music.library, {}, { silent: true, signal }));
  const player = useAudioPlayer((m) => notifier.error(m));
  const tracks = library.value?.list ?? [];
  const chosen = value.track ? tracks.find((t) => t.id === value.track!.id) : undefined;
  const pick = (id: string) => {
    player.stop();
    const track = tracks.find((t) => t.id === id);
    onChange({ ...value, track: track ? { id: track.id, name: track.name } : null });
  };
  return (
    <div className="cr-bgm" data-testid="bgm-picker">
      <div className="cr-bgm-row">
        <span className="cr-subtitles-label">背景音乐</span>
        <HTMLSelect fill value={value.track?.id ?? ''} onChange={(e) => pick(e.currentTarget.value)} disabled={disabled} aria-label="背景音乐" data-testid="bgm-track">
          <option value="">不加背景音乐</option>
          {value.track && !chosen && <option value={value.track.id}>{value.track.name}</option>}
          <RecordOptions items={tracks} label={musicTrackLabel} />
        </HTMLSelect>
        <Button icon={player.state.playing ? 'pause' : 'play'} disabled={!chosen} onClick={() => chosen && player.toggle(chosen.id, chosen.url)} aria-label="试听背景音乐" data-testid="bgm-play" />
      </div>
      {value.track && (
        <div className="cr-bgm-row">
          <span className="cr-subtitles-label">音量</span>
          <Slider min={V.min} max={V.max} stepSize={V.step} labelRenderer={false} value={value.volume} onChange={(v) => onChange({ ...value, volume: Math.round(v * 100) / 100 })} disabled={disabled} className="cr-bgm-slider" />
          <span className="cr-bgm-value" data-testid="bgm-volume">{Math.round(value.volume * 100)}%</span>
        </div>
      )}
      <audio {...player.bind} hidden data-testid="bgm-audio" />
      <span className="cr-subtitles-hint">{tracks.length || value.track ? '说话时自动压低，首尾淡入淡出，按作品时长循环或截断' : '音乐库暂无曲目；在「AI音乐」中把作品用作背景音乐后即可选用'}</span>
    </div>
  );
}
