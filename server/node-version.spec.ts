import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/** The lowest Node our `engines` allows must satisfy every installed package, or `npm install` warns a newcomer. */
describe('the Node the project runs on', () => {
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version?: string; engines?: unknown; optional?: boolean }> };
  const lowest = semver.minVersion(manifest.engines.node)!;

  it('is stated in package.json and is Node 20', () => {
    expect(lowest.major).toBe(20);
  });

  it('satisfies the engines of every package in the lock file', () => {
    const demanding = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, entry]) => {
        const wanted = (entry.engines as { node?: string } | undefined)?.node;
        return wanted && semver.validRange(wanted) && !semver.satisfies(lowest, wanted) ? [`${path}@${entry.version} wants node ${wanted}`] : [];
      });
    expect(demanding).toEqual([]);
  });
});
