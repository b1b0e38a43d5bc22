/** The dub's spoken stretches: silent edges trimmed, and how much was trimmed off the start. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ffmpegCached, mediaDir } from '../../../tests/support/media';
import { speechStretch } from './sound';

const dir = mediaDir();

describe('a spoken stretch as the dub joins it', () => {
  it('keeps the sound between its silent edges (40 ms of each) and says how much of its start was cut', async () => {
    // 0.5 s of silence, 1 s of tone, 0.7 s of silence, as an mp3 like the speech engines write.
    const padded = ffmpegCached(path.join(dir, 'padded-tone.mp3'), [
      '-f', 'lavfi', '-i', "aevalsrc='if(between(t,0.5,1.5),0.5*sin(2*PI*440*t),0)':s=44100:d=2.2", '-c:a', 'libmp3lame', '-b:a', '64k',
    ]);
    const { seconds, lead } = await speechStretch({ file: padded, ext: 'mp3' }, path.join(dir, 'padded-tone.wav'));
    expect(Math.abs(lead - 0.46)).toBeLessThan(0.03);
    expect(Math.abs(seconds - 1.08)).toBeLessThan(0.04);
  });

  it('answers nothing for a file without sound', async () => {
    const silent = ffmpegCached(path.join(dir, 'silent-stretch.mp3'), ['-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono', '-t', '1', '-c:a', 'libmp3lame']);
    expect((await speechStretch({ file: silent, ext: 'mp3' }, path.join(dir, 'silent-stretch.wav'))).seconds).toBeLessThan(0.05);
  });
});
