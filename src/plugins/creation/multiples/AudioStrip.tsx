import type { MouseEvent, ReactNode } from 'react';
import { Button, ProgressBar } from '@blueprintjs/core';
import { formatClock, type AudioPlayerState } from '../../../core';

/** A round play/pause button, the title with the time (or `meta` while not loaded), a seekable progress line. */
export function AudioStrip(props: {
  title: ReactNode;
  meta: string;
  playing: AudioPlayerState | null;
  onToggle: () => void;
  onSeek: (f: number) => void;
  testId: string;
  children?: ReactNode;
}) {
  const { playing } = props;
  const on = Boolean(playing?.playing);
  const progress = playing && playing.duration > 0 ? Math.min(1, playing.time / playing.duration) : 0;
  const seek = (e: MouseEvent<HTMLDivElement>) => {
    if (!playing) return;
    const r = e.currentTarget.getBoundingClientRect();
    props.onSeek((e.clientX - r.left) / r.width);
  };
  return (
    <div className={`mu-strip ${on ? 'playing' : ''}`}>
      <Button className="mu-strip-play" intent="primary" icon={on ? 'pause' : 'play'} aria-label={on ? '暂停' : '播放'} onClick={props.onToggle} data-testid={props.testId} />
      <div className="mu-strip-main">
        <div className="mu-strip-title">
          <span className="mu-strip-name">{props.title}</span>
          <span className="mu-strip-time">{playing && playing.duration > 0 ? `${formatClock(playing.time)} / ${formatClock(playing.duration)}` : props.meta}</span>
        </div>
        <div className="mu-strip-track" onClick={seek} role="presentation">
          <ProgressBar value={progress} animate={false} stripes={false} intent="primary" className="mu-strip-bar" />
        </div>
      </div>
      {props.children}
    </div>
  );
}
