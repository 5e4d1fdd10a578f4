// The single executable for this machine (linux-x64), built as `npm run dist` builds it, once for each
// content of what goes into it: vitest's and Playwright's tests start the same file, and a run with
// nothing changed reuses it (a build takes about half a minute).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDownloads } from '../../packaging/dist.ts';
import { targetById } from '../../packaging/targets.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const cacheRoot = join(root, 'node_modules', '.cache', 'sift-test-binary');
const inputs = [
  'electron',
  'renderer',
  'packaging',
  'assets',
  'package-lock.json',
  'vite.config.ts',
  'CHANGES.md',
  'test/fixtures/update-signing',
];

export type BuiltSift = { executable: string; outDir: string; archive: string; checksums: string };

/** A hash of every file (tracked, or new and not ignored) the binary is built from. */
function inputsHash(): string {
  const listed = (args: string[]) =>
    execFileSync('git', ['ls-files', ...args, '--', ...inputs], { cwd: root }).toString();
  const files = [
    ...new Set(`${listed([])}${listed(['--others', '--exclude-standard'])}`.split('\n').filter(Boolean)),
  ].sort();
  const hash = createHash('sha256');
  for (const file of files) {
    if (!existsSync(join(root, file))) continue;
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(root, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const found = (folder: string): BuiltSift => ({
  executable: join(folder, 'work', 'linux-x64', 'sift'),
  outDir: join(folder, 'downloads'),
  archive: join(
    folder,
    'downloads',
    readdirSync(join(folder, 'downloads')).find((name) => name.endsWith('.tar.gz'))!,
  ),
  checksums: join(folder, 'downloads', 'SHA256SUMS'),
});

export const testSigningKeyPath = join(root, 'test', 'fixtures', 'update-signing', 'test-key.pem');

export async function builtSift(): Promise<BuiltSift> {
  const folder = join(cacheRoot, inputsHash());
  if (existsSync(join(folder, 'downloads', 'SHA256SUMS'))) return found(folder);
  // Older builds go: each is about 220 MB.
  rmSync(cacheRoot, { recursive: true, force: true });
  const staging = `${folder}.partial-${process.pid}`;
  mkdirSync(staging, { recursive: true });
  const rendererDir = join(staging, 'renderer');
  execFileSync(
    join(root, 'node_modules', '.bin', 'vite'),
    ['build', '--logLevel', 'error', '--outDir', rendererDir, '--emptyOutDir'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  await buildDownloads({
    root,
    targets: [targetById('linux-x64')],
    debs: false,
    rendererDir,
    outDir: join(staging, 'downloads'),
    workDir: join(staging, 'work'),
    // The tests' own key (test/fixtures/update-signing): the file trusts updates signed with it.
    signingKey: readFileSync(testSigningKeyPath, 'utf8'),
  });
  renameSync(staging, folder);
  return found(folder);
}
