/**
 * ffmpeg command lines live in the media module only: a feature calls its functions (normaliseVideo, makeCover,
 * laySpeechOver …) and never runs ffmpeg or ffprobe itself nor builds their filter arguments. Specs may make their
 * media with tests/support/media, but not with the product's runner either.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const FEATURES = path.resolve(__dirname, '../../features');
const isTest = (file: string) => /\.(spec|suite)\.ts$/.test(file);

/** What only the media module may write. */
const RUNS_FFMPEG = /\bffmpeg(Pipe)?\s*\(/;
const NAMES_BINARY = /\bFF(MPEG|PROBE)\b/;
const FILTER_ARGUMENT = /['"`]-(filter_complex|vf|af|filter:[av])['"`]/;
const RULES: [string, RegExp][] = [['runs ffmpeg', RUNS_FFMPEG], ['names the ffmpeg or ffprobe binary', NAMES_BINARY], ['builds a filter argument', FILTER_ARGUMENT]];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
}

describe('ffmpeg command lines are the media module’s', () => {
  it('no feature runs ffmpeg or ffprobe or builds their arguments', () => {
    const found: string[] = [];
    for (const file of sources(FEATURES)) {
      const text = fs.readFileSync(file, 'utf8');
      // A spec's own test media (made like tests/support/media's) is no command line of the product.
      const rules = isTest(file) ? RULES.slice(0, 1) : RULES;
      for (const [what, pattern] of rules) if (pattern.test(text)) found.push(`${path.relative(FEATURES, file)} ${what}`);
    }
    expect(found).toEqual([]);
  });

  it('would see one that did', () => {
    expect(RUNS_FFMPEG.test("await ffmpeg(['-i', video, out])")).toBe(true);
    expect(NAMES_BINARY.test('spawn(FFMPEG, args)')).toBe(true);
    expect(FILTER_ARGUMENT.test("['-filter_complex', graph]")).toBe(true);
    expect(FILTER_ARGUMENT.test("'-af', 'apad'")).toBe(true);
    expect(RUNS_FFMPEG.test('the sound track (ffmpeg) is extracted')).toBe(false);
  });
});
