// One Vite config for the three bundles and the unit tests:
//   default mode: the renderer (React) into dist/renderer/
//   --mode main:   Electron's main process into dist/electron/main.js (ESM, dependencies external), with
//                  the import's writer and the export's reader threads beside it
//   --mode preload: the sandboxed preload into dist/electron/preload.cjs (one CommonJS file)
import { tierFiles, tieredFiles } from './test/tiers.ts';
import LongFilesFirst from './test/support/long-files-first.ts';
import { builtinModules } from 'node:module';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { metaContentSecurityPolicy } from './electron/common/content-security-policy.ts';
import { quietExperimentalWarnings, testCompileCache } from './test/support/test-compile-cache.ts';

const nodeExternals = ['electron', ...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

export default defineConfig(({ mode }) => {
  if (mode === 'main') {
    return {
      build: {
        ssr: true,
        outDir: 'dist/electron',
        emptyOutDir: false,
        target: 'node24',
        rollupOptions: {
          // The import's writer, the export's reader and the verdict cache's writer are files of their own,
          // which main starts as workers.
          input: {
            main: 'electron/main.ts',
            'import-writer-worker': 'electron/core/jobs/import/import-writer-worker.ts',
            'verdict-reader-worker': 'electron/core/jobs/export/verdict-reader-worker.ts',
            'cache-writer-worker': 'electron/core/cache/cache-writer-worker.ts',
            'search-index-worker': 'electron/core/jobs/views/search-index-worker.ts',
            'bounce-parse-worker': 'electron/core/outcomes/bounce-parse-worker.ts',
          },
          external: nodeExternals,
          // Everything in one folder, so a module finds the worker's file beside it wherever rollup put it.
          output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
        },
      },
    };
  }
  if (mode === 'preload') {
    return {
      build: {
        outDir: 'dist/electron',
        emptyOutDir: false,
        target: 'node24',
        minify: false,
        lib: { entry: 'electron/preload.ts', formats: ['cjs'], fileName: () => 'preload.cjs' },
        rollupOptions: { external: ['electron'] },
      },
    };
  }
  if (mode === 'test') {
    quietExperimentalWarnings();
    return {
      test: {
        environment: 'node',
        testTimeout: 20_000,
        // The `sift` processes and threads tests start share one compiled-module cache.
        env: { NODE_COMPILE_CACHE: testCompileCache },
        // Two files at a time on two cores for the named tiers, whose tests start servers and wait on them;
        // `npm test`'s fast tier runs three (package.json's test:unit): its files wait on sockets and child
        // processes a fifth of the time, which a third worker fills.
        maxWorkers: 2,
        // Every temporary file of the run under a folder of its own, one per test file, removed (temp-root.ts).
        globalSetup: ['test/support/temp-root.ts', 'test/support/warm-compile-cache.ts'],
        // Every skip named at the end, with why; an unexpected one fails CI (skip-reporter.ts).
        reporters: ['default', './test/support/skip-reporter.ts'],
        setupFiles: ['test/support/temp-per-file.ts'],
        // What waits longest starts first, also in a fresh clone (tiers.ts's `startFirst`).
        sequence: { sequencer: LongFilesFirst },
        projects: [
          {
            // `npm test`'s fast tier: everything not in a tier of its own (test/tiers.ts).
            extends: true,
            test: {
              name: 'sqlite',
              include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
              exclude: [...tieredFiles],
              // The files of a worker share one process, one after another, instead of a process each: a
              // third less CPU, which is what bounds the fast tier on two cores. Each still gets its own
              // temporary folder (temp-per-file.ts); the shell's tests mock `electron`, which no other
              // file imports.
              isolate: false,
            },
          },
          ...(['mail-servers', 'binary', 'data-folders', 'app-window', 'timing', 'list-servers'] as const).map(
            (tier) => ({
              extends: true,
              test: { name: tier, include: tierFiles[tier].filter((file) => file.endsWith('.test.ts')) },
            }),
          ),
          {
            // `npm run test:postgres`: the service's whole suite again, on a PostgreSQL server the run starts.
            extends: true,
            test: {
              name: 'postgres',
              include: ['test/integration/core/service/**/*.test.ts', ...tierFiles.postgres],
              env: { SIFT_TEST_DATABASE: 'postgres' },
              globalSetup: ['test/support/temp-root.ts', 'test/support/postgres-global-setup.ts'],
            },
          },
          {
            // `npm run test:soak`: the kill-and-resume runs and the big workbook at their full sizes, and the
            // downloads built and installed.
            extends: true,
            test: {
              name: 'soak',
              include: [...tierFiles.soak],
              // Twenty kills, of a list twice as long as npm test's; a workbook of a million rows.
              env: { SIFT_SOAK_KILLS: '20', SIFT_SOAK_KILL_ROWS: '200000', SIFT_SOAK_WORKBOOK_ROWS: '1000000' },
              testTimeout: 1_800_000,
            },
          },
          {
            // The soak's runs on PostgreSQL: a worker killed with the default leases (15 s) is taken over in time.
            extends: true,
            test: {
              name: 'soak-postgres',
              include: ['test/integration/core/service/worker-takeover.test.ts'],
              env: { SIFT_TEST_DATABASE: 'postgres', SIFT_SOAK_DEFAULT_LEASES: '1' },
              globalSetup: ['test/support/temp-root.ts', 'test/support/postgres-global-setup.ts'],
              testTimeout: 600_000,
            },
          },
        ],
      },
    };
  }
  return {
    root: 'renderer',
    base: './',
    publicDir: '../assets',
    plugins: [
      react(),
      // The page's CSP <meta> comes from the one policy main serves in its headers.
      { name: 'sift-csp', transformIndexHtml: (html: string) => html.replace('%SIFT_CSP%', metaContentSecurityPolicy) },
    ],
    build: { outDir: '../dist/renderer', emptyOutDir: true, target: 'es2023' },
  };
});
