import { describe, expect, it } from 'vitest';
import { breakCaptionLines, captionText, cuesFromSegments, formatSrt, parseSrt, srtSeconds, srtTime } from './subtitles';

describe('SRT', () => {
  it('writes times and numbered cues with CRLF, caption lines kept and blank ones dropped', () => {
    expect(srtTime(0)).toBe('00:00:00,000');
    expect(srtTime(3723.4567)).toBe('01:02:03,457');
    expect(srtTime(-1)).toBe('00:00:00,000');
    expect(formatSrt([{ start: 0.5, end: 2, text: '第一行\n\n 第二行 ' }, { start: 61, end: 60, text: '结束' }])).toBe(
      '1\r\n00:00:00,500 --> 00:00:02,000\r\n第一行\r\n第二行\r\n\r\n2\r\n00:01:01,000 --> 00:01:01,000\r\n结束\r\n',
    );
  });

  it('reads back what it writes, and a file with LF ends, a BOM and positions after the time', () => {
    const cues = [{ start: 0, end: 1.25, text: '你好' }, { start: 1.55, end: 3, text: '两行\n字幕' }];
    expect(parseSrt(formatSrt(cues))).toEqual(cues);
    expect(parseSrt('\uFEFF1\n00:00:01.5 --> 00:00:02,000 X1:10\nA\n\nnot a cue\n\n3\n00:00:03,000 --> 00:00:04,000\nB\n')).toEqual([
      { start: 1.5, end: 2, text: 'A' },
      { start: 3, end: 4, text: 'B' },
    ]);
    expect(srtSeconds('1:2:3')).toBeNaN();
  });
});

describe('captions', () => {
  it('shows the words of a script, not its pause markers or emotion marks', () => {
    expect(captionText(' 你好<#0.5#>世界(laughs)，\n再见 ')).toBe('你好世界， 再见');
  });

  it('breaks Chinese at the width, keeping closing marks on the line before and opening marks on the line after', () => {
    expect(breakCaptionLines('一二三四五六七八九十', 4)).toEqual(['一二三四', '五六七八', '九十']);
    // 。 would start the second line: it stays with the first.
    expect(breakCaptionLines('一二三四。五六', 4)).toEqual(['一二三四。', '五六']);
    // 「 would end the first line: it moves to the next.
    expect(breakCaptionLines('一二三「四五」', 4)).toEqual(['一二三', '「四五」']);
  });

  it('prefers a break after punctuation in the last third of a line', () => {
    expect(breakCaptionLines('今天天气很好，我们去公园散步吧', 8)).toEqual(['今天天气很好，', '我们去公园散步吧']);
  });

  it('keeps Latin words and numbers whole, counting them half width', () => {
    expect(breakCaptionLines('我们用 AI 生成了 2026 年的视频', 8)).toEqual(['我们用 AI 生成了', '2026 年的视频']);
    expect(breakCaptionLines('supercalifragilistic', 4)).toEqual(['supercal', 'ifragili', 'stic']);
    expect(breakCaptionLines('   ')).toEqual([]);
  });

  it('makes one cue a segment, cutting a long one into cues of at most two lines with its time shared out', () => {
    expect(cuesFromSegments([{ start: 1, end: 2, text: '你好<#0.3#>' }, { start: 2, end: 3, text: '<#1#>' }])).toEqual([{ start: 1, end: 2, text: '你好' }]);
    const cues = cuesFromSegments([{ start: 0, end: 6, text: '一二三四五六七八九十一二' }], { width: 2, maxLines: 2 });
    expect(cues.map((c) => c.text)).toEqual(['一二\n三四', '五六\n七八', '九十\n一二']);
    expect(cues.map((c) => [c.start, c.end])).toEqual([[0, 2], [2, 4], [4, 6]]);
  });
});
