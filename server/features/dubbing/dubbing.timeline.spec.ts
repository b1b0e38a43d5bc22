import { describe, expect, it } from 'vitest';
import { API, MSG, dubbingCredits, dubbingRoles, parseSrt } from '../../../src/contract';
import { dubbingScript, dubbingSrt, placeLines, silencesAfter } from './dubbing.timeline';

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

  it('writes one cue a line, the words only, broken into caption lines', () => {
    const srt = dubbingSrt([{ start: 0, end: 1.2 }, { start: 1.5, end: 3.5 }], [{ text: '你好<#0.5#>(laughs)' }, { text: '今天我们来聊一聊配音工作室里的这些新功能吧' }]);
    expect(parseSrt(srt)).toEqual([
      { start: 0, end: 1.2, text: '你好' },
      { start: 1.5, end: 3.5, text: '今天我们来聊一聊配音工作室里的这\n些新功能吧' },
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
