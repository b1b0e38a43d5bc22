import { useCallback, useEffect, useRef, useState } from 'react';

/** Audio play state of a voice card (part 1 §4): idle 1, playing 3. */
export const AudioState = { Idle: 1, Playing: 3 } as const;

/**
 * One voice plays at a time. A click plays (state 3); a second click, the audio's own pause or its end returns
 * to idle (1). Each play gets its own element, so a late `pause` event of the previous one cannot reset the new one.
 */
export function useAudioPlayer(onError: (message: string) => void) {
  const [playingId, setPlayingId] = useState<number | null>(null);
  const current = useRef<{ id: number; audio: HTMLAudioElement } | null>(null);
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  const stop = useCallback(() => {
    const playing = current.current;
    current.current = null;
    if (playing) {
      playing.audio.pause();
      playing.audio.removeAttribute('src');
      playing.audio.load();
    }
    setPlayingId(null);
  }, []);

  const toggle = useCallback(
    (id: number, url: string) => {
      if (current.current?.id === id) {
        stop();
        return;
      }
      stop();
      const audio = new Audio();
      audio.preload = 'auto';
      const mine = { id, audio };
      current.current = mine;
      const settle = () => {
        if (current.current === mine) {
          current.current = null;
          setPlayingId(null);
        }
      };
      audio.addEventListener('pause', settle);
      audio.addEventListener('ended', settle);
      audio.addEventListener('error', () => {
        if (current.current !== mine) return;
        settle();
        onErrorRef.current('音频加载失败，请稍后再试');
      });
      audio.src = url;
      setPlayingId(id);
      audio.play().catch((err: unknown) => {
        if (current.current !== mine) return;
        settle();
        // An aborted play (another click came first) is not worth a message.
        if (!(err instanceof DOMException && err.name === 'AbortError')) onErrorRef.current('音频播放失败，请稍后再试');
      });
    },
    [stop],
  );

  useEffect(() => stop, [stop]);

  return { playingId, toggle, stop };
}
