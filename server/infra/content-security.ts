/**
 * The Content-Security-Policy of the web app: our own origin for everything, plus exactly the origins a browser
 * must reach besides — the bucket's (or its CDN's) for stored pictures, media, downloads and waveforms, the bucket's
 * for direct uploads, and the hosts of the images an operator set by URL (logo, QR code, login pictures).
 * Inline styles are Blueprint's and dockview's; workers are Monaco's and the waveform decoder's.
 */
import type { StorageOrigins } from './storage';

/** Site settings whose value is a picture's URL, shown by the app (logo, QR code, login page). */
export const SITE_IMAGE_SETTINGS = ['logo', 'qrcode', 'login_bg', 'login_logo'] as const;

/** `scheme://host[:port]` of an absolute http(s) URL; undefined for anything else (a relative path, data:, junk). */
export function httpOrigin(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

const unique = (origins: (string | undefined)[]) => [...new Set(origins.filter((o): o is string => !!o))];
const sources = (...extra: (string | undefined)[]) => ["'self'", ...unique(extra)].join(' ');

export function contentSecurityPolicy(storage: StorageOrigins, siteImageOrigins: string[] = []): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${sources(...storage.reads, ...siteImageOrigins)} data: blob:`,
    `media-src ${sources(...storage.reads)} blob:`,
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    // Downloads and waveforms fetch stored objects; direct uploads post to the bucket.
    `connect-src ${sources(...storage.reads, ...storage.uploads)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The origins of the operator's site pictures that are on other hosts. */
export function siteImageOrigins(settings: Record<string, string | undefined>): string[] {
  return unique(SITE_IMAGE_SETTINGS.map((key) => httpOrigin(settings[key])));
}

/**
 * The policy for every static reply: made again only when the (cached) settings object changes, not per request,
 * since a page load asks for dozens of assets.
 */
export function policyOfSite(storage: StorageOrigins): (settings: Record<string, string | undefined>) => string {
  let last: { from: Record<string, string | undefined>; policy: string } | undefined;
  return (settings) => {
    if (last?.from !== settings) last = { from: settings, policy: contentSecurityPolicy(storage, siteImageOrigins(settings)) };
    return last.policy;
  };
}
