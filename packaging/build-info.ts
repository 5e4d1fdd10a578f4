// What a build says of itself (`sift --version`): the version in package.json and the commit it was built
// from, marked `-modified` when the working tree had changes not committed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildInfo } from '../electron/core/own-files.ts';

const git = (root: string, args: string[]) =>
  execFileSync('git', args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
    .toString()
    .trim();

export function buildInfoOf(root: string): BuildInfo {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  let commit = 'unknown';
  try {
    commit = git(root, ['rev-parse', '--short=12', 'HEAD']);
    if (git(root, ['status', '--porcelain', '--untracked-files=no']) !== '') commit += '-modified';
  } catch {
    // Not a git checkout: the version alone.
  }
  return { version, commit };
}
