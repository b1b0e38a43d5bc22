/**
 * URLs of stored objects. Public objects have plain URLs; a user's objects get URLs signed with the data
 * directory's storage secret and an expiry, so a <video> or <img> can load them without the session header
 * and nobody can guess another user's. Downloads ask for an attachment.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A private object's URL lives at most an hour: long enough for a page and its player, short enough that a URL
 * copied from a screen or a log, or kept after a password change, soon stops working.
 */
export const PRIVATE_URL_TTL_SECONDS = 3600;
/**
 * Expiries are rounded to steps of this many seconds, so a list asked again every few seconds gets the same URLs:
 * players and pictures keep what they loaded instead of starting again on every poll. A URL thus lives between
 * the TTL less one step and the TTL.
 */
export const PRIVATE_URL_STEP_SECONDS = 300;

export class ObjectUrls {
  constructor(private readonly secret: string) {}

  private sign(key: string, exp: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${exp}`).digest('base64url');
  }

  url(key: string, options: { download?: boolean; now?: number } = {}): string {
    if (!key) return '';
    if (key.startsWith('public/')) return `/storage/${key}`;
    const earliest = Math.floor((options.now ?? Date.now()) / 1000) + PRIVATE_URL_TTL_SECONDS - PRIVATE_URL_STEP_SECONDS;
    const exp = Math.ceil(earliest / PRIVATE_URL_STEP_SECONDS) * PRIVATE_URL_STEP_SECONDS;
    return `/storage/${key}?exp=${exp}&sig=${this.sign(key, exp)}${options.download ? '&download=1' : ''}`;
  }

  verify(key: string, exp: string | undefined, sig: string | undefined): boolean {
    const e = Number(exp);
    if (!Number.isInteger(e) || e < Date.now() / 1000 || typeof sig !== 'string') return false;
    const expected = Buffer.from(this.sign(key, e));
    const given = Buffer.from(sig);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  /** Object key of a URL this server made (`/storage/<key>…`, with or without scheme and host). */
  keyOf(url: string): string | null {
    const m = /^(?:https?:\/\/[^/]+)?\/storage\/([^?#]+)/.exec(url);
    return m ? decodeURIComponent(m[1]!) : null;
  }
}
