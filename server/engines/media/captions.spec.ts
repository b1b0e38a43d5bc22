/**
 * What subtitles need of the media engines (the pure subtitle module is src/contract/subtitles.ts): the offline
 * engine's stretches measured from its own samples; captions burned with the font the product installs.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FFMPEG, ffmpegCached, mediaDir, silencesIn } from '../../../tests/support/media';
import { OfflineSpeechEngine, cutSentinels } from '../speech/offline/offline-engine';
import { burnSubtitles } from './captions';
import { execFileSync } from 'node:child_process';

const dir = mediaDir();

describe('the offline engine’s stretches', () => {
  it('cut each sentinel break to its pause and place the stretches by sample; a count that does not match is refused', () => {
    const rate = 100;
    const loud = (n: number) => new Int16Array(n).fill(1000);
    // 1 s of speech, a 3.2 s quiet run (the 3 s sentinel and 0.2 s of espeak's own pause), 2 s of speech.
    const pcm = new Int16Array([...loud(100), ...new Int16Array(320), ...loud(200)]);
    const cut = cutSentinels(pcm, [{ text: '一' }, { silence: 1.5 }, { text: '二' }], rate)!;
    expect(cut.stretches).toEqual([{ text: '一', start: 0, end: 1 }, { text: '二', start: 2.7, end: 4.7 }]);
    expect(cut.pcm.length).toBe(470);
    expect(cutSentinels(pcm, [{ text: '一' }, { silence: 1 }, { text: '二' }, { silence: 1 }, { text: '三' }], rate)).toBeUndefined();
  });

  it('are read off its own samples: each pause marker is silence of its length between them', { timeout: 60_000 }, async () => {
    const engine = new OfflineSpeechEngine();
    try {
      const file = path.join(dir, 'paused.mp3');
      const stretches = await engine.synthesize('<#0.5#>大家好<#3#>欢迎来到直播间，今天介绍新产品。<#1#>', undefined, { rate: 1, volume: 1, pitch: 1, language: '', emotion: '' }, file);
      expect(stretches.map((s) => s.text)).toEqual(['大家好', '欢迎来到直播间，今天介绍新产品。']);
      const [first, second] = stretches;
      // The 3 s marker is (at least) 3 s between the stretches, and the silence found there is where they say.
      expect(second!.start - first!.end).toBeGreaterThanOrEqual(2.8);
      const gap = silencesIn(file, { minSeconds: 2 }).find((s) => s.start > first!.start);
      expect(gap).toBeDefined();
      expect(Math.abs(gap!.start - first!.end)).toBeLessThan(0.15);
      expect(Math.abs(gap!.end - second!.start)).toBeLessThan(0.15);
      expect(first!.start).toBeGreaterThan(0.3);
    } finally {
      await engine.close();
    }
  });
});

describe('burned-in captions', () => {
  it('draws the cue in the chosen band with the installed font, and nothing outside its time', { timeout: 60_000 }, async () => {
    const plain = ffmpegCached(path.join(dir, 'grey.mp4'), ['-f', 'lavfi', '-i', 'color=c=0x808080:s=360x640:r=25:d=3', '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono', '-t', '3', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac']);
    const out = path.join(dir, 'captioned.mp4');
    await burnSubtitles({ file: plain, ext: 'mp4' }, [{ start: 0.5, end: 1.5, lines: ['字幕测试'] }], { size: 'L', position: 'bottom', color: 'yellow' }, out);
    // Rows of the frame that hold yellow text: inside the bottom band while the cue shows, none after.
    const yellowRows = (at: number) => {
      const raw = execFileSync(FFMPEG, ['-v', 'error', '-ss', String(at), '-i', out, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-']);
      const rows = new Set<number>();
      for (let i = 0; i < raw.length; i += 3) if (raw[i]! > 200 && raw[i + 1]! > 180 && raw[i + 2]! < 90) rows.add(Math.floor(i / 3 / 360));
      return [...rows];
    };
    const during = yellowRows(1);
    expect(during.length).toBeGreaterThan(10);
    expect(Math.min(...during)).toBeGreaterThan(640 * 0.75);
    expect(yellowRows(2.2)).toEqual([]);
  });
});
