// One CommonJS bundle of the CLI, the service and the web host (sift.cjs), and one per thread they start
// (threads/<name>.cjs): what the single executable runs. Node's single-executable support runs a CommonJS
// script whose require() finds only Node's own modules, so every package is taken into the bundle.
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { rolldown, type Plugin } from 'rolldown';

/** The threads Sift starts, by the module name own-files.ts's startThread is given. */
export const threadEntries = {
  'import-writer-worker': 'electron/core/jobs/import/import-writer-worker.ts',
  'verdict-reader-worker': 'electron/core/jobs/export/verdict-reader-worker.ts',
  'cache-writer-worker': 'electron/core/cache/cache-writer-worker.ts',
  'search-index-worker': 'electron/core/jobs/views/search-index-worker.ts',
  'bounce-parse-worker': 'electron/core/outcomes/bounce-parse-worker.ts',
  'embedded-service-worker': 'electron/core/service/embedded-service-worker.ts',
};

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`), /^node:/];

/**
 * `createRequire(import.meta.url)` in a module becomes the bundle's own require, so the packages it loads
 * (each named in a literal `require(…)`, as every caller of lazyPackage does) are taken in; and
 * `import.meta.main` is false (the bundle's entry calls what it runs).
 */
const bundleRequire: Plugin = {
  name: 'sift-bundle-require',
  transform: {
    filter: { id: /electron[\\/].*\.ts$/ },
    handler(code) {
      const replaced = code
        .replace(/const require = createRequire\(import\.meta\.url\);/, '')
        .replace(/import\.meta\.main/g, 'false');
      return replaced === code ? null : { code: replaced };
    },
  },
};

/** Writes sift.cjs and threads/<name>.cjs into `outDir`. */
export async function bundleSift(root: string, outDir: string): Promise<void> {
  const entries: [string, string][] = [
    ['sift', 'packaging/sea-main.ts'],
    ...Object.entries(threadEntries).map(([name, entry]): [string, string] => [`threads/${name}`, entry]),
  ];
  for (const [name, entry] of entries) {
    const build = await rolldown({
      input: join(root, entry),
      platform: 'node',
      external: nodeBuiltins,
      plugins: [bundleRequire],
      // Packages resolved as Node's require() finds them: the bundle is a CommonJS script.
      resolve: { conditionNames: ['node', 'require', 'default'] },
      logLevel: 'warn',
    });
    await build.write({
      file: join(outDir, `${name}.cjs`),
      format: 'cjs',
      codeSplitting: false,
      minify: false,
      sourcemap: false,
    });
    await build.close();
  }
}
