import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@blueprintjs/core';
import { formatClock, formatDuration } from './format';

export interface VideoPlayerProps {
  src: string;
  poster?: string;
  autoPlay?: boolean;
  preload?: 'auto' | 'metadata' | 'none';
  /** Classes of the <video> itself (the plugin's sizing). */
  className?: string;
  /** What is playing, for screen readers: 视频播放器 unless given. */
  label?: string;
  /** Goes on the <video>, so a journey reads the media element; the controls carry `video-*` test ids. */
  'data-testid'?: string;
}

/** Arrow keys move this many seconds. */
const SEEK_STEP_SECONDS = 5;

/**
 * The one video player of the workbench: the product's own controls (play/pause, a seek bar, the time as core's
 * format helpers write it, fullscreen; Space and ←/→ on the player), so a work's length reads the same on its card
 * and in its player — the browser's native controls round differently.
 */
export function VideoPlayer({ src, poster, autoPlay, preload = 'metadata', className, label = '视频播放器', ...rest }: VideoPlayerProps) {
  const box = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);

  useEffect(() => {
    const v = video.current;
    if (!v) return;
    const sync = () => {
      setPlaying(!v.paused && !v.ended);
      setTime(v.currentTime || 0);
      setDuration(Number.isFinite(v.duration) ? v.duration : 0);
    };
    const events = ['play', 'pause', 'ended', 'timeupdate', 'loadedmetadata', 'durationchange', 'seeked'] as const;
    for (const e of events) v.addEventListener(e, sync);
    sync();
    return () => {
      for (const e of events) v.removeEventListener(e, sync);
    };
  }, [src]);

  const toggle = useCallback(() => {
    const v = video.current;
    if (!v) return;
    // A play the browser refuses (autoplay policy, a source that does not load) leaves the button on 播放.
    if (v.paused || v.ended) void v.play()?.catch(() => undefined);
    else v.pause();
  }, []);

  const seekTo = useCallback((seconds: number) => {
    const v = video.current;
    if (!v) return;
    const end = Number.isFinite(v.duration) ? v.duration : seconds;
    v.currentTime = Math.min(Math.max(seconds, 0), end);
    setTime(v.currentTime);
  }, []);

  const fullscreen = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen?.().catch(() => undefined);
    else void box.current?.requestFullscreen?.().catch(() => undefined);
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    // Buttons take Space themselves and the seek bar takes the arrows: only the player's own focus is handled here.
    if (target.closest('button, input')) return;
    if (e.key === ' ') toggle();
    else if (e.key === 'ArrowLeft') seekTo((video.current?.currentTime ?? 0) - SEEK_STEP_SECONDS);
    else if (e.key === 'ArrowRight') seekTo((video.current?.currentTime ?? 0) + SEEK_STEP_SECONDS);
    else return;
    e.preventDefault();
  };

  const total = formatDuration(duration) || '--:--';
  return (
    <div ref={box} className="video-player" role="group" aria-label={label} tabIndex={0} onKeyDown={onKeyDown}>
      <style href="core-video-player" precedence="medium">
        {VIDEO_PLAYER_CSS}
      </style>
      <video ref={video} key={src} src={src} poster={poster} autoPlay={autoPlay} preload={preload} playsInline className={className} onClick={toggle} data-testid={rest['data-testid']} />
      <div className="video-player-bar">
        <Button variant="minimal" size="small" icon={playing ? 'pause' : 'play'} aria-label={playing ? '暂停' : '播放'} onClick={toggle} data-testid="video-play" />
        <input
          type="range"
          className="video-player-seek"
          min={0}
          max={duration || 0}
          step={0.1}
          value={Math.min(time, duration || 0)}
          disabled={!duration}
          aria-label="播放进度"
          aria-valuetext={`${formatClock(time)} / ${total}`}
          onChange={(e) => seekTo(Number(e.target.value))}
          data-testid="video-seek"
        />
        <span className="video-player-time" data-testid="video-time">
          <span data-testid="video-position">{formatClock(time)}</span> / <span data-testid="video-duration">{total}</span>
        </span>
        <Button variant="minimal" size="small" icon="fullscreen" aria-label="全屏" onClick={fullscreen} data-testid="video-fullscreen" />
      </div>
    </div>
  );
}

const VIDEO_PLAYER_CSS = `
.video-player { display: flex; flex-direction: column; align-items: center; max-width: 100%; min-width: 0; outline: none; }
.video-player:focus-visible { box-shadow: 0 0 0 2px var(--accent); border-radius: 6px; }
.video-player > video { display: block; max-width: 100%; cursor: pointer; }
.video-player:fullscreen { justify-content: center; background: #000; }
.video-player:fullscreen > video { flex: 1; min-height: 0; width: 100%; }
/* Dark in both themes: it sits under a picture, often on a black stage. */
.video-player-bar { display: flex; align-items: center; gap: 6px; align-self: stretch; padding: 2px 6px; min-width: 0; background: #141414; color: #e8e8e8; }
.video-player-bar .bp6-button .bp6-icon { color: #e8e8e8; }
.video-player-seek { flex: 1; min-width: 40px; accent-color: var(--accent); cursor: pointer; }
.video-player-time { font-variant-numeric: tabular-nums; font-size: 12px; white-space: nowrap; }
`;
