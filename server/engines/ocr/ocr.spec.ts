/**
 * The offline caption reader on a clip we make (tests/support/caption-media.ts): Chinese captions burned in by the
 * product's own burnSubtitles, a static watermark in a corner, a pause with no caption. Real ffmpeg, the real
 * PP-OCR models from node_modules, no network.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTIONED_CLIP, makeCaptionedClip, scoreCaptionReading } from '../../../tests/support/caption-media';
import { scratchDir } from '../../../tests/support/engine-spec';
import { makeVideo } from '../../../tests/support/media';
import { captionSentences, likeness, locateBand, type FrameLine } from './caption-track';
import { captionReaderAvailable, readCaptions, type CaptionReading } from '.';

const scratch = scratchDir('aisa-ocr-');
let reading: CaptionReading;

beforeAll(async () => {
  const clip = await makeCaptionedClip(scratch.out('clip.mp4'));
  reading = await readCaptions(clip, 'mp4', { workDir: scratch.dir });
}, 120_000);
afterAll(() => scratch.remove());

describe('offline caption reader', () => {
  it('is available with what npm installs', async () => {
    expect(await captionReaderAvailable()).toBe(true);
  });

  it('reads the captions in order (≥ 90 % of their characters), each sentence timed within 0.5 s, without the watermark', () => {
    const score = scoreCaptionReading(reading);
    expect(reading.sentences).toHaveLength(CAPTIONED_CLIP.captions.length);
    expect(score.inOrder).toBeGreaterThanOrEqual(0.9);
    expect(score.matched.every(Boolean)).toBe(true);
    expect(score.worstTimeError).toBeLessThanOrEqual(0.5);
    expect(score.watermarkSeen).toBe(false);
    // The pause (5.2 – 6.6 s) has no sentence in it.
    expect(reading.sentences.some((s) => s.start < 6.2 && s.end > 5.6)).toBe(false);
    expect(reading.text.split('\n')).toEqual(reading.sentences.map((s) => s.text));
  });

  it('reads nothing from a video without captions', async () => {
    const plain = makeVideo(scratch.out('plain.mp4'), { width: 320, height: 180, seconds: 2 });
    expect(await readCaptions(plain, 'mp4', { workDir: scratch.dir })).toEqual({ sentences: [], text: '' });
    expect(fs.readdirSync(scratch.dir).filter((f) => f.startsWith('captions-read-'))).toEqual([]);
  });

  it('refuses a file that is not a video', async () => {
    const junk = scratch.out('junk.mp4');
    fs.writeFileSync(junk, 'not a video');
    await expect(readCaptions(junk, 'mp4')).rejects.toThrow(/ffprobe/);
    // The queue goes on after a failure.
    expect((await readCaptions(makeVideo(scratch.out('after.mp4'), { width: 320, height: 180, seconds: 1 }), 'mp4')).sentences).toEqual([]);
  });
});

describe('caption track', () => {
  const line = (text: string, y: number, x = 100): FrameLine => ({ text, x0: x, x1: x + 200, y0: y, y1: y + 20, score: 0.9 });
  const logo = line('分身工作室', 10, 500);
  const frames = [
    { at: 0, lines: [logo] },
    { at: 0.5, lines: [logo, line('第一句话', 300)] },
    { at: 1, lines: [logo, line('第一句活', 300)] },
    { at: 1.5, lines: [logo, line('第一句话', 300)] },
    { at: 2, lines: [logo, line('第二句，', 300), line('换行了', 325)] },
    { at: 2.5, lines: [logo, line('第二句', 300), line('换行了', 325)] },
    { at: 3, lines: [logo] },
    { at: 3.5, lines: [logo, line('第三句', 300)] },
  ];

  it('drops static text, finds the band, merges repeated readings and joins a two-line caption', () => {
    expect(locateBand(frames, { height: 360 })).toEqual({ y0: 290, y1: 355 });
    expect(captionSentences(frames, { step: 0.5, height: 360 })).toEqual([
      { start: 0.25, end: 1.75, text: '第一句话' },
      { start: 1.75, end: 2.75, text: '第二句换行了' },
      { start: 3.25, end: 3.75, text: '第三句' },
    ]);
  });

  it('leaves out a line outside the band and a reading the reader is unsure of', () => {
    const noisy = frames.map((f, i) => (i === 1 ? { ...f, lines: [...f.lines, line('画面里的字', 120), { ...line('噪声', 300, 400), score: 0.2 }] } : f));
    expect(captionSentences(noisy, { step: 0.5, height: 360 })[0]).toEqual({ start: 0.25, end: 1.75, text: '第一句话' });
  });

  it('finds no band when nothing changes', () => {
    expect(locateBand([{ at: 0, lines: [logo] }, { at: 1, lines: [logo] }], { height: 360 })).toBeNull();
    expect(likeness('第一句话', '第一句活')).toBe(0.75);
  });
});
