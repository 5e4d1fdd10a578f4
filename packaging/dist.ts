// `npm run dist`: Sift as downloads, into dist/downloads/: one archive per computer with the single
// executable `sift`, a server package (.deb) for each Linux architecture, and SHA256SUMS over them all.
//   --targets linux-x64,win-x64   only these (all four by default)
//   --no-deb                      no server packages
// The built renderer (npm run build:renderer) must be there first; `npm run dist` builds it.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { publicKeyText, releaseFiles, signSums } from '../electron/core/updates/release-files.ts';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { downloadName, writeArchive, writeChecksums } from './archives.ts';
import { bundleSift } from './bundle.ts';
import { buildDeb } from './deb.ts';
import { firstStartText } from './first-start.ts';
import { licencesText } from './licences.ts';
import { nodeBinaryFor } from './node-binaries.ts';
import { buildExecutable } from './single-executable.ts';
import { buildInfo } from '../electron/core/own-files.ts';
import { hostTarget, nodeVersion, targetById, targets, type Target } from './targets.ts';

export type DistOptions = {
  root: string;
  targets: readonly Target[];
  debs: boolean;
  report?: (line: string) => void;
  /** Where the downloads go (dist/downloads), the build's own files (dist/sea), and the built renderer (dist/renderer). */
  outDir?: string;
  workDir?: string;
  rendererDir?: string;
  /** The Ed25519 private key (PEM) that signs SHA256SUMS; without one the downloads are unsigned. */
  signingKey?: string | null;
};

/** What changed in this version: its part of CHANGES.md (up to the next version's heading), or a line. */
function changesText(root: string, version: string): string {
  const path = join(root, 'CHANGES.md');
  const all = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const start = all.search(new RegExp(`^## ${version.replaceAll('.', '\\.')}\\b`, 'm'));
  if (start < 0) return `Sift ${version}\n`;
  const rest = all.slice(start);
  const next = rest.slice(3).search(/^## /m);
  return `${(next < 0 ? rest : rest.slice(0, next + 3)).trim()}\n`;
}

export type DistResult = { outDir: string; archives: string[]; debs: string[] };

export async function buildDownloads(options: DistOptions): Promise<DistResult> {
  const { root } = options;
  const report = options.report ?? (() => {});
  const host = hostTarget();
  if (!host)
    throw new Error(
      `Sift's downloads are built on ${targets.map((t) => t.id).join(', ')}, not ${process.platform}-${process.arch}.`,
    );
  const rendererDir = options.rendererDir ?? join(root, 'dist', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html')))
    throw new Error('The renderer is not built: run `npm run build:renderer` first.');
  const work = options.workDir ?? join(root, 'dist', 'sea');
  const outDir = options.outDir ?? join(root, 'dist', 'downloads');
  rmSync(work, { recursive: true, force: true });
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  mkdirSync(outDir, { recursive: true });

  // SIFT_SIGNING_KEY: the Ed25519 private key (a PEM file) that signs SHA256SUMS; its public half goes into
  // every file, which then takes only updates it signed. Without one the files say they are unsigned.
  const signingKey = options.signingKey ?? null;
  const build = { ...buildInfo(), updateKey: signingKey ? publicKeyText(signingKey) : null };
  report(
    `Sift ${build.version} (${build.commit}) on Node ${nodeVersion}${signingKey ? '' : ', unsigned (no SIFT_SIGNING_KEY)'}`,
  );
  const bundleDir = join(work, 'bundle');
  await bundleSift(root, bundleDir);
  const hostNode = nodeBinaryFor(root, host);
  if (!hostNode.licence) throw new Error(`Node's package for ${host.id} came without its LICENSE.`);
  const licences = licencesText(root, nodeVersion, hostNode.licence);
  const archives: string[] = [];
  const debs: string[] = [];
  for (const target of options.targets) {
    const node = nodeBinaryFor(root, target);
    mkdirSync(join(work, target.id), { recursive: true });
    const executable = join(work, target.id, target.executable);
    await buildExecutable(
      target,
      {
        bundleDir,
        rendererDir,
        build,
        targetNode: node.binary,
        hostNode: hostNode.binary,
        codeCache: target.id === host.id,
        workDir: work,
      },
      executable,
    );
    const folder = downloadName(build.version, target);
    archives.push(
      await writeArchive(
        target,
        folder,
        [
          { name: target.executable, path: executable, executable: true },
          { name: 'FIRST-START.txt', text: firstStartText(target, build) },
          { name: 'LICENSES.txt', text: licences },
        ],
        outDir,
      ),
    );
    report(`  ${target.id}: ${folder}.${target.archive}`);
    if (options.debs && target.debArch) {
      debs.push(
        await buildDeb({ root, target, executable, build, licences, workDir: join(work, `deb-${target.id}`), outDir }),
      );
      report(`  ${target.id}: ${debs.at(-1)!.slice(outDir.length + 1)}`);
    }
  }
  const changes = join(outDir, releaseFiles.changes);
  writeFileSync(changes, changesText(root, build.version));
  const sums = await writeChecksums(outDir, [...archives, ...debs, changes]);
  if (signingKey) writeFileSync(join(outDir, releaseFiles.signature), `${signSums(readFileSync(sums), signingKey)}\n`);
  return { outDir, archives, debs };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { targets: { type: 'string' }, 'no-deb': { type: 'boolean', default: false } },
  });
  const root = fileURLToPath(new URL('../', import.meta.url));
  const chosen = values.targets ? values.targets.split(',').map((id) => targetById(id.trim())) : targets;
  try {
    const result = await buildDownloads({
      root,
      targets: chosen,
      debs: !values['no-deb'],
      signingKey: process.env.SIFT_SIGNING_KEY ? readFileSync(process.env.SIFT_SIGNING_KEY, 'utf8') : null,
      report: (line) => console.log(line),
    });
    console.log(
      `Written to ${result.outDir}, with SHA256SUMS${process.env.SIFT_SIGNING_KEY ? ' and its signature' : ' (unsigned)'}.`,
    );
  } catch (error) {
    console.error(`npm run dist: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
