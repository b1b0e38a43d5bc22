/**
 * The server as JavaScript, for the server processes a test run starts (journeys, restarts, operator commands).
 * `npm start` runs `server/main.ts` through tsx, which transpiles each module with esbuild as it loads, on a hooks
 * thread; a run starts about a hundred such processes, and each spent about 1.8 of its 4.6 CPU-s of start-up there.
 * This transpiles the same files with the same esbuild and tsconfig once per run, module by module (the layout kept, so
 * every `import.meta.url` path still finds its migrations, seeds and worker scripts), and those processes run that.
 * server/main.spec.ts still starts the product through tsx itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { transform } from 'esbuild';
import { ROOT } from './root';

/** Where a run's build is (set by the global set-up below; the test workers inherit it). */
export const SERVER_BUILD_ENV = 'TEST_SERVER_BUILD';

/** The built file of a source file of the repository (`server/main.ts` → `<build>/server/main.js`), when a build is set up. */
export function builtServerFile(source: string): string | undefined {
  const build = process.env[SERVER_BUILD_ENV];
  return build ? path.join(build, source.replace(/\.tsx?$/, '.js')) : undefined;
}

const TS = /\.tsx?$/;
/** Relative specifiers of static and dynamic imports and re-exports. */
const RELATIVE_IMPORT = /((?:\bfrom|\bimport)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]+)\2/g;

/** The TypeScript file a relative specifier names (extension optional, or a folder's index), or any other file it names. */
function resolveSource(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * Builds into `outDir` every file under server/ but the specs (TypeScript transpiled, anything else copied) and what
 * they import from elsewhere in the repository (the contract), following the imports.
 */
export async function buildServer(outDir: string): Promise<void> {
  const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };
  const target = `node${process.versions.node.split('.')[0]}`;
  const queue = listFiles(path.join(ROOT, 'server')).filter((file) => !/\.spec\.tsx?$/.test(file));
  const done = new Set<string>();
  for (let file = queue.shift(); file; file = queue.shift()) {
    if (done.has(file)) continue;
    done.add(file);
    const dest = path.join(outDir, path.relative(ROOT, file)).replace(TS, '.js');
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    if (!TS.test(file)) {
      fs.copyFileSync(file, dest);
      continue;
    }
    const { code } = await transform(fs.readFileSync(file, 'utf8'), {
      loader: file.endsWith('x') ? 'tsx' : 'ts', format: 'esm', target, sourcefile: file, tsconfigRaw: { compilerOptions },
    });
    // Node wants the built file's own name where the source named a TypeScript file, a bare path or a folder.
    const rewritten = code.replace(RELATIVE_IMPORT, (whole, before: string, quote: string, specifier: string) => {
      const source = resolveSource(file, specifier);
      if (!source) return whole;
      queue.push(source);
      if (!TS.test(source)) return whole;
      const built = path.relative(path.dirname(file), source).replace(TS, '.js');
      return `${before}${quote}${built.startsWith('.') ? built : `./${built}`}${quote}`;
    });
    fs.writeFileSync(dest, rewritten);
  }
  // Inside node_modules, Node would not look past the build for the repository's `"type": "module"`.
  fs.writeFileSync(path.join(outDir, 'package.json'), JSON.stringify({ type: 'module' }));
}

function listFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

/**
 * The run's build, made once per vitest process before its files: inside the repository's node_modules, where the
 * built modules find the packages they import.
 */
export default async function setup() {
  const cache = path.join(ROOT, 'node_modules/.cache');
  fs.mkdirSync(cache, { recursive: true });
  const outDir = fs.mkdtempSync(path.join(cache, 'aisa-test-server-'));
  await buildServer(outDir);
  process.env[SERVER_BUILD_ENV] = outDir;
  return () => fs.rmSync(outDir, { recursive: true, force: true });
}
