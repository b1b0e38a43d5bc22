/**
 * The link-parse engine the operator chose (`npm run admin -- site set parse_engine=hybrid|parsevideo
 * parse_base_url=http://… [parse_timeout_ms=20000]`), or null when none is set. Direct links to a media file need
 * no engine (the extraction feature fetches them itself).
 */
import { HybridParser } from './hybrid';
import { ParseVideoParser } from './parse-video';
import type { LinkParser } from './link-parser';

export { ParseFailed, type LinkParser, type ParsedPost, type ParsedProfile } from './link-parser';

export const PARSE_ENGINES = ['hybrid', 'parsevideo'] as const;
export const DEFAULT_PARSE_TIMEOUT_MS = 20_000;

export function parserFromSettings(settings: Record<string, string | undefined>): LinkParser | null {
  const engine = settings.parse_engine?.trim().toLowerCase();
  const baseUrl = settings.parse_base_url?.trim() ?? '';
  if (!engine || engine === 'none' || !/^https?:\/\/\S+$/i.test(baseUrl)) return null;
  const timeout = Number(settings.parse_timeout_ms);
  const config = { baseUrl, timeoutMs: timeout > 0 ? timeout : DEFAULT_PARSE_TIMEOUT_MS };
  if (engine === 'hybrid') return new HybridParser(config);
  if (engine === 'parsevideo') return new ParseVideoParser(config);
  return null;
}
