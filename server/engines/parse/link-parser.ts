/**
 * A link-parse engine: a self-hosted service that turns a short-video share link (Douyin, TikTok, Kuaishou, …) into
 * the watermark-free media URLs of the post. Our job downloads those URLs at once (CDN links expire) through the
 * guarded fetcher, since the engine's answer is no more trusted than the user's link.
 */
import { MSG } from '../../../src/contract';
import { fetchWithDeadline, ProviderUnreachable } from '../provider-http';

export interface ParsedPost {
  /** The post's text (title or description). */
  desc: string;
  /** The watermark-free video; absent for a picture post. */
  videoUrl?: string;
  /** The post's music or original sound. */
  musicUrl?: string;
  coverUrl?: string;
}

/** An account's public profile and its latest posts, as the engine reads them from a profile link. */
export interface ParsedProfile {
  nickname: string;
  signature: string;
  followers: number;
  /** Newest first, as the platform lists them. */
  posts: { desc: string; likes: number }[];
}

export interface LinkParser {
  readonly name: string;
  parse(link: string): Promise<ParsedPost>;
  /** Present when the engine can read a profile link (user profile and user posts endpoints). */
  readProfile?(link: string): Promise<ParsedProfile>;
}

/** The engine could not give a post for this link; `message` is the user's reason (MSG.parse*). */
export class ParseFailed extends Error {
  constructor(
    message: string,
    readonly detail = '',
  ) {
    super(message);
  }
}

export interface ParserConfig {
  baseUrl: string;
  timeoutMs: number;
}

/** GETs `{base}{path}?url=<link>` and answers its JSON, or throws ParseFailed with the user's reason. */
export async function getJson(config: ParserConfig, path: string, params: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
  const url = `${config.baseUrl.replace(/\/+$/, '')}${path}?${new URLSearchParams(params)}`;
  let res;
  try {
    res = await fetchWithDeadline(url, { headers: { accept: 'application/json' } }, config.timeoutMs);
  } catch (err) {
    if (err instanceof ProviderUnreachable) throw new ParseFailed(err.timedOut ? MSG.parseTimeout : MSG.parseUnavailable, err.message);
    throw err;
  }
  if (res.status >= 500) throw new ParseFailed(MSG.parseUnavailable, `HTTP ${res.status}`);
  let json: unknown;
  try {
    json = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw new ParseFailed(MSG.parseBadReply, `HTTP ${res.status}, not JSON`);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new ParseFailed(MSG.parseBadReply, 'not an object');
  return { status: res.status, json: json as Record<string, unknown> };
}

/** A string, or the first of a `url_list`, or an object's `url`/`uri` that is a URL: engines nest media URLs variously. */
export function firstUrl(value: unknown): string | undefined {
  if (typeof value === 'string') return /^https?:\/\//i.test(value) ? value : undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = firstUrl(v);
      if (found) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return firstUrl(o.url_list) ?? firstUrl(o.url) ?? firstUrl(o.uri);
  }
  return undefined;
}

/** A count the platform may send as a number or a numeric string; 0 otherwise. */
export const asCount = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0);

export const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
