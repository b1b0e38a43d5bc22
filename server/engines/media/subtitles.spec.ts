/**
 * The shared subtitle module: sentences timed from spoken stretches, Chinese line breaking, cues, SRT; the offline
 * engine's stretches measured from its own samples; captions burned with the font the product installs.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FFMPEG, ffmpegCached, mediaDir, silencesIn } from '../../../tests/support/media';
import { OfflineSpeechEngine, cutSentinels } from '../speech/offline/offline-engine';
import { burnSubtitles } from './captions';
import { breakLines, cuesOf, formatSrt, lineChars, sentencesOf, splitSentences, srtTime } from './subtitles';
import { execFileSync } from 'node:child_process';

const dir = mediaDir();
/** Width of a line as the breaker counts it: a Latin letter, digit or ASCII sign is half. */
const width = (line: string) => [...line].reduce((w, ch) => w + (ch.charCodeAt(0) < 0x2000 ? 0.5 : 1), 0);

describe('line length by the picture', () => {
  it('is about 16 characters on 9:16, 24 on 16:9, between them by the aspect, 24 without a picture', () => {
    expect(lineChars({ width: 720, height: 1280 })).toBe(16);
    expect(lineChars({ width: 1280, height: 720 })).toBe(24);
    expect(lineChars({ width: 720, height: 720 })).toBe(19);
    expect(lineChars()).toBe(24);
  });
});

describe('sentences timed from spoken stretches', () => {
  it('splits at sentence punctuation, a period only before a space or a closing quote', () => {
    expect(splitSentences('大家好！欢迎来到直播间。今天讲3.5折的优惠？好的')).toEqual(['大家好！', '欢迎来到直播间。', '今天讲3.5折的优惠？', '好的']);
    expect(splitSentences('He said “OK.” Then left. ……')).toEqual(['He said “OK.”', 'Then left.']);
  });

  it('keeps each stretch inside its real start and end, sharing it by characters', () => {
    const timed = sentencesOf([
      { text: '大家好', start: 0, end: 0.9 },
      { text: '欢迎来到直播间。今天介绍新产品', start: 4, end: 7.6 },
    ]);
    expect(timed).toEqual([
      { start: 0, end: 0.9, text: '大家好' },
      { start: 4, end: 5.8, text: '欢迎来到直播间。' },
      { start: 5.8, end: 7.6, text: '今天介绍新产品' },
    ]);
  });

  it('gives pause markers a stretch still holds their seconds without a sentence, and drops emotion marks', () => {
    const timed = sentencesOf([{ text: '你好<#2#>再见(laughs)', start: 1, end: 5 }]);
    expect(timed).toEqual([{ start: 1, end: 2, text: '你好' }, { start: 4, end: 5, text: '再见' }]);
    expect(sentencesOf([{ text: '<#1#>', start: 0, end: 1 }, { text: '，。', start: 1, end: 2 }])).toEqual([]);
  });
});

describe('Chinese line breaking', () => {
  it('keeps lines within the limit and breaks after clause punctuation where it can, dropping the line ends’ punctuation', () => {
    const lines = breakLines('今天给大家介绍一款新产品，它可以帮助你轻松制作数字人视频。', 16);
    expect(lines).toEqual(['今天给大家介绍一款新产品', '它可以帮助你轻松制作数字人视频']);
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(16);
  });

  it('never starts a line with closing punctuation nor ends one with opening punctuation', () => {
    const lines = breakLines('一二三四五六七八九十一二三四五六」七八九十', 16);
    expect(lines[0]).toBe('一二三四五六七八九十一二三四五六」');
    const opening = breakLines('一二三四五六七八九十一二三四五「七八九十」', 16);
    expect(opening[0]!.endsWith('「')).toBe(false);
    expect(opening[1]!.startsWith('「')).toBe(true);
  });

  it('counts Latin letters and digits as half a character and never cuts a word', () => {
    const lines = breakLines('我们用AI数字人 and a very long English sentence that goes on and on 2026', 16);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(16);
    expect(lines.join(' ')).toContain('English sentence');
  });

  it('makes cues of at most two lines; a longer sentence becomes several cues sharing its time', () => {
    const cues = cuesOf([{ start: 2, end: 8, text: '第一句话很长很长很长很长很长很长，第二句话也很长很长很长很长很长很长，第三句话还是很长很长很长很长很长。' }], { maxChars: 16 });
    expect(cues.length).toBe(2);
    expect(cues.every((c) => c.lines.length <= 2)).toBe(true);
    expect(cues[0]!.start).toBe(2);
    expect(cues[0]!.end).toBe(cues[1]!.start);
    expect(cues.at(-1)!.end).toBe(8);
    expect(cues.flatMap((c) => c.lines).every((l) => !/[，。]$/.test(l))).toBe(true);
  });
});

describe('SRT', () => {
  it('formats times and numbered cues, each line of a cue on its own line', () => {
    expect(srtTime(0)).toBe('00:00:00,000');
    expect(srtTime(3723.4567)).toBe('01:02:03,457');
    expect(formatSrt([{ start: 0.5, end: 2, lines: ['Hello\nthere'] }, { start: 61, end: 62.25, lines: [' 第一行 ', '第二行'] }])).toBe(
      '1\r\n00:00:00,500 --> 00:00:02,000\r\nHello there\r\n\r\n2\r\n00:01:01,000 --> 00:01:02,250\r\n第一行\r\n第二行\r\n',
    );
  });
});

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
