// `npm run dist`: Sift as downloads, into dist/downloads/: one archive per computer with the single
// executable `sift`, a server package (.deb) for each Linux architecture, and SHA256SUMS over them all.
//   --targets linux-x64,win-x64   only these (all four by default)
//   --no-deb                      no server packages
// The built renderer (npm run build:renderer) must be there first; `npm run dist` builds it.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
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
};

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

  const build = buildInfo();
  report(`Sift ${build.version} (${build.commit}) on Node ${nodeVersion}`);
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
  await writeChecksums(outDir, [...archives, ...debs]);
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
      report: (line) => console.log(line),
    });
    console.log(`Written to ${result.outDir}, with SHA256SUMS.`);
  } catch (error) {
    console.error(`npm run dist: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
