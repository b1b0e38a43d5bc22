import 'reflect-metadata';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { LoopingVideo } from './looping-video';
import { reactHost } from '../../tests/support/react-host';
import { fakeMediaPlayback } from '../../tests/support/media-playback';

const view = reactHost();
fakeMediaPlayback();

/** The system's reduced-motion setting as matchMedia reports it; `set` changes it as the user would. */
function systemMotion(reduce: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return reduce;
    },
    addEventListener: (_: string, fn: () => void) => listeners.add(fn),
    removeEventListener: (_: string, fn: () => void) => listeners.delete(fn),
  };
  const original = window.matchMedia;
  window.matchMedia = ((media: string) => (media === '(prefers-reduced-motion: reduce)' ? query : original.call(window, media))) as typeof window.matchMedia;
  return {
    set(next: boolean) {
      reduce = next;
      act(() => listeners.forEach((fn) => fn()));
    },
    restore: () => (window.matchMedia = original),
  };
}

let motion: ReturnType<typeof systemMotion> | undefined;
afterEach(() => motion?.restore());

describe('LoopingVideo', () => {
  it('plays by itself, silent and looping, when the user has not asked for less motion', () => {
    motion = systemMotion(false);
    act(() => view.root.render(<LoopingVideo src="/a/1.mp4" poster="/a/1.jpg" data-testid="stage" />));
    const video = view.host.querySelector<HTMLVideoElement>('[data-testid=stage]')!;
    expect(video.autoplay).toBe(true);
    expect(video.muted).toBe(true);
    expect(video.loop).toBe(true);
    expect(video.getAttribute('poster')).toBe('/a/1.jpg');
  });

  it('rests on its poster under reduced motion, plays while pointed at, and follows the setting as it changes', async () => {
    motion = systemMotion(true);
    act(() => view.root.render(<LoopingVideo src="/a/1.mp4" poster="/a/1.jpg" data-testid="stage" />));
    const video = view.host.querySelector<HTMLVideoElement>('[data-testid=stage]')!;
    expect(video.autoplay).toBe(false);
    expect(video.paused).toBe(true);
    await act(async () => void video.dispatchEvent(new PointerEvent('pointerover', { bubbles: true })));
    await act(async () => void video.dispatchEvent(new PointerEvent('pointerenter')));
    expect(video.paused).toBe(false);
    await act(async () => void video.dispatchEvent(new PointerEvent('pointerout', { bubbles: true })));
    await act(async () => void video.dispatchEvent(new PointerEvent('pointerleave')));
    expect(video.paused).toBe(true);
    motion.set(false);
    expect(view.host.querySelector<HTMLVideoElement>('[data-testid=stage]')!.autoplay).toBe(true);
  });
});
