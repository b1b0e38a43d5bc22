import { describe, expect, it } from 'vitest';
import { API, MSG, dubbingCredits, dubbingRoles, parseSrt } from '../../../src/contract';
import { DUB_LINE_CHARS, dubbingScript, dubbingSrt, lineSentences, placeLines, silencesAfter } from './dubbing.timeline';

describe('where each line of a dub is heard', () => {
  it('starts each line after the ones before it and their silences, and lasts its stretch', () => {
    const after = silencesAfter([{}, { pause_after: 0.5 }, { pause_after: 1 }], 0.3);
    expect(after).toEqual([0.3, 0.8, 1]);
    expect(placeLines([1.2, 2, 0.75], after)).toEqual([
      { start: 0, end: 1.2 },
      { start: 1.5, end: 3.5 },
      { start: 4.3, end: 5.05 },
    ]);
  });

  it('places a line\'s words by the engine\'s stretches, moved to where its trimmed speech sits and held inside its cue', () => {
    // The line's speech file: 0.2 s of silence trimmed off its start; two stretches around a 1 s pause marker; placed at 3 s.
    const cue = { start: 3, end: 5.4 };
    const stretches = [{ text: '你好，', start: 0.1, end: 1.1 }, { text: '今天见。', start: 2.1, end: 2.8 }];
    expect(lineSentences('你好，<#1#>今天见。', cue, stretches, 0.2)).toEqual([
      { start: 3, end: 3.9, text: '你好，' },
      { start: 4.9, end: 5.4, text: '今天见。' },
    ]);
    // An engine that answered the whole file as one stretch (its padding included, the pause marker voiced inside
    // it): the stretch is held to the cue, and its sentences share what is left after the pause by characters.
    expect(lineSentences('一二<#1#>三四', { start: 1, end: 4 }, [{ text: '一二<#1#>三四', start: 0, end: 3.5 }], 0.25).map((t) => [t.start, t.end])).toEqual([[1, 2], [3, 4]]);
    // Markers at its edges were silence the trim took: they take no time from the words.
    expect(lineSentences('<#1#>一二<#1#>三四<#2#>', { start: 1, end: 4 }, [{ text: '<#1#>一二<#1#>三四<#2#>', start: 0, end: 6.5 }], 1.25).map((t) => [t.start, t.end])).toEqual([[1, 2], [3, 4]]);
    // No stretch with words inside the cue: the line over its whole cue.
    expect(lineSentences('你好<#0.5#>(laughs)', cue, [], 0)).toEqual([{ start: 3, end: 5.4, text: '你好' }]);
  });

  it('writes the sentences as cues of at most two portrait-width lines, the words only, line-end punctuation dropped', () => {
    const srt = dubbingSrt([
      { start: 0, end: 1.2, text: '你好。' },
      { start: 1.5, end: 3.5, text: '今天我们来聊一聊配音工作室里的这些新功能，还有字幕是怎么排的吧。' },
    ]);
    expect(DUB_LINE_CHARS).toBe(16);
    expect(parseSrt(srt)).toEqual([
      { start: 0, end: 1.2, lines: ['你好'] },
      { start: 1.5, end: 3.5, lines: ['今天我们来聊一聊配音工作室里的这', '些新功能，还有字幕是怎么排的吧'] },
    ]);
  });

  it('keeps a dialogue\'s script with its roles', () => {
    expect(dubbingScript([{ role: '甲', text: '你好<#0.3#>' }, { text: '旁白' }])).toBe('甲：你好<#0.3#>\n旁白');
  });
});

describe('the price of a dub', () => {
  it('is each line\'s characters at its channel\'s price per 100, rounded up once', () => {
    expect(dubbingCredits([{ chars: 120, perUnit: 5 }, { chars: 30, perUnit: 0 }])).toBe(6);
    expect(dubbingCredits([{ chars: 1, perUnit: 3 }, { chars: 1, perUnit: 3 }])).toBe(1);
    expect(dubbingCredits([{ chars: 100, perUnit: 3 }])).toBe(3);
    expect(dubbingCredits([{ chars: 5000, perUnit: 0 }])).toBe(0);
  });

  it('counts roles by name, or by voice where a line has none', () => {
    expect(dubbingRoles([{ role: '甲', voice_id: 1 }, { role: '甲', voice_id: 2 }, { voice_id: 1 }, { voice_id: 1 }])).toHaveLength(2);
  });

  it('parses the lines of a submission with defaults', () => {
    const parsed = API.dubbing.create.request.parse({ lines: JSON.stringify([{ voice_id: '3', text: ' 你好 ', pause_after: '0.5' }]) });
    expect(parsed).toEqual({ name: '未命名', lines: [{ voice_id: 3, text: '你好', pause_after: 0.5 }], gap: 0.3, bgm_volume: 0.3 });
    expect(API.dubbing.create.request.safeParse({}).error?.issues[0]?.message).toBe(MSG.dubLinesInvalid);
  });
});
