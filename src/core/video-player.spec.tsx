import 'reflect-metadata';
import { act } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { VideoPlayer } from './video-player';
import { formatDuration } from './format';
import { reactHost } from '../../tests/support/react-host';
import { fakeMediaPlayback } from '../../tests/support/media-playback';

const view = reactHost();
const $ = <T extends Element = HTMLElement>(selector: string) => view.host.querySelector<T>(selector)!;

/** The test browser decodes nothing: a length and a position are set as the browser would report them. */
function loaded(video: HTMLVideoElement, duration: number) {
  Object.defineProperty(video, 'duration', { value: duration, configurable: true });
  act(() => void video.dispatchEvent(new Event('loadedmetadata')));
}

fakeMediaPlayback();

describe('VideoPlayer', () => {
  it('shows the length as the card does (same rounding), plays and pauses from its button and Space', async () => {
    act(() => view.root.render(<VideoPlayer src="/w/1.mp4" label="作品 一号" data-testid="work-video" />));
    const video = $<HTMLVideoElement>('[data-testid=work-video]');
    expect(video.tagName).toBe('VIDEO');
    expect(video.hasAttribute('controls')).toBe(false);
    expect($('[role=group]').getAttribute('aria-label')).toBe('作品 一号');
    expect($('[data-testid=video-duration]').textContent).toBe('--:--');

    loaded(video, 17.6);
    // A card says formatDuration(17.6); the player says the same, not the native player's 0:17.
    expect($('[data-testid=video-duration]').textContent).toBe(formatDuration(17.6));
    expect($('[data-testid=video-duration]').textContent).toBe('00:18');
    expect($('[data-testid=video-position]').textContent).toBe('00:00');

    const play = $('[data-testid=video-play]');
    expect(play.getAttribute('aria-label')).toBe('播放');
    await act(async () => play.click());
    expect(video.paused).toBe(false);
    expect(play.getAttribute('aria-label')).toBe('暂停');

    const player = $('[role=group]');
    await act(async () => void player.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true })));
    expect(video.paused).toBe(true);
    expect(play.getAttribute('aria-label')).toBe('播放');
    await act(async () => void player.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', bubbles: true })));
    expect(video.paused).toBe(false);
  });

  it('seeks with the bar and the arrow keys, within the video', () => {
    act(() => view.root.render(<VideoPlayer src="/w/2.mp4" data-testid="v" />));
    const video = $<HTMLVideoElement>('[data-testid=v]');
    loaded(video, 65);
    const seek = $<HTMLInputElement>('[data-testid=video-seek]');
    expect(seek.getAttribute('aria-label')).toBe('播放进度');
    expect(seek.max).toBe('65');

    const player = $('[role=group]');
    const key = (k: string) => act(() => void player.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })));
    key('ArrowRight');
    expect(video.currentTime).toBe(5);
    expect($('[data-testid=video-position]').textContent).toBe('00:05');
    key('ArrowLeft');
    key('ArrowLeft');
    expect(video.currentTime).toBe(0);

    // React listens for `input` on a range; the setter React wraps is bypassed as a user's drag would.
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
    act(() => {
      setValue.call(seek, '62');
      seek.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(video.currentTime).toBe(62);
    expect($('[data-testid=video-time]').textContent).toBe('01:02 / 01:05');
    expect(seek.getAttribute('aria-valuetext')).toBe('01:02 / 01:05');
  });

  it('goes fullscreen on the player and back', () => {
    act(() => view.root.render(<VideoPlayer src="/w/3.mp4" />));
    const player = $<HTMLDivElement>('[role=group]');
    const request = vi.fn(() => Promise.resolve());
    player.requestFullscreen = request;
    act(() => $('[data-testid=video-fullscreen]').click());
    expect(request).toHaveBeenCalledTimes(1);
    expect($('[data-testid=video-fullscreen]').getAttribute('aria-label')).toBe('全屏');
  });
});
