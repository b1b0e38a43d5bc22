import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import Ajv from 'ajv';
import { resolveTarget, virtualModuleSource, type ManifestFile } from './src/shell/manifest.ts';
import { BUNDLED_ICON_NAMES } from './src/shell/bundled-icons.ts';

const ROOT = path.dirname(new URL(import.meta.url).pathname);
const VIRTUAL_ID = 'virtual:workbench-plugins';

/** Bundles exactly the plugins of BUILD_TARGET (plugins.manifest.json); a plugin outside the target is not in the output. */
function workbenchPlugins(targetName: string | undefined): Plugin {
  const manifestPath = path.join(ROOT, 'plugins.manifest.json');
  return {
    name: 'workbench-plugins',
    resolveId: (id) => (id === VIRTUAL_ID ? `\0${VIRTUAL_ID}` : undefined),
    load(id) {
      if (id !== `\0${VIRTUAL_ID}`) return undefined;
      this.addWatchFile(manifestPath);
      const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as ManifestFile;
      const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'plugins.manifest.schema.json'), 'utf8'));
      const validate = new Ajv({ allErrors: true }).compile(schema);
      if (!validate(manifest)) throw new Error(`plugins.manifest.json: ${JSON.stringify(validate.errors)}`);
      const target = resolveTarget(manifest, targetName || undefined);
      return virtualModuleSource(target, (entry) => path.join(ROOT, entry));
    },
  };
}

/**
 * zod builds fast object parsers with `new Function` once it has probed that eval is allowed; the app's
 * Content-Security-Policy (script-src 'self') forbids eval, and the probe alone reports a violation on every page.
 * zod reads its global config when its core module loads, before any schema is built (a z.config() in our code would
 * run after the contract's schemas, bundled in the same chunk), so the browser build sets `jitless` there.
 */
function zodWithoutEval(): Plugin {
  return {
    name: 'zod-without-eval',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/.test(id)) return undefined;
      return { code: `(globalThis.__zod_globalConfig ??= {}).jitless = true;\n${code}`, map: null };
    },
  };
}

const ICON_PATHS = /[\\/]@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]generated[\\/](16|20)px[\\/]paths[\\/]([a-z0-9-]+)\.js$/;

/** Not icons: the folder's index (all of them), and the icons the app bundles (they stay in its entry). */
const NOT_GROUPED = new Set<string>(['index', ...BUNDLED_ICON_NAMES]);

/** The chunk of an icon's paths: `icons16-ad`…, or null to leave the module where it is. */
function iconGroup(id: string): string | null {
  const [, size, name] = ICON_PATHS.exec(id) ?? [];
  if (!size || !name || NOT_GROUPED.has(name)) return null;
  return `icons${size}-${name.slice(0, 2)}`;
}

/**
 * The brotli and gzip twins of the text assets, made once at build time; the server sends the one the browser accepts.
 * A release build makes the smallest (brotli 11, gzip 9: 17 of a build's 27 CPU-s); BUILD_COMPRESSION=fast makes quick
 * ones of the same content, about a fifth larger (the test runs build the app twice and serve it on loopback).
 */
function compressedTwins(): Plugin {
  const fast = process.env.BUILD_COMPRESSION === 'fast';
  return compression({
    threshold: 1024,
    logLevel: 'silent',
    algorithms: [
      defineAlgorithm('brotliCompress', { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: fast ? 4 : zlib.constants.BROTLI_MAX_QUALITY } }),
      defineAlgorithm('gzip', { level: fast ? 1 : zlib.constants.Z_BEST_COMPRESSION }),
    ],
  });
}

export default defineConfig(({ mode }) => ({
  plugins: [react(), zodWithoutEval(), workbenchPlugins(process.env.BUILD_TARGET), compressedTwins()],
  // Blueprint's development-only checks read a bundler-defined `NODE_ENV` (not process.env.NODE_ENV): left undefined,
  // a release build ran them all, and every <Popover> printed its React 19 warning to the user's console when it
  // mounted (six on /works, about 90 ms of a page load's CPU with a debugger attached). `vite` (development) keeps them.
  define: { NODE_ENV: JSON.stringify(mode) },
  build: {
    outDir: process.env.BUILD_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Blueprint's icons load on first use (src/shell/icons.ts); one chunk per icon and size made 1,500 chunks,
          // most of the build's files. Grouped by size and first two letters: 270 chunks of at most 4 KB gzip (by first
          // letter alone, /home after logging in moved 53 KB more of icons it does not draw; by two, 19 KB).
          groups: [{ name: iconGroup, test: ICON_PATHS }],
        },
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/storage': 'http://127.0.0.1:8080' } },
}));
