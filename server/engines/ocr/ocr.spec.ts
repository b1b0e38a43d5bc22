/**
 * The offline caption reader on a clip we make (tests/support/caption-media.ts): Chinese captions burned in by the
 * product's own burnSubtitles, a static watermark in a corner, a pause with no caption. Real ffmpeg, the real
 * PP-OCR models from node_modules, no network.
 */
import type { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTIONED_CLIP, makeCaptionedClip, scoreCaptionReading } from '../../../tests/support/caption-media';
import { scratchDir } from '../../../tests/support/engine-spec';
import { makeVideo } from '../../../tests/support/media';
import { captionSentences, likeness, locateBand, type FrameLine } from './caption-track';
import { readSkimming } from './read-captions';
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

  it('leaves the process its own error handling: the reader adds no handler that would end the server on a stray error', () => {
    // The reader has loaded (beforeAll read a clip); OpenCV's loader would have added one of each.
    const events: EventEmitter = process;
    for (const event of ['uncaughtException', 'unhandledRejection']) {
      expect(events.listeners(event).map(String).filter((l) => l.includes('abort') || l.includes('ExitStatus'))).toEqual([]);
    }
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

  it('prefers Chinese text to a running clock when locating the band', () => {
    const clocked = frames.map((f, i) => ({ ...f, lines: [...f.lines, line(`00:0${i}:1${i}`, 60)] }));
    expect(locateBand(clocked, { height: 360 })).toEqual({ y0: 290, y1: 355 });
    expect(captionSentences(clocked, { step: 0.5, height: 360 }).map((s) => s.text)).toEqual(['第一句话', '第二句换行了', '第三句']);
  });

  it('skims: reads every 4th frame, and the frames between only where the text changes, with the same result', async () => {
    // Frame i of a scripted reader shows script[i]: a caption from frame 3 to 12, another from 13 to 15, none after.
    const script = Array.from({ length: 20 }, (_, i) => (i < 3 ? '' : i <= 12 ? '第一句' : i <= 15 ? '第二句' : ''));
    const sampled = script.map((_, i) => ({ at: i / 4, file: String(i) }));
    const read: number[] = [];
    const reader = {
      name: 'scripted',
      close: async () => undefined,
      read: async (file: string) => (read.push(Number(file)), script[Number(file)] ? [line(script[Number(file)]!, 10)] : []),
    };
    const skimmed = await readSkimming(reader, sampled, 4);
    expect(skimmed.map((f) => f.lines.map((l) => l.text).join(''))).toEqual(script);
    expect(skimmed.map((f) => f.at)).toEqual(sampled.map((f) => f.at));
    expect(new Set(read).size).toBe(read.length); // no frame read twice
    // Every 4th frame and the last (6), then halving the two gaps with a change: 2 → 3 (two reads), 14 → 13, 15.
    expect(read.sort((a, b) => a - b)).toEqual([0, 2, 3, 4, 8, 12, 13, 14, 15, 16, 19]);
  });

  it('finds no band when nothing changes', () => {
    expect(locateBand([{ at: 0, lines: [logo] }, { at: 1, lines: [logo] }], { height: 360 })).toBeNull();
    expect(likeness('第一句话', '第一句活')).toBe(0.75);
  });
});
