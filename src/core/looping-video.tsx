import { useSyncExternalStore, type VideoHTMLAttributes } from 'react';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia?.(REDUCED_MOTION);
  query?.addEventListener('change', onChange);
  return () => query?.removeEventListener('change', onChange);
}

/** Whether the user asked their system for less motion (followed live, as they change it). */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia?.(REDUCED_MOTION).matches ?? false, () => false);
}

/**
 * A silent, looping clip that decorates a screen (an avatar on the stage, a word's demo). It plays by itself unless
 * the user asked for reduced motion: then it rests on its poster or first frame, and plays while pointed at.
 */
export function LoopingVideo(props: Omit<VideoHTMLAttributes<HTMLVideoElement>, 'autoPlay' | 'muted' | 'loop'> & { 'data-testid'?: string }) {
  const reduced = useReducedMotion();
  return (
    <video
      {...props}
      muted
      loop
      playsInline
      autoPlay={!reduced}
      preload={props.preload ?? 'metadata'}
      onPointerEnter={reduced ? (e) => void e.currentTarget.play().catch(() => undefined) : undefined}
      onPointerLeave={reduced ? (e) => e.currentTarget.pause() : undefined}
    />
  );
}
