// Where Sift's own files come from: the one module that knows how this process was started. From the
// TypeScript source (the CLI, `npm run web`, tests), each thread's module is the .ts file beside the module
// that starts it; from the Electron build (dist/electron), the .js file beside the bundle; from the single
// executable (packaging/), the threads' code, the built renderer and the build's version are assets inside
// the binary. Nothing else in the app asks which of these it is.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { defaultCacheDir } from './app-paths.ts';

type Sea = typeof import('node:sea');
/** Node's single-executable API where this Node has it (Electron's may not). */
const sea = process.getBuiltinModule?.('node:sea') as Sea | undefined;

/** True inside the single executable `npm run dist` builds. */
const inSingleExecutable: boolean = sea?.isSea() === true;

/** The single executable's assets: what packaging/ embeds, by these names. */
export const seaAssetNames = {
  buildInfo: 'build-info.json',
  rendererFiles: 'renderer-files.json',
  thread: (name: string) => `threads/${name}.cjs`,
  renderer: (path: string) => `renderer/${path}`,
};

const seaText = (name: string): string => sea!.getAsset(name, 'utf8');

/**
 * Starts the thread whose module is `name` (`import-writer-worker`, say), a file beside `from` (the
 * starting module's import.meta.url): its source, its built file, or the executable's copy of it.
 */
export function startThread(from: string, name: string, options: WorkerOptions): Worker {
  if (inSingleExecutable) return new Worker(seaText(seaAssetNames.thread(name)), { ...options, eval: true });
  return new Worker(new URL(`./${name}${from.endsWith('.ts') ? '.ts' : '.js'}`, from), options);
}

export type BuildInfo = {
  version: string;
  commit: string;
  /** The public key this build trusts for updates (base64 SPKI), when `npm run dist` was given one. */
  updateKey?: string | null;
};

/**
 * What `sift update` replaces and whose signature it trusts: in the single executable, the file itself
 * and the key built into it. From source there is no such file: a test names one (SIFT_UPDATE_EXECUTABLE,
 * SIFT_UPDATE_PUBLIC_KEY), which the single executable never reads.
 */
export function updatableFile(env: NodeJS.ProcessEnv = process.env): { path?: string; publicKey?: string } {
  if (inSingleExecutable) {
    const key = buildInfo().updateKey;
    return { path: process.execPath, ...(key ? { publicKey: key } : {}) };
  }
  return {
    ...(env.SIFT_UPDATE_EXECUTABLE ? { path: env.SIFT_UPDATE_EXECUTABLE } : {}),
    ...(env.SIFT_UPDATE_PUBLIC_KEY ? { publicKey: env.SIFT_UPDATE_PUBLIC_KEY } : {}),
  };
}

/** The repository's root, where Sift runs from its source. */
const sourceRoot = () => fileURLToPath(new URL('../../', import.meta.url));

let buildInfoRead: BuildInfo | undefined;

/** The version alone (package.json's, or the build's): what the app shows, with no look at git. */
export function appVersion(): string {
  if (inSingleExecutable) return buildInfo().version;
  return (JSON.parse(readFileSync(join(sourceRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * The version, and the commit it was built from: the checkout's where Sift runs from source, marked
 * `-modified` when its working tree has changes not committed (so a build from such a tree says so too).
 */
export function buildInfo(): BuildInfo {
  if (buildInfoRead) return buildInfoRead;
  if (inSingleExecutable) return (buildInfoRead = JSON.parse(seaText(seaAssetNames.buildInfo)) as BuildInfo);
  const git = (args: string[]) =>
    execFileSync('git', args, { cwd: sourceRoot(), stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  let commit = 'unknown';
  try {
    commit = git(['rev-parse', '--short=12', 'HEAD']) || commit;
    if (git(['status', '--porcelain', '--untracked-files=no']) !== '') commit += '-modified';
  } catch {
    // Not a checkout (a copied folder): the version alone says what it is.
  }
  return (buildInfoRead = { version: appVersion(), commit });
}

/**
 * The folder of the built renderer the web host serves. From source, `dist/renderer` (built by
 * `npm run build:renderer`); in the single executable, its embedded copy, written once per build to this
 * user's cache folder (its name carries the files' hash, so an upgrade never serves an older page), or to
 * a temporary folder when the cache folder cannot be written.
 */
export function rendererDir(env: NodeJS.ProcessEnv = process.env): string {
  if (!inSingleExecutable) return join(sourceRoot(), 'dist', 'renderer');
  const listing = seaText(seaAssetNames.rendererFiles);
  const paths = JSON.parse(listing) as string[];
  const hash = createHash('sha256').update(listing).update(JSON.stringify(buildInfo())).digest('hex').slice(0, 16);
  const write = (parent: string) => {
    const folder = join(parent, `renderer-${hash}`);
    if (existsSync(join(folder, 'index.html'))) return folder;
    const staging = `${folder}.${process.pid}.partial`;
    rmSync(staging, { recursive: true, force: true });
    for (const path of paths) {
      const target = join(staging, path);
      mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
      writeFileSync(target, new Uint8Array(sea!.getRawAsset(seaAssetNames.renderer(path))));
    }
    try {
      renameSync(staging, folder);
    } catch (error) {
      // Another Sift wrote the same files first: theirs are these.
      rmSync(staging, { recursive: true, force: true });
      if (!existsSync(join(folder, 'index.html'))) throw error;
    }
    return folder;
  };
  try {
    return write(join(defaultCacheDir(env), 'app'));
  } catch {
    // A folder of this run's own (never a shared name another user could have made first).
    return write(mkdtempSync(join(tmpdir(), 'sift-app-')));
  }
}
