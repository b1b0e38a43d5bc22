import 'reflect-metadata';
import { act } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAudioPlayer, type AudioPlayer } from './audio-player';
import { reactHost } from '../../tests/support/react-host';
import { fakeMediaPlayback } from '../../tests/support/media-playback';

const view = reactHost();
let errors: string[];
let player: AudioPlayer;

function Probe({ bound }: { bound: boolean }) {
  player = useAudioPlayer((m) => errors.push(m));
  return bound ? <audio {...player.bind} data-testid="audio" /> : null;
}

const media = fakeMediaPlayback();
beforeEach(() => {
  errors = [];
});

describe('useAudioPlayer', () => {
  it('plays one key at a time through the bound element, pauses on toggle, stops only the key it is told', async () => {
    act(() => view.root.render(<Probe bound />));
    const audio = view.host.querySelector('audio')!;
    await act(async () => player.toggle('voice:1', 'https://x/1.mp3'));
    expect(media.played).toEqual([audio]);
    expect(audio.getAttribute('src')).toBe('https://x/1.mp3');
    expect(player.state).toMatchObject({ key: 'voice:1', playing: true });

    await act(async () => player.toggle('voice:1', 'https://x/1.mp3'));
    expect(player.state).toMatchObject({ key: 'voice:1', playing: false });

    await act(async () => player.play('voice:2', 'https://x/2.mp3'));
    expect(player.state).toMatchObject({ key: 'voice:2', playing: true });
    act(() => player.stop('voice:1'));
    expect(player.state.key).toBe('voice:2');
    act(() => player.stop());
    expect(player.state).toEqual({ key: null, playing: false, time: 0, duration: 0 });
    expect(audio.hasAttribute('src')).toBe(false);
  });

  it('makes its own element when none is bound, and says a load failure in the product’s words', async () => {
    act(() => view.root.render(<Probe bound={false} />));
    await act(async () => player.play('voice:3', 'https://x/3.mp3'));
    expect(media.played).toHaveLength(1);
    const own = player.element.current!;
    expect(own.isConnected).toBe(false);
    act(() => void own.dispatchEvent(new Event('error')));
    expect(errors).toEqual(['音频加载失败，请稍后再试']);
    expect(player.state.playing).toBe(false);
  });

  it('says nothing when a play is interrupted, and a refused play in the product’s words', async () => {
    act(() => view.root.render(<Probe bound />));
    vi.mocked(HTMLMediaElement.prototype.play).mockImplementationOnce(() => Promise.reject(new DOMException('interrupted', 'AbortError')));
    await act(async () => player.play('a', 'https://x/a.mp3'));
    expect(errors).toEqual([]);
    vi.mocked(HTMLMediaElement.prototype.play).mockImplementationOnce(() => Promise.reject(new DOMException('denied', 'NotAllowedError')));
    await act(async () => player.play('b', 'https://x/b.mp3'));
    expect(errors).toEqual(['音频播放失败，请稍后再试']);
    expect(player.state).toMatchObject({ key: 'b', playing: false });
  });
});
