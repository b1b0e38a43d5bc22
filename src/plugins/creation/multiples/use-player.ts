import { useCallback, useEffect, useMemo, useRef, useState, type SyntheticEvent } from 'react';

export interface PlayerState {
  /** What is loaded (`scene:<id>`, `audio:<id>`, `voice:<id>`); null when nothing is. */
  key: string | null;
  playing: boolean;
  /** Seconds. */
  time: number;
  /** Seconds; 0 until the metadata is read. */
  duration: number;
}

export interface Player {
  state: PlayerState;
  /** Plays `url` as `key` from the start (or resumes it when it is already loaded and paused). */
  play(key: string, url: string): void;
  /** Plays or pauses. */
  toggle(key: string, url: string): void;
  /** Stops, if `key` (or anything, without one) is loaded. */
  stop(key?: string): void;
  seek(fraction: number): void;
}

const IDLE: PlayerState = { key: null, playing: false, time: 0, duration: 0 };

/**
 * The page's one <audio> element (one sound at a time: scene auditions, uploaded audios, voice samples). Spread
 * `bind` on the element. Unmounting stops it.
 */
export function usePlayer(onError: (message: string) => void) {
  const ref = useRef<HTMLAudioElement | null>(null);
  const [state, setState] = useState<PlayerState>(IDLE);
  const keyRef = useRef<string | null>(null);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  const start = useCallback((key: string, url: string, restart: boolean) => {
    const audio = ref.current;
    if (!audio || !url) return;
    if (keyRef.current === key && audio.getAttribute('src') === url) {
      if (audio.paused) {
        if (restart && audio.ended) audio.currentTime = 0;
        void audio.play().catch(() => undefined);
      } else if (!restart) audio.pause();
      return;
    }
    keyRef.current = key;
    audio.pause();
    audio.src = url;
    setState({ key, playing: false, time: 0, duration: 0 });
    audio.play().catch((err: unknown) => {
      if (keyRef.current !== key) return;
      // An interrupted play (another click came first) is not worth a message.
      if (!(err instanceof DOMException && err.name === 'AbortError')) onErrorRef.current('音频播放失败，请稍后再试');
    });
  }, []);

  const play = useCallback((key: string, url: string) => start(key, url, true), [start]);
  const toggle = useCallback((key: string, url: string) => start(key, url, false), [start]);

  const stop = useCallback((key?: string) => {
    const audio = ref.current;
    if (key !== undefined && keyRef.current !== key) return;
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

  const read = useCallback((e: SyntheticEvent<HTMLAudioElement>) => {
    const a = e.currentTarget;
    if (!keyRef.current) return;
    setState({ key: keyRef.current, playing: !a.paused && !a.ended, time: a.currentTime, duration: Number.isFinite(a.duration) ? a.duration : 0 });
  }, []);
  const bind = useMemo(
    () => ({
      ref,
      preload: 'auto' as const,
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
    }),
    [read],
  );

  const player = useMemo<Player>(() => ({ state, play, toggle, stop, seek }), [state, play, toggle, stop, seek]);
  return { player, bind };
}
