/**
 * The studio's right-hand card: the gap between lines, background music from the music library or the material library (its level; it is
 * ducked under the speech and faded in and out), the project's size, the price before generating, and 生成配音.
 */
import { memo } from 'react';
import { Button, Icon, Slider } from '@blueprintjs/core';
import { HTMLSelect, RecordOptions, musicTrackLabel } from '../../core';
import { LIMITS, type Material, type MusicTrack } from '../../contract';
import type { DubMusic } from './dub-draft';

const D = LIMITS.dubbing;

export interface DubSettingsProps {
  gap: number;
  music: DubMusic | null;
  musicVolume: number;
  /** The user's audio materials. */
  tracks: Material[];
  /** The music library: published tracks and the user's own marked as background music. */
  library: MusicTrack[];
  lines: number;
  chars: number;
  roles: number;
  seconds: number;
  credits: number;
  submitting: boolean;
  musicPlaying: boolean;
  onGap(gap: number): void;
  onMusic(music: DubMusic | null): void;
  onMusicVolume(volume: number): void;
  onPlayMusic(): void;
  onGenerate(): void;
}

export const DubSettings = memo(function DubSettings(p: DubSettingsProps) {
  const pick = (id: string) => {
    const material = p.tracks.find((t) => String(t.id) === id);
    const track = p.library.find((t) => t.id === id);
    p.onMusic(material ? { id: material.id, name: material.name, url: material.url } : track ? { id: track.id, name: track.name, url: track.url } : null);
  };
  const known = (id: number | string) => p.tracks.some((t) => t.id === id) || p.library.some((t) => t.id === id);
  return (
    <aside className="dub-side" data-testid="dub-settings">
      <section className="dub-side-block">
        <h3 className="dub-side-title">句间隔</h3>
        <div className="dub-side-row">
          <Slider min={D.gap.min} max={2} stepSize={D.gap.step} labelRenderer={false} value={Math.min(p.gap, 2)} onChange={(v) => p.onGap(Math.round(v * 10) / 10)} className="dub-side-slider" />
          <span className="dub-side-value" data-testid="dub-gap">{p.gap.toFixed(1)} 秒</span>
        </div>
        <p className="dub-side-hint">每两句之间的静音；某一句后还可单独加停顿</p>
      </section>

      <section className="dub-side-block">
        <h3 className="dub-side-title">背景音乐</h3>
        <div className="dub-side-row">
          <HTMLSelect fill value={p.music ? String(p.music.id) : ''} onChange={(e) => pick(e.currentTarget.value)} aria-label="背景音乐" data-testid="dub-music">
            <option value="">不加背景音乐</option>
            {p.music && !known(p.music.id) && <option value={String(p.music.id)}>{p.music.name}</option>}
            {p.library.length > 0 && (
              <optgroup label="音乐库">
                <RecordOptions items={p.library} label={musicTrackLabel} />
              </optgroup>
            )}
            {p.tracks.length > 0 && (
              <optgroup label="我的素材">
                <RecordOptions items={p.tracks} />
              </optgroup>
            )}
          </HTMLSelect>
          <Button icon={p.musicPlaying ? 'pause' : 'play'} disabled={!p.music} onClick={p.onPlayMusic} aria-label="试听背景音乐" data-testid="dub-music-play" />
        </div>
        {p.music && (
          <div className="dub-side-row">
            <span className="dub-side-label">音量</span>
            <Slider min={D.bgmVolume.min} max={D.bgmVolume.max} stepSize={D.bgmVolume.step} labelRenderer={false} value={p.musicVolume} onChange={(v) => p.onMusicVolume(Math.round(v * 100) / 100)} className="dub-side-slider" />
            <span className="dub-side-value" data-testid="dub-music-volume">{Math.round(p.musicVolume * 100)}%</span>
          </div>
        )}
        <p className="dub-side-hint">{p.tracks.length || p.library.length || p.music ? '说话时自动压低、首尾淡入淡出；字幕时间不变' : '在「我的素材」上传音频，或在「AI音乐」中生成后即可选用'}</p>
      </section>

      <section className="dub-side-block dub-side-sum" data-testid="dub-summary">
        <div className="dub-figures">
          <Figure value={p.lines} unit="句" />
          <Figure value={p.chars} unit="字" />
          <Figure value={p.roles} unit="角色" />
          <Figure value={`约${Math.round(p.seconds)}`} unit="秒" />
        </div>
        <div className="dub-price" data-testid="dub-price" data-credits={p.credits}>
          <Icon icon="dollar" />
          {p.credits > 0 ? (
            <span>
              <strong>{p.credits}</strong> 积分
            </span>
          ) : (
            <span>
              <strong>免费</strong>
            </span>
          )}
        </div>
        <p className="dub-side-hint">按各声音渠道每{D.priceUnitChars}字的配音价格计算，离线声音免费；生成时预扣，失败全额退回</p>
        <Button intent="primary" size="large" fill icon="microphone" text="生成配音" loading={p.submitting} onClick={p.onGenerate} data-testid="dub-generate" />
      </section>
    </aside>
  );
});

function Figure({ value, unit }: { value: number | string; unit: string }) {
  return (
    <span className="dub-figure">
      <strong>{value}</strong>
      <small>{unit}</small>
    </span>
  );
}
