// One `sift` file for one target: Node's binary with the bundle and its assets injected as a
// single-executable blob (Node's --experimental-sea-config, then postject).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { inject } from 'postject';
import { seaAssetNames, type BuildInfo } from '../electron/core/own-files.ts';
import { threadEntries } from './bundle.ts';
import type { Target } from './targets.ts';

/** The fuse Node's binary carries for a blob: the one Node documents for its single executables. */
const seaFuse = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(join(folder, name)).isFile())
    .map((name) => name.split(sep).join('/'))
    .sort();
}

export type ExecutableInputs = {
  /** The bundle's folder (sift.cjs, threads/). */
  bundleDir: string;
  /** The built renderer (dist/renderer). */
  rendererDir: string;
  build: BuildInfo;
  /** Node's binary for the target; and one this machine runs, of the same version, to make the blob. */
  targetNode: string;
  hostNode: string;
  /** Compile the main script ahead into the blob: only where the target is this machine's own kind. */
  codeCache: boolean;
  workDir: string;
};

export async function buildExecutable(target: Target, inputs: ExecutableInputs, output: string): Promise<void> {
  const renderer = filesUnder(inputs.rendererDir);
  const infoPath = join(inputs.workDir, 'build-info.json');
  const listingPath = join(inputs.workDir, 'renderer-files.json');
  writeFileSync(infoPath, JSON.stringify(inputs.build));
  writeFileSync(listingPath, JSON.stringify(renderer));
  const assets: Record<string, string> = {
    [seaAssetNames.buildInfo]: infoPath,
    [seaAssetNames.rendererFiles]: listingPath,
    ...Object.fromEntries(
      Object.keys(threadEntries).map((name) => [
        seaAssetNames.thread(name),
        join(inputs.bundleDir, 'threads', `${name}.cjs`),
      ]),
    ),
    ...Object.fromEntries(renderer.map((path) => [seaAssetNames.renderer(path), join(inputs.rendererDir, path)])),
  };
  const blob = join(inputs.workDir, `${target.id}.blob`);
  const config = join(inputs.workDir, `${target.id}.sea-config.json`);
  writeFileSync(
    config,
    JSON.stringify({
      main: join(inputs.bundleDir, 'sift.cjs'),
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: inputs.codeCache,
      useSnapshot: false,
      // As `npm run sift` runs it (sift.ts's first line): a small young generation keeps a large list's memory low.
      execArgv: ['--disable-warning=ExperimentalWarning', '--max-semi-space-size=16'],
      assets,
    }),
  );
  execFileSync(inputs.hostNode, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  copyFileSync(inputs.targetNode, output);
  chmodSync(output, 0o755);
  // postject's LIEF warns of ELF note sections it does not name, and that Windows' signature no longer
  // matches (the README says so of the Windows file); the blob goes in whole.
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!/Can't find string offset for section name|The signature seems corrupted/.test(String(args[0]))) warn(...args);
  };
  try {
    await inject(output, 'NODE_SEA_BLOB', readFileSync(blob), {
      sentinelFuse: seaFuse,
      ...(target.macho ? { machoSegmentName: 'NODE_SEA' } : {}),
    });
  } finally {
    console.warn = warn;
  }
}
