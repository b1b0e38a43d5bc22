/**
 * Test media made once per run: a file is named by its recipe (what makes it, plus RECIPE_VERSION), built into the
 * run's cache folder the first time any spec asks for it and copied to the caller's path after that. media-global.ts
 * makes the folder and passes it through MEDIA_CACHE_ENV; without it (the bench, the soak) media is built directly.
 * Several spec files build at once: a file is built under a temporary name and renamed into place, so a reader
 * never sees half a file; two builders of one recipe both finish and the second rename replaces an equal file.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const MEDIA_CACHE_ENV = 'TEST_MEDIA_CACHE';

/** Raise it when what a recipe makes changes without its arguments changing (the ffmpeg build, a helper's defaults). */
const RECIPE_VERSION = 1;

/** The run's cache folder, or undefined outside a test run. */
export const mediaCacheDir = (): string | undefined => process.env[MEDIA_CACHE_ENV] || undefined;

/** The recipe's name in the cache: a hash of the recipe and the output's extension (which picks the format). */
export function recipeKey(recipe: unknown, ext: string): string {
  return createHash('sha256').update(JSON.stringify({ v: RECIPE_VERSION, recipe })).digest('hex').slice(0, 32) + ext;
}

/** Where `recipe` is kept for a file like `file`, and a fresh name to build it under; null outside a test run. */
function cacheSlot(file: string, recipe: unknown): { built: string; temp: string } | null {
  const cache = mediaCacheDir();
  if (!cache) return null;
  const ext = path.extname(file);
  return { built: path.join(cache, recipeKey(recipe, ext)), temp: path.join(cache, `tmp-${process.pid}-${Math.random().toString(36).slice(2)}${ext}`) };
}

/** Moves a finished build into place (a rename, so a file running beside never reads half of it); drops a failed one. */
function keep(slot: { built: string; temp: string }, built: boolean): void {
  if (built) fs.renameSync(slot.temp, slot.built);
  fs.rmSync(slot.temp, { force: true });
}

/**
 * The cached file for `recipe`, placed at `file` (a copy: specs may rewrite or truncate their files, the cache
 * stays as built). `build(out)` writes the file at `out`, whose extension is `file`'s.
 */
export function cachedFile(file: string, recipe: unknown, build: (out: string) => void): string {
  const slot = cacheSlot(file, recipe);
  if (!slot) build(file);
  else if (!fs.existsSync(slot.built)) {
    try {
      build(slot.temp);
    } catch (err) {
      keep(slot, false);
      throw err;
    }
    keep(slot, true);
  }
  if (slot) place(slot.built, file);
  return file;
}

/** cachedFile for builders that are asynchronous (speech from the offline engine). */
export async function cachedFileAsync(file: string, recipe: unknown, build: (out: string) => Promise<unknown>): Promise<string> {
  const slot = cacheSlot(file, recipe);
  if (!slot) await build(file);
  else if (!fs.existsSync(slot.built)) await build(slot.temp).then(() => keep(slot, true), (err: unknown) => (keep(slot, false), Promise.reject(err)));
  if (slot) place(slot.built, file);
  return file;
}

/** A copy (a clone of the blocks where the file system can). */
export function place(from: string, to: string): void {
  fs.rmSync(to, { force: true });
  fs.copyFileSync(from, to, fs.constants.COPYFILE_FICLONE);
}

/**
 * A folder of outputs made once per run under `key` (the ready avatars' clone results): `build(dir)` fills a
 * temporary folder that is renamed into place. Builds are expensive, so the first builder takes a lock and the
 * others wait for its result instead of building beside it. Outside a test run it builds into a fresh folder.
 */
export async function cachedFolder(key: string, build: (dir: string) => Promise<void>, { waitMs = 300_000 } = {}): Promise<string> {
  const cache = mediaCacheDir() ?? fs.mkdtempSync(path.join(os.tmpdir(), 'aisa-media-cache-'));
  const done = path.join(cache, key);
  const lock = `${done}.lock`;
  const started = Date.now();
  while (!fs.existsSync(done)) {
    let fd: number | undefined;
    try {
      fd = fs.openSync(lock, 'wx');
    } catch {
      // Another file is building it; a lock older than the wait is a builder that died.
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > waitMs) fs.rmSync(lock, { force: true });
      else if (Date.now() - started > waitMs) throw new Error(`waited ${waitMs} ms for ${key} to be built`);
      await new Promise((r) => setTimeout(r, 200));
      continue;
    }
    const temp = `${done}.tmp-${process.pid}`;
    try {
      fs.rmSync(temp, { recursive: true, force: true });
      fs.mkdirSync(temp);
      await build(temp);
      fs.renameSync(temp, done);
    } finally {
      fs.rmSync(temp, { recursive: true, force: true });
      fs.closeSync(fd);
      fs.rmSync(lock, { force: true });
    }
  }
  return done;
}
