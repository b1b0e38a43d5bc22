import { describe, expect, it } from 'vitest';
import { countChars, estimateSeconds, pauseMarker, pauseSeconds, scriptLimit, splitScript, stripPauses, LIMITS } from './index';

describe('script grammar', () => {
  const script = `大家好${pauseMarker(0.5)}欢迎来到直播间${pauseMarker(2)}Hi`;

  it('does not count pause markers toward the limit', () => {
    expect(stripPauses(script)).toBe('大家好欢迎来到直播间Hi');
    expect(countChars(script)).toBe(12);
  });

  it('counts code points, so emoji count once', () => {
    expect(countChars('👍好')).toBe(2);
  });

  it('sums pause seconds and estimates duration as chars / 4.2 + pauses', () => {
    expect(pauseSeconds(script)).toBe(2.5);
    expect(estimateSeconds(script)).toBeCloseTo(12 / 4.2 + 2.5, 5);
  });

  it('stretches the spoken part, not the pauses, by the speed slider', () => {
    expect(estimateSeconds(script, 0.5)).toBeCloseTo(12 / 2.1 + 2.5, 5);
    expect(estimateSeconds(script, 2)).toBeCloseTo(12 / 8.4 + 2.5, 5);
    expect(estimateSeconds('字'.repeat(84), 0.5)).toBeCloseTo(40, 5);
  });

  it('splits at markers for engines that need real silence', () => {
    expect(splitScript(script)).toEqual([
      { kind: 'text', text: '大家好' },
      { kind: 'pause', seconds: 0.5 },
      { kind: 'text', text: '欢迎来到直播间' },
      { kind: 'pause', seconds: 2 },
      { kind: 'text', text: 'Hi' },
    ]);
  });

  it('limits nw to 500 characters and the rest to 10000', () => {
    expect(scriptLimit('nw')).toBe(LIMITS.scriptMaxCharsNw);
    expect(scriptLimit('fish')).toBe(LIMITS.scriptMaxChars);
    expect(LIMITS.pauseChoices).toEqual([0.2, 0.3, 0.5, 1, 2]);
  });

  it('counts each pause at most the engines\' cap, so no marker can blow up an estimate or a reservation', () => {
    const huge = 'a<#99999999999#>';
    expect(pauseSeconds(huge)).toBe(LIMITS.pauseMaxSeconds);
    expect(estimateSeconds(huge)).toBeCloseTo(1 / LIMITS.charsPerSecond + LIMITS.pauseMaxSeconds, 6);
    expect(splitScript(`${huge}b${pauseMarker(1)}`)).toEqual([
      { kind: 'text', text: 'a' },
      { kind: 'pause', seconds: LIMITS.pauseMaxSeconds },
      { kind: 'text', text: 'b' },
      { kind: 'pause', seconds: 1 },
    ]);
    expect(pauseSeconds(`<#${'9'.repeat(400)}#>`)).toBe(LIMITS.pauseMaxSeconds);
  });
});
