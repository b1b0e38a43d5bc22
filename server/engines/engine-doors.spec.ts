/**
 * The server's import rules that eslint does not see, read from the files (no database, no server):
 * - a feature uses an engine only through its door, `server/engines/<kind>/index.ts` (imported as the folder), so
 *   which engine serves a channel is decided in one place per kind;
 * - server/app-context.ts, which every feature imports, imports no feature (its FeatureContext holds interfaces
 *   that the features implement), so there is no import cycle through it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(__dirname, '..');
const ENGINES = path.join(SERVER, 'engines');
const FEATURES = path.join(SERVER, 'features');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

/** The files a module imports (static, re-exports and dynamic), as absolute paths without an extension. */
function importsOf(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  const specifiers = [...source.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(file), s).replace(/\.ts$/, ''));
}

const relative = (file: string) => path.relative(SERVER, file);

/** `engines/<kind>` or `engines/<kind>/index`, where that folder has an index.ts. */
function isDoor(target: string): boolean {
  const parts = path.relative(ENGINES, target).split(path.sep);
  if (parts.length === 2 && parts[1] !== 'index') return false;
  return parts.length <= 2 && fs.existsSync(path.join(ENGINES, parts[0]!, 'index.ts'));
}

describe('import rules', () => {
  it('features import engines only through server/engines/<kind>/index.ts', () => {
    const deep = tsFiles(FEATURES).flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith(ENGINES + path.sep) && !isDoor(target))
        .map((target) => `${relative(file)} → ${relative(target)}`),
    );
    expect(deep).toEqual([]);
  });

  it('server/app-context.ts imports no feature', () => {
    const features = importsOf(path.join(SERVER, 'app-context.ts')).filter((target) => target === FEATURES || target.startsWith(FEATURES + path.sep));
    expect(features.map(relative)).toEqual([]);
  });

  it('the rules see the imports they judge', () => {
    expect(importsOf(path.join(FEATURES, 'works', 'works.jobs.ts'))).toContain(path.join(ENGINES, 'lipsync'));
    expect(importsOf(path.join(SERVER, 'app.ts'))).toContain(FEATURES);
    expect(isDoor(path.join(ENGINES, 'lipsync'))).toBe(true);
    expect(isDoor(path.join(ENGINES, 'lipsync', 'index'))).toBe(true);
    expect(isDoor(path.join(ENGINES, 'lipsync', 'heygem'))).toBe(false);
    expect(isDoor(path.join(ENGINES, 'ocr'))).toBe(true);
    expect(isDoor(path.join(ENGINES, 'ocr', 'read-captions'))).toBe(false);
    expect(isDoor(path.join(ENGINES, 'speech', 'offline', 'offline-engine'))).toBe(false);
  });
});
