import { useEffect } from 'react';
import { Button } from '@blueprintjs/core';
import { TOKENS, Waveform, formatClock, formatDuration, useAudioPlayer, useService, useWaveform, type Notifier } from '../../../core';

/**
 * A sample with its waveform: play/pause, the time, and a seekable waveform that fills as it plays. `waveSource` is
 * what the waveform decodes (the local file right after an upload, else the URL); `url` is what the <audio> plays.
 */
export function SamplePlayer({
  waveKey,
  url,
  waveSource,
  knownDuration,
  rate = 1,
  volume = 1,
  autoPlay = false,
  'data-testid': testId,
}: {
  waveKey: string;
  url: string;
  waveSource?: string | Blob;
  knownDuration?: number;
  rate?: number;
  volume?: number;
  autoPlay?: boolean;
  'data-testid'?: string;
}) {
  const notifier = useService<Notifier>(TOKENS.Notifier);
  const audio = useAudioPlayer((m) => notifier.error(m), { preload: 'none' });
  const load = useWaveform(waveKey, waveSource ?? url);
  const { state, progress, toggle, seek, bind, element } = audio;
  const playing = state.key === waveKey && state.playing;
  const duration = state.duration || (load.state === 'ready' ? load.data.duration : 0) || knownDuration || 0;

  useEffect(() => {
    const el = element.current;
    if (!el) return;
    el.playbackRate = rate;
    // The element's volume stops at 1; louder settings take effect in synthesis.
    el.volume = Math.max(0, Math.min(1, volume));
  }, [element, rate, volume, state.key]);

  useEffect(() => {
    // Only on open.
    if (autoPlay) toggle(waveKey, url);
  }, []);

  const seekTo = (fraction: number) => {
    if (state.key !== waveKey) {
      toggle(waveKey, url);
      return;
    }
    seek(fraction);
  };

  return (
    <div className={`vc-player ${playing ? 'playing' : ''}`} data-testid={testId}>
      <Button
        className="vc-player-toggle"
        intent="primary"
        icon={playing ? 'pause' : 'play'}
        aria-label={playing ? '暂停' : '播放'}
        onClick={() => toggle(waveKey, url)}
        data-testid={testId ? `${testId}-toggle` : undefined}
      />
      <div className="vc-player-main">
        <Waveform load={load} progress={state.key === waveKey ? progress : 0} height={44} onSeek={seekTo} data-testid={testId ? `${testId}-wave` : undefined} />
        <div className="vc-player-time">
          <span>{formatClock(state.key === waveKey ? state.time : 0)}</span>
          <span>{formatDuration(duration) || '--:--'}</span>
        </div>
      </div>
      <audio {...bind} hidden data-testid={testId ? `${testId}-audio` : undefined} />
    </div>
  );
}
