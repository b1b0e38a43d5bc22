import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MEDIA_CACHE_ENV } from './media-cache';

/** The run's media cache (media-cache.ts): empty at the start, filled by the specs as they ask, removed at the end (unless given). */
export default function setup() {
  // `npm test` runs two vitest processes and hands both one folder; it removes it itself.
  if (process.env[MEDIA_CACHE_ENV]) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-media-cache-'));
  // The environment, like the PGlite template: the workers inherit it.
  process.env[MEDIA_CACHE_ENV] = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
