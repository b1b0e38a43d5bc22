import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';

export interface AudioPlayerState {
  /** What is loaded (a caller's key: `voice:3`, `scene:5`…); null when nothing is. */
  key: string | null;
  /** Asked to play and neither paused nor ended (true from the click, before the first sound). */
  playing: boolean;
  /** Seconds. */
  time: number;
  /** Seconds; 0 until the metadata is read. */
  duration: number;
}

export interface AudioPlayer {
  state: AudioPlayerState;
  /** time / duration, 0..1 (0 while the duration is unknown). */
  progress: number;
  /** Plays `url` as `key` from the start, or resumes it when it is loaded and paused (from the start once ended). */
  play(key: string, url: string): void;
  /** Plays or pauses `key`. */
  toggle(key: string, url: string): void;
  /** Stops and unloads, if `key` (or anything, without one) is loaded. */
  stop(key?: string): void;
  /** Jumps to a fraction of the loaded sound. */
  seek(fraction: number): void;
  /** Spread on an <audio> element to play through it; without one the player makes its own, unseen. */
  bind: { ref: (element: HTMLAudioElement | null) => void; preload: 'auto' | 'none' };
  /** The element playing (bound or its own), for rate and volume. */
  element: RefObject<HTMLAudioElement | null>;
}

const IDLE: AudioPlayerState = { key: null, playing: false, time: 0, duration: 0 };
const EVENTS = ['play', 'pause', 'ended', 'timeupdate', 'loadedmetadata', 'durationchange'] as const;

/**
 * One sound at a time for a panel (voice samples, scene auditions, uploaded audio): one <audio> element, keyed
 * plays, and the state a view needs. Failures reach `onError` in the product's words; an interrupted play (another
 * click came first) says nothing. Unmounting stops it.
 */
export function useAudioPlayer(onError: (message: string) => void, options: { preload?: 'auto' | 'none' } = {}): AudioPlayer {
  const preload = options.preload ?? 'auto';
  const element = useRef<HTMLAudioElement | null>(null);
  const keyRef = useRef<string | null>(null);
  const [state, setState] = useState<AudioPlayerState>(IDLE);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  // Listeners go on whichever element plays; `attach` returns how to take them off again.
  const attach = useCallback((audio: HTMLAudioElement) => {
    const read = () => {
      if (!keyRef.current) return;
      setState({ key: keyRef.current, playing: !audio.paused && !audio.ended, time: audio.currentTime, duration: Number.isFinite(audio.duration) ? audio.duration : 0 });
    };
    const failed = () => {
      if (!keyRef.current || !audio.getAttribute('src')) return;
      setState((s) => ({ ...s, playing: false }));
      onErrorRef.current('音频加载失败，请稍后再试');
    };
    for (const name of EVENTS) audio.addEventListener(name, read);
    audio.addEventListener('error', failed);
    return () => {
      for (const name of EVENTS) audio.removeEventListener(name, read);
      audio.removeEventListener('error', failed);
    };
  }, []);

  const detach = useRef<(() => void) | null>(null);
  const ref = useCallback(
    (audio: HTMLAudioElement | null) => {
      if (element.current && element.current !== audio) element.current.pause();
      detach.current?.();
      detach.current = null;
      element.current = audio;
      if (audio) detach.current = attach(audio);
    },
    [attach],
  );
  const audioElement = useCallback(() => {
    if (!element.current) {
      const own = new Audio();
      own.preload = preload;
      ref(own);
    }
    return element.current!;
  }, [ref, preload]);

  const start = useCallback(
    (key: string, url: string, restart: boolean) => {
      if (!url) return;
      const audio = audioElement();
      if (keyRef.current === key && audio.getAttribute('src') === url) {
        if (audio.paused) {
          if (restart && audio.ended) audio.currentTime = 0;
          setState((s) => ({ ...s, playing: true }));
          void audio.play().catch(() => undefined);
        } else if (!restart) audio.pause();
        return;
      }
      keyRef.current = key;
      audio.pause();
      audio.src = url;
      setState({ key, playing: true, time: 0, duration: 0 });
      audio.play().catch((err: unknown) => {
        if (keyRef.current !== key) return;
        setState((s) => ({ ...s, playing: false }));
        if (!(err instanceof DOMException && err.name === 'AbortError')) onErrorRef.current('音频播放失败，请稍后再试');
      });
    },
    [audioElement],
  );
  const play = useCallback((key: string, url: string) => start(key, url, true), [start]);
  const toggle = useCallback((key: string, url: string) => start(key, url, false), [start]);

  const stop = useCallback((key?: string) => {
    if (key !== undefined && keyRef.current !== key) return;
    keyRef.current = null;
    const audio = element.current;
    if (audio) {
      audio.pause();
      audio.removeAttribute('src');
      audio.load();
    }
    setState(IDLE);
  }, []);

  const seek = useCallback((fraction: number) => {
    const audio = element.current;
    if (!audio || !Number.isFinite(audio.duration) || audio.duration <= 0) return;
    audio.currentTime = Math.max(0, Math.min(1, fraction)) * audio.duration;
  }, []);

  useEffect(() => () => element.current?.pause(), []);

  const bind = useMemo(() => ({ ref, preload }), [ref, preload]);
  const progress = state.duration > 0 ? Math.min(1, state.time / state.duration) : 0;
  return useMemo(() => ({ state, progress, play, toggle, stop, seek, bind, element }), [state, progress, play, toggle, stop, seek, bind]);
}
