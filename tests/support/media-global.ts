import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MEDIA_CACHE_ENV } from './media-cache';

/** The run's media cache (media-cache.ts): empty at the start, filled by the specs as they ask, removed at the end. */
export default function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-media-cache-'));
  // The environment, like the PGlite template: the workers inherit it.
  process.env[MEDIA_CACHE_ENV] = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
