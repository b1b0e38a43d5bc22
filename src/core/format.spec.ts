import { describe, expect, it } from 'vitest';
import { formatClock, formatDate, formatDateTime, formatDuration, formatSize } from './format';

describe('format', () => {
  it('writes lengths as mm:ss (h:mm:ss past an hour) and nothing when unknown', () => {
    expect(formatDuration(5.4)).toBe('00:05');
    expect(formatDuration(17.6)).toBe('00:18');
    expect(formatDuration(83.4)).toBe('01:23');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(0)).toBe('');
    expect(formatDuration(undefined)).toBe('');
    expect(formatDuration(Number.NaN)).toBe('');
  });

  it('writes play positions the same way, the start as 00:00', () => {
    expect(formatClock(0)).toBe('00:00');
    expect(formatClock(8.2)).toBe('00:08');
    expect(formatClock(3725)).toBe('1:02:05');
    expect(formatClock(-1)).toBe('');
    expect(formatClock(Number.POSITIVE_INFINITY)).toBe('');
  });

  it('writes sizes with one decimal below 100 of a unit', () => {
    expect(formatSize(0)).toBe('0 B');
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(300 * 1024)).toBe('300 KB');
    expect(formatSize(5.25 * 1024 * 1024)).toBe('5.3 MB');
    expect(formatSize(2 * 1024 * 1024 * 1024)).toBe('2 GB');
  });

  it('cuts server times to the date or the minute', () => {
    expect(formatDate('2026-11-21 09:30:15')).toBe('2026-11-21');
    expect(formatDateTime('2026-11-21 09:30:15')).toBe('2026-11-21 09:30');
    expect(formatDateTime('2026-11-21')).toBe('2026-11-21');
    expect(formatDate(undefined)).toBe('');
  });
});
