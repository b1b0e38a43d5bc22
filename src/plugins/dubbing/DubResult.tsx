/**
 * The dub being listened to: its waveform with a flag where each line starts (click one, or a line below, to play
 * from there), the lines with their roles and times (the one heard now lit), downloads of the mp3 and the SRT, save
 * to the material library, and 用于创作 (the dub drives a video on /create).
 */
import { memo } from 'react';
import { AnchorButton, Button, Callout, Spinner, Tag } from '@blueprintjs/core';
import { DubbingStatus, type DubbingRecord } from '../../contract';
import { Waveform, formatClock, useWaveform, type AudioPlayerState, type WaveformMarker } from '../../core';

export const dubKey = (record: Pick<DubbingRecord, 'id'>) => `dub:${record.id}`;

/** The line heard at `time` (the last one started), or -1 before the first. */
export function cueAt(cues: DubbingRecord['cues'], time: number): number {
  let at = -1;
  cues.forEach((c, i) => {
    if (time >= c.start - 0.05) at = i;
  });
  return at;
}

export interface DubResultProps {
  record: DubbingRecord;
  /** The url the player holds for this record (signed urls change with each listing). */
  url: string;
  playing: AudioPlayerState | null;
  saving: boolean;
  onToggle(): void;
  onPlayFrom(seconds: number): void;
  onSeek(fraction: number): void;
  onSave(): void;
  onUse(): void;
}

export const DubResult = memo(function DubResult({ record, url, playing, saving, onToggle, onPlayFrom, onSeek, onSave, onUse }: DubResultProps) {
  const done = record.status === DubbingStatus.Done;
  const load = useWaveform(done ? dubKey(record) : null, done ? url : null);
  const time = playing?.time ?? 0;
  const current = playing ? cueAt(record.cues, time) : -1;
  const duration = record.duration || playing?.duration || 0;
  // Each role's colour, in the order the roles first speak (as the project shows them).
  const roleNames = [...new Set(record.cues.map((c) => c.role).filter(Boolean))];
  const markers: WaveformMarker[] = record.cues.map((c, i) => ({
    at: duration > 0 ? c.start / duration : 0,
    label: String(i + 1),
    title: `第${i + 1}句 ${c.role ? `${c.role}：` : ''}${c.text}`,
    active: i === current,
  }));

  return (
    <section className="dub-result" data-testid="dub-result" data-id={record.id} data-status={record.status}>
      <header className="dub-result-head">
        <h3 className="dub-result-name" title={record.name}>{record.name}</h3>
        <span className="dub-result-meta">
          {done ? `${formatClock(record.duration)} · ${record.lines}句 · ${record.chars}字` : `${record.lines}句 · ${record.chars}字`}
          {record.bgm ? ' · 含背景音乐' : ''}
        </span>
        <div className="dub-result-roles">
          {record.roles.map((r) => (
            <Tag key={r} minimal round>{r}</Tag>
          ))}
        </div>
      </header>

      {record.status === DubbingStatus.Failed ? (
        <Callout intent="danger" icon="error" className="dub-result-failed" data-testid="dub-result-reason">{record.reason ?? '配音生成失败'}</Callout>
      ) : !done ? (
        <div className="dub-result-busy" data-testid="dub-result-busy">
          <Spinner size={20} />
          <span>{record.status === DubbingStatus.Queued ? '排队中，马上开始…' : '正在逐句合成…'}</span>
        </div>
      ) : (
        <>
          <div className="dub-player">
            <Button className="dub-player-toggle" intent="primary" icon={playing?.playing ? 'pause' : 'play'} aria-label={playing?.playing ? '暂停' : '播放'} onClick={onToggle} data-testid="dub-play" />
            <div className="dub-player-main">
              <Waveform load={load} progress={playing && duration > 0 ? Math.min(1, time / duration) : 0} height={56} onSeek={onSeek} markers={markers} onMarker={(i) => onPlayFrom(record.cues[i]!.start)} data-testid="dub-wave" />
              <div className="dub-player-time">
                <span data-testid="dub-time">{formatClock(time)}</span>
                <span>{formatClock(duration)}</span>
              </div>
            </div>
          </div>
          <div className="dub-result-actions">
            <AnchorButton icon="download" text="下载音频" href={url} download={`${record.name}.mp3`} data-testid="dub-download" />
            <AnchorButton icon="manually-entered-data" text="下载字幕" href={record.srt} download={`${record.name}.srt`} data-testid="dub-download-srt" />
            <Button icon="folder-new" text="保存到素材库" loading={saving} onClick={onSave} data-testid="dub-save" />
            <Button intent="primary" variant="outlined" icon="video" text="用于创作" onClick={onUse} data-testid="dub-use" />
          </div>
          <ol className="dub-cues" data-testid="dub-cues">
            {record.cues.map((c, i) => (
              <li key={i} className={i === current ? 'active' : ''}>
                <button type="button" className="dub-cue" onClick={() => onPlayFrom(c.start)} data-testid="dub-cue">
                  <span className="dub-line-index">{i + 1}</span>
                  <span className="dub-cue-time">{formatClock(c.start)}</span>
                  {c.role && <span className={`dub-cue-role tone-${roleNames.indexOf(c.role) % 5}`}>{c.role}</span>}
                  <span className="dub-cue-text">{c.text}</span>
                </button>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
});
