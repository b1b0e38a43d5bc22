import { describe, expect, it } from 'vitest';
import { expectAnswers } from '../../tests/support/react-host';
import { formatClock, formatDate, formatDateTime, formatDuration, formatSize, metaLine } from './format';

describe('format', () => {
  it('writes lengths as mm:ss (h:mm:ss past an hour) and nothing when unknown', () => {
    expectAnswers(formatDuration, [
      [5.4, '00:05'],
      [6.2, '00:06'],
      [17.6, '00:18'],
      [65, '01:05'],
      [83, '01:23'],
      [83.4, '01:23'],
      [3725, '1:02:05'],
      [0, ''],
      [undefined, ''],
      [Number.NaN, ''],
    ]);
  });

  it('writes play positions the same way, the start as 00:00', () => {
    expectAnswers(formatClock, [
      [0, '00:00'],
      [8.2, '00:08'],
      [3725, '1:02:05'],
      [-1, ''],
      [Number.POSITIVE_INFINITY, ''],
    ]);
  });

  it('writes sizes with one decimal below 100 of a unit', () => {
    expectAnswers(formatSize, [
      [0, '0 B'],
      [512, '512 B'],
      [1536, '1.5 KB'],
      [300 * 1024, '300 KB'],
      [5.25 * 1024 * 1024, '5.3 MB'],
      [2 * 1024 * 1024 * 1024, '2 GB'],
    ]);
  });

  it('joins the meta parts that have something to say with middle dots', () => {
    expect(metaLine('01:23', '3句', '', undefined, null, false, '2026-11-21 09:30')).toBe('01:23 · 3句 · 2026-11-21 09:30');
    expect(metaLine('', undefined)).toBe('');
  });

  it('cuts server times to the date or the minute', () => {
    expect(formatDate('2026-11-21 09:30:15')).toBe('2026-11-21');
    expect(formatDateTime('2026-11-21 09:30:15')).toBe('2026-11-21 09:30');
    expect(formatDateTime('2026-11-21')).toBe('2026-11-21');
    expect(formatDate(undefined)).toBe('');
  });
});
