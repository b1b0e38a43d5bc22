/**
 * The shared subtitle module: sentences timed from spoken stretches, Chinese line breaking, cues, SRT written and
 * read back (burning them into a picture: server/engines/media/captions.spec.ts).
 */
import { describe, expect, it } from 'vitest';
import { breakLines, captionText, cuesOf, formatSrt, lineChars, parseSrt, sentencesOf, splitSentences, srtSeconds, srtTime } from './subtitles';

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

describe('what a caption shows', () => {
  it('is the words of a script, not its pause markers or emotion marks', () => {
    expect(captionText(' 你好<#0.5#>世界(laughs)，\n再见 ')).toBe('你好世界， 再见');
    expect(captionText('<#1#>(laughs)')).toBe('');
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
    expect(breakLines('一二三四五六七八九十', 4)).toEqual(['一二三四', '五六七八', '九十']);
  });

  it('never starts a line with closing punctuation nor ends one with opening punctuation', () => {
    const lines = breakLines('一二三四五六七八九十一二三四五六」七八九十', 16);
    expect(lines[0]).toBe('一二三四五六七八九十一二三四五六」');
    const opening = breakLines('一二三四五六七八九十一二三四五「七八九十」', 16);
    expect(opening[0]!.endsWith('「')).toBe(false);
    expect(opening[1]!.startsWith('「')).toBe(true);
    // 。 would start the second line: it stays with the first (and is dropped there as a line's end); 「 moves on.
    expect(breakLines('一二三四。五六', 4)).toEqual(['一二三四', '五六']);
    expect(breakLines('一二三「四五」', 4)).toEqual(['一二三', '「四五」']);
  });

  it('counts Latin letters and digits as half a character and never cuts a word that fits a line', () => {
    const lines = breakLines('我们用AI数字人 and a very long English sentence that goes on and on 2026', 16);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(16);
    expect(lines.join(' ')).toContain('English sentence');
    expect(breakLines('supercalifragilistic', 4)).toEqual(['supercal', 'ifragili', 'stic']);
    expect(breakLines('   ', 16)).toEqual([]);
  });

  it('makes cues of at most two lines; a longer sentence becomes several cues sharing its time', () => {
    const cues = cuesOf([{ start: 2, end: 8, text: '第一句话很长很长很长很长很长很长，第二句话也很长很长很长很长很长很长，第三句话还是很长很长很长很长很长。' }], { maxChars: 16 });
    expect(cues.length).toBe(2);
    expect(cues.every((c) => c.lines.length <= 2)).toBe(true);
    expect(cues[0]!.start).toBe(2);
    expect(cues[0]!.end).toBe(cues[1]!.start);
    expect(cues.at(-1)!.end).toBe(8);
    expect(cues.flatMap((c) => c.lines).every((l) => !/[，。]$/.test(l))).toBe(true);
    expect(cuesOf([{ start: 0, end: 6, text: '一二三四五六七八九十一二' }], { maxChars: 2 }).map((c) => [c.start, c.end, c.lines])).toEqual([
      [0, 2, ['一二', '三四']],
      [2, 4, ['五六', '七八']],
      [4, 6, ['九十', '一二']],
    ]);
  });
});

describe('SRT', () => {
  it('formats times and numbered cues with CRLF, each line of a cue on its own line, blank lines dropped', () => {
    expect(srtTime(0)).toBe('00:00:00,000');
    expect(srtTime(3723.4567)).toBe('01:02:03,457');
    expect(srtTime(-1)).toBe('00:00:00,000');
    expect(formatSrt([{ start: 0.5, end: 2, lines: ['Hello\nthere'] }, { start: 61, end: 62.25, lines: [' 第一行 ', '', '第二行'] }, { start: 70, end: 69, lines: ['结束'] }])).toBe(
      '1\r\n00:00:00,500 --> 00:00:02,000\r\nHello there\r\n\r\n2\r\n00:01:01,000 --> 00:01:02,250\r\n第一行\r\n第二行\r\n\r\n' +
        '3\r\n00:01:10,000 --> 00:01:10,000\r\n结束\r\n',
    );
  });

  it('reads back what it writes, and a file with LF ends, a BOM and positions after the time', () => {
    const cues = [{ start: 0, end: 1.25, lines: ['你好'] }, { start: 1.55, end: 3, lines: ['两行', '字幕'] }];
    expect(parseSrt(formatSrt(cues))).toEqual(cues);
    expect(parseSrt('\uFEFF1\n00:00:01.5 --> 00:00:02,000 X1:10\nA\n\nnot a cue\n\n3\n00:00:03,000 --> 00:00:04,000\nB\n')).toEqual([
      { start: 1.5, end: 2, lines: ['A'] },
      { start: 3, end: 4, lines: ['B'] },
    ]);
    expect(srtSeconds('1:2:3')).toBeNaN();
  });
});
