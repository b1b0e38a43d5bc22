/**
 * The one way the workbench writes durations, sizes and dates, so a card, a player and a dialog agree
 * (mm:ss, h:mm:ss past an hour; 1.5 KB; 2026-11-21 09:30). Pure, no DOM.
 */

/**
 * mm:ss of whole seconds, h:mm:ss past an hour. Rounded to the nearest second, once, here: a card's length and the
 * player's total come from this one rule (17.6 s reads 00:18 on both), and the position reaches the total at the end.
 */
function clockOf(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const mm = String(Math.floor((total % 3600) / 60)).padStart(2, '0');
  const ss = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** A length: 83 → 01:23; 3725 → 1:02:05; unknown or 0 → '' (nothing to show). */
export function formatDuration(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return '';
  return clockOf(seconds);
}

/** A play position: like formatDuration, but the start reads 00:00; unknown → ''. */
export function formatClock(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '';
  return clockOf(seconds);
}

/** 1536 → 1.5 KB; 300 KB; 524288000 → 500 MB (one decimal below 100 of a unit). */
export function formatSize(bytes: number): string {
  if (!(bytes > 0)) return '0 B';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = unit === 0 || value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
  return `${text} ${units[unit]}`;
}

/** A card's meta line: the parts that have something to say, between middle dots (2:05 · 3句 · 2026-11-21 09:30). */
export function metaLine(...parts: (string | false | null | undefined)[]): string {
  return parts.filter(Boolean).join(' · ');
}

/** The server's `YYYY-MM-DD HH:mm:ss` → `YYYY-MM-DD`; anything shorter as it is. */
export function formatDate(value: string | undefined): string {
  if (!value) return '';
  return value.length >= 10 ? value.slice(0, 10) : value;
}

/** The server's `YYYY-MM-DD HH:mm:ss` → `YYYY-MM-DD HH:mm`; anything shorter as it is. */
export function formatDateTime(value: string | undefined): string {
  if (!value) return '';
  return value.length >= 16 ? value.slice(0, 16) : value;
}

export type VipStatus =
  | { kind: 'active'; until: string; text: string }
  | { kind: 'expired'; until: string; text: string }
  | { kind: 'none'; text: string };

/** `YYYY-MM-DD HH:mm[:ss]` in China time → epoch ms, or NaN. */
export function parseChinaTime(value: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(value.trim());
  if (!m) return NaN;
  return Date.parse(`${m[1]}T${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}+08:00`);
}

/** The VIP popover's line (part 1 §1, §6): valid until, expired, or never opened. */
export function vipStatus(expireTime: string | null | undefined, now: number = Date.now()): VipStatus {
  const raw = (expireTime ?? '').trim();
  const at = raw ? parseChinaTime(raw) : NaN;
  if (!raw || Number.isNaN(at) || raw.startsWith('0000')) return { kind: 'none', text: '暂未开通会员' };
  const until = raw.replace('T', ' ').slice(0, 16);
  if (at <= now) return { kind: 'expired', until, text: '会员已过期' };
  return { kind: 'active', until, text: `会员有效期至 ${until}` };
}
