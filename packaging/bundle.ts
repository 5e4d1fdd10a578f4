// One CommonJS bundle of the CLI, the service and the web host (sift.cjs), and one per thread they start
// (threads/<name>.cjs): what the single executable runs. Node's single-executable support runs a CommonJS
// script whose require() finds only Node's own modules, so every package is taken into the bundle.
import { builtinModules } from 'node:module';
import { join, relative, sep } from 'node:path';
import { rolldown, type Plugin } from 'rolldown';

/** The threads Sift starts, by the module name own-files.ts's startThread is given. */
export const threadEntries = {
  'import-writer-worker': 'electron/core/jobs/import/import-writer-worker.ts',
  'verdict-reader-worker': 'electron/core/jobs/export/verdict-reader-worker.ts',
  'cache-writer-worker': 'electron/core/cache/cache-writer-worker.ts',
  'embedded-service-worker': 'electron/core/service/embedded-service-worker.ts',
};

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`), /^node:/];

/**
 * `createRequire(import.meta.url)` in a module becomes the bundle's own require, so the packages it loads
 * (lazy-package.ts names each one literally) are taken in; and `import.meta.main` is false (the bundle's
 * entry calls what it runs).
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

export type BundleResult = {
  /** Every file written, by its name under the output folder. */
  files: string[];
  /** The packages in node_modules whose code the bundles hold (for their licences). */
  packages: string[];
};

export async function bundleSift(root: string, outDir: string): Promise<BundleResult> {
  const packages = new Set<string>();
  const files: string[] = [];
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
      // pg's native binding is optional and never used: pg loads it only when asked for `pg.native`.
      ...{ resolve: { conditionNames: ['node', 'require', 'default'] } },
      logLevel: 'warn',
    });
    const { output } = await build.write({
      file: join(outDir, `${name}.cjs`),
      format: 'cjs',
      codeSplitting: false,
      minify: false,
      sourcemap: false,
    });
    for (const chunk of output) {
      if (chunk.type !== 'chunk') continue;
      for (const id of chunk.moduleIds) {
        const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(relative(root, id));
        if (match) packages.add(match[1]!.split(sep).join('/'));
      }
    }
    await build.close();
    files.push(`${name}.cjs`);
  }
  return { files, packages: [...packages].sort() };
}
