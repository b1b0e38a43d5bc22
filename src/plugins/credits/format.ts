/**
 * Pure helpers of the credits plugin: China-time dates and ranges for /consum, membership status from
 * expire_time, and number formatting. No DOM, no services: tested in format.spec.ts.
 */

/** The product's dates are China time (UTC+8, no daylight saving). */
const CHINA_OFFSET_MS = 8 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface DateRange {
  /** YYYY-MM-DD, inclusive. */
  start: string;
  /** YYYY-MM-DD, inclusive. */
  end: string;
}

export function isDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

/** Today's date in China, YYYY-MM-DD. */
export function chinaToday(now: number = Date.now()): string {
  return new Date(now + CHINA_OFFSET_MS).toISOString().slice(0, 10);
}

/** `date` moved by `days` (negative: back). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from start to end, both included (1 for a single day). */
export function daysInRange(range: DateRange): number {
  const a = Date.parse(`${range.start}T00:00:00Z`);
  const b = Date.parse(`${range.end}T00:00:00Z`);
  return Math.round((b - a) / DAY_MS) + 1;
}

/** The last `n` days ending today (China time), today included: 近7天, 近30天. */
export function lastDays(n: number, now: number = Date.now()): DateRange {
  const end = chinaToday(now);
  return { start: addDays(end, -(n - 1)), end };
}

/** Which shortcut (7 or 30) the range is, if any, so its button shows as active. */
export function shortcutOf(range: DateRange, now: number = Date.now()): number | null {
  for (const n of [7, 30]) {
    const r = lastDays(n, now);
    if (r.start === range.start && r.end === range.end) return n;
  }
  return null;
}

/**
 * A range the user edited: no date after today, start never after end. `changed` says which end the user
 * moved, so the other one follows it rather than the edit being undone.
 */
export function clampRange(range: DateRange, today: string, changed: 'start' | 'end' = 'end'): DateRange {
  let start = range.start > today ? today : range.start;
  let end = range.end > today ? today : range.end;
  if (start > end) {
    if (changed === 'start') end = start;
    else start = end;
  }
  return { start, end };
}

/** The membership line and China-time parsing live in core (the account menu shows the membership too). */
export { parseChinaTime, vipStatus, type VipStatus } from '../../core';

const integer = new Intl.NumberFormat('zh-CN', { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat('zh-CN', { maximumFractionDigits: 2 });

/** 12,345 */
export function formatCredits(n: number): string {
  return integer.format(n);
}

/** Shown for the balance until the account's profile has loaded: not 0, which a user with credits would misread. */
export const BALANCE_UNKNOWN = '—';

/** The balance as the top bar and the credit screens show it: the number once the profile is known, a dash before. */
export function formatBalance(profile: { credits: number } | null | undefined): string {
  return profile ? formatCredits(profile.credits) : BALANCE_UNKNOWN;
}

/** A log entry's amount: grants `+100`, spends `-50`. */
export function formatSignedCredits(n: number): string {
  if (n > 0) return `+${integer.format(n)}`;
  if (n < 0) return `-${integer.format(-n)}`;
  return '0';
}

export type CreditTone = 'grant' | 'spend' | 'zero';
export function creditTone(n: number): CreditTone {
  return n > 0 ? 'grant' : n < 0 ? 'spend' : 'zero';
}

/** Space used, from MB: `0 MB`, `12.5 MB`, `1,024 MB`. */
export function formatMb(mb: number): string {
  return `${decimal.format(Math.max(0, mb))} MB`;
}

/** The share of space used, 0..1 (0 when nothing is granted). */
export function spaceRatio(used: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(1, Math.max(0, used / total));
}

export function percent(ratio: number): string {
  const p = ratio * 100;
  if (p > 0 && p < 1) return '<1%';
  return `${Math.round(p)}%`;
}

/** `2026-11-21` → `11-21` for chart labels. */
export function shortDate(date: string): string {
  return date.length >= 10 ? date.slice(5, 10) : date;
}

/** Pages for a total: at least 1. */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, limit)));
}

/** Badge text for a count: '', '3', '99+'. */
export function badgeText(n: number): string {
  if (n <= 0) return '';
  return n > 99 ? '99+' : String(n);
}
