import { afterEach, beforeEach, vi } from 'vitest';

/**
 * The unit tests' browser decodes nothing: for each test of the calling suite, play() resolves and flips `paused` at
 * once, as a browser does, and pause() flips it back, each with its event. `played` lists the elements asked to play.
 */
export function fakeMediaPlayback(): { played: HTMLMediaElement[] } {
  const env = { played: [] as HTMLMediaElement[] };
  beforeEach(() => {
    env.played = [];
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
      env.played.push(this);
      Object.defineProperty(this, 'paused', { value: false, configurable: true });
      this.dispatchEvent(new Event('play'));
      return Promise.resolve();
    });
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(function (this: HTMLMediaElement) {
      Object.defineProperty(this, 'paused', { value: true, configurable: true });
      this.dispatchEvent(new Event('pause'));
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });
  return env;
}
