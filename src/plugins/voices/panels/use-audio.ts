import { useCallback, useEffect, useRef, useState, type SyntheticEvent } from 'react';

export interface AudioState {
  /** What is loaded (a voice id, a file name); null when nothing is. */
  key: string | null;
  playing: boolean;
  /** Seconds. */
  time: number;
  /** Seconds; 0 until the metadata is read. */
  duration: number;
}

const IDLE: AudioState = { key: null, playing: false, time: 0, duration: 0 };

/**
 * One visible <audio> element under the caller's control (one sample plays at a time): `toggle(key, url)` plays
 * or pauses, `seek(fraction)` jumps. Spread `bind` on the element. Unmounting stops it.
 */
export function useAudio(onError: (message: string) => void) {
  const ref = useRef<HTMLAudioElement | null>(null);
  const [state, setState] = useState<AudioState>(IDLE);
  const keyRef = useRef<string | null>(null);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  const toggle = useCallback((key: string, url: string) => {
    const audio = ref.current;
    if (!audio || !url) return;
    if (keyRef.current === key && audio.getAttribute('src')) {
      if (audio.paused) void audio.play().catch(() => undefined);
      else audio.pause();
      return;
    }
    keyRef.current = key;
    audio.pause();
    audio.src = url;
    setState({ key, playing: false, time: 0, duration: 0 });
    audio.play().catch((err: unknown) => {
      if (keyRef.current !== key) return;
      // An aborted play (another click came first) is not worth a message.
      if (!(err instanceof DOMException && err.name === 'AbortError')) onErrorRef.current('音频播放失败，请稍后再试');
    });
  }, []);

  const stop = useCallback(() => {
    const audio = ref.current;
    keyRef.current = null;
    if (audio) {
      audio.pause();
      audio.removeAttribute('src');
      audio.load();
    }
    setState(IDLE);
  }, []);

  const seek = useCallback((fraction: number) => {
    const audio = ref.current;
    if (!audio || !Number.isFinite(audio.duration) || audio.duration <= 0) return;
    audio.currentTime = Math.max(0, Math.min(1, fraction)) * audio.duration;
  }, []);

  useEffect(() => () => ref.current?.pause(), []);

  const read = (e: SyntheticEvent<HTMLAudioElement>) => {
    const a = e.currentTarget;
    if (!keyRef.current) return;
    setState({ key: keyRef.current, playing: !a.paused && !a.ended, time: a.currentTime, duration: Number.isFinite(a.duration) ? a.duration : 0 });
  };
  const bind = {
    ref,
    preload: 'none' as const,
    onPlay: read,
    onPause: read,
    onEnded: read,
    onTimeUpdate: read,
    onLoadedMetadata: read,
    onDurationChange: read,
    onError: (e: SyntheticEvent<HTMLAudioElement>) => {
      if (!keyRef.current || !e.currentTarget.getAttribute('src')) return;
      setState((s) => ({ ...s, playing: false }));
      onErrorRef.current('音频加载失败，请稍后再试');
    },
  };

  const progress = state.duration > 0 ? Math.min(1, state.time / state.duration) : 0;
  return { state, progress, toggle, stop, seek, bind, element: ref };
}
