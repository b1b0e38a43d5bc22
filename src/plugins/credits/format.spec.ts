import { describe, expect, it } from 'vitest';
import { expectAnswers } from '../../../tests/support/react-host';
import { BALANCE_UNKNOWN, addDays, badgeText, chinaToday, clampRange, creditTone, daysInRange, formatBalance, formatCredits, formatMb, formatSignedCredits, isDate, lastDays, pageCount, parseChinaTime, percent, shortDate, shortcutOf, spaceRatio, vipStatus } from './format';
import { formatDateTime } from '../../core';

/** 2026-11-21 23:30 in China = 15:30 UTC. */
const LATE_EVENING_CHINA = Date.parse('2026-11-21T15:30:00Z');
/** 2026-11-21 07:00 in China = 2026-11-20 23:00 UTC: UTC still says the 20th. */
const EARLY_MORNING_CHINA = Date.parse('2026-11-20T23:00:00Z');

describe('China-time dates', () => {
  it('takes today in China, not in UTC or the browser zone', () => {
    expectAnswers(chinaToday, [
      [LATE_EVENING_CHINA, '2026-11-21'],
      [EARLY_MORNING_CHINA, '2026-11-21'],
      [Date.parse('2026-11-21T16:00:00Z'), '2026-11-22'],
    ]);
  });

  it('adds days across months, years and leap days', () => {
    expectAnswers(addDays, [
      ['2026-03-01', -1, '2026-02-28'],
      ['2024-03-01', -1, '2024-02-29'],
      ['2026-12-31', 1, '2027-01-01'],
      ['2026-11-21', -29, '2026-10-23'],
    ]);
  });

  it('counts the days of a range, both ends included', () => {
    expect(daysInRange({ start: '2026-11-21', end: '2026-11-21' })).toBe(1);
    expect(daysInRange({ start: '2026-10-23', end: '2026-11-21' })).toBe(30);
  });

  it('validates YYYY-MM-DD', () => {
    expectAnswers(isDate, [
      ['2026-11-21', true],
      ['2026-02-30', false],
      ['2026-1-2', false],
      ['', false],
    ]);
  });
});

describe('ranges for /consum', () => {
  it('近7天 and 近30天 end today and include it', () => {
    expect(lastDays(7, EARLY_MORNING_CHINA)).toEqual({ start: '2026-11-15', end: '2026-11-21' });
    expect(lastDays(30, LATE_EVENING_CHINA)).toEqual({ start: '2026-10-23', end: '2026-11-21' });
  });

  it('recognises a shortcut range', () => {
    expect(shortcutOf(lastDays(7, LATE_EVENING_CHINA), LATE_EVENING_CHINA)).toBe(7);
    expect(shortcutOf(lastDays(30, LATE_EVENING_CHINA), LATE_EVENING_CHINA)).toBe(30);
    expect(shortcutOf({ start: '2026-11-01', end: '2026-11-21' }, LATE_EVENING_CHINA)).toBeNull();
  });

  it('never lets a date pass today', () => {
    expect(clampRange({ start: '2026-11-01', end: '2027-01-01' }, '2026-11-21')).toEqual({ start: '2026-11-01', end: '2026-11-21' });
    expect(clampRange({ start: '2027-01-01', end: '2027-01-02' }, '2026-11-21', 'start')).toEqual({ start: '2026-11-21', end: '2026-11-21' });
  });

  it('keeps start ≤ end by moving the other end', () => {
    expect(clampRange({ start: '2026-11-10', end: '2026-11-05' }, '2026-11-21', 'start')).toEqual({ start: '2026-11-10', end: '2026-11-10' });
    expect(clampRange({ start: '2026-11-10', end: '2026-11-05' }, '2026-11-21', 'end')).toEqual({ start: '2026-11-05', end: '2026-11-05' });
  });
});

describe('membership status', () => {
  const now = Date.parse('2026-11-21T12:00:00+08:00');
  it('shows the expiry to the minute while valid', () => {
    expect(vipStatus('2027-01-05 18:30:00', now)).toEqual({ kind: 'active', until: '2027-01-05 18:30', text: '会员有效期至 2027-01-05 18:30' });
  });
  it('says expired once the time has passed (China time)', () => {
    expect(vipStatus('2026-11-21 11:59:59', now).kind).toBe('expired');
    expect(vipStatus('2026-11-21 11:59:59', now).text).toBe('会员已过期');
    expect(vipStatus('2026-11-21 12:00:01', now).kind).toBe('active');
  });
  it('says not opened when empty or unreadable', () => {
    for (const v of ['', '  ', null, undefined, 'soon', '0000-00-00 00:00:00']) expect(vipStatus(v, now)).toEqual({ kind: 'none', text: '暂未开通会员' });
  });
  it('parses China time with or without seconds', () => {
    expect(parseChinaTime('2026-11-21 08:00')).toBe(Date.parse('2026-11-21T00:00:00Z'));
    expect(parseChinaTime('2026-11-21')).toBe(Date.parse('2026-11-20T16:00:00Z'));
    expect(parseChinaTime('x')).toBeNaN();
  });
});

describe('formatting', () => {
  it('formats credits with separators and signs', () => {
    expect(formatCredits(12345)).toBe('12,345');
    expectAnswers(formatSignedCredits, [
      [100, '+100'],
      [-5000, '-5,000'],
      [0, '0'],
    ]);
    expect([creditTone(3), creditTone(-3), creditTone(0)]).toEqual(['grant', 'spend', 'zero']);
  });

  it('shows a dash for the balance until the profile has loaded, never a 0 the user does not have', () => {
    expectAnswers(formatBalance, [
      [null, BALANCE_UNKNOWN],
      [undefined, BALANCE_UNKNOWN],
      [{ credits: 0 }, '0'],
      [{ credits: 1234 }, '1,234'],
    ]);
  });

  it('formats space', () => {
    expectAnswers(formatMb, [
      [0, '0 MB'],
      [12.345, '12.35 MB'],
      [5120, '5,120 MB'],
    ]);
    expect(spaceRatio(512, 5120)).toBeCloseTo(0.1);
    expect(spaceRatio(6000, 5120)).toBe(1);
    expect(spaceRatio(1, 0)).toBe(0);
    expectAnswers(percent, [
      [0, '0%'],
      [0.004, '<1%'],
      [0.456, '46%'],
    ]);
  });

  it('shortens dates and times', () => {
    expect(shortDate('2026-11-21')).toBe('11-21');
    expect(formatDateTime('2026-11-21 09:30:15')).toBe('2026-11-21 09:30');
  });

  it('counts pages and badge text', () => {
    expectAnswers(pageCount, [
      [0, 10, 1],
      [10, 10, 1],
      [11, 10, 2],
    ]);
    expect([badgeText(0), badgeText(3), badgeText(120)]).toEqual(['', '3', '99+']);
  });
});
