import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/** The PGlite template, the media cache and the server's JavaScript build, made once per run for the server specs and the journeys alike. */
const NODE_GLOBAL_SETUP = ['tests/support/pglite-global.ts', 'tests/support/media-global.ts', 'tests/support/server-build.ts'];

/**
 * A project run in node (the server specs, the journeys): its files, its own global set-up before the shared one,
 * and its limits.
 */
function nodeProject(name: string, groupOrder: number, include: string, globalSetup: string, limits: { testTimeout: number; hookTimeout: number; maxWorkers: number }): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name,
      sequence: { groupOrder },
      include: [include],
      environment: 'node',
      setupFiles: ['tests/support/temp-cleanup.ts'],
      // The files of a worker share one module graph: the server, its engines and their models (and for the journeys
      // playwright) load once per worker, not once per file (1.5 s of CPU a server spec). Files share no state but what
      // they make and close themselves.
      isolate: false,
      globalSetup: [globalSetup, ...NODE_GLOBAL_SETUP],
      ...limits,
    },
  };
}

/**
 * Three projects, all run by `npm test`:
 * unit (src/**: contract, envelope, core services; happy-dom), server (real HTTP against PGlite and a
 * real PostgreSQL), e2e (the built product in Debian's Chromium).
 */
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['src/**/*.spec.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['tests/support/unit-setup.ts'],
          // The unit specs share one module graph instead of each importing React, Blueprint and the contract again
          // in a fresh environment: 10 s instead of 50 s, the same tests (the React host of tests/support/react-host.ts unmounts and removes itself after each test).
          isolate: false,
        },
      },
      nodeProject('server', 1, 'server/**/*.spec.ts', 'tests/support/postgres-global.ts', {
        testTimeout: 60_000,
        hookTimeout: 120_000,
        // Each file starts its own servers and databases; the crash-recovery specs mostly wait, so a third file runs beside them.
        maxWorkers: 3,
      }),
      nodeProject('e2e', 2, 'tests/e2e/**/*.e2e.ts', 'tests/support/build-global.ts', {
        testTimeout: 90_000,
        hookTimeout: 180_000,
        // Each journey file has its own server, data directory and browser (one browser server shared by all
        // journeys, tried in session 10, made every journey about 1.8 times slower and a download time out), and waits
        // on its page and its server's jobs about half its time: two run at once. Three were tried (fresh clone,
        // 2 cores): every journey ran 2.5–3.5 times slower beside the server specs, and the lane took 1,369 s, not 1,040.
        maxWorkers: 2,
      }),
    ],
  },
});
