// A target's download: one archive (.tar.gz, or .zip for Windows) of a folder holding the executable,
// FIRST-START.txt and LICENSES.txt; and SHA256SUMS beside all of them, in `sha256sum -c`'s own format.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import archiver from 'archiver';
import type { Target } from './targets.ts';

export type ArchiveEntry = { name: string; path?: string; text?: string; executable?: boolean };

/** `sift-<version>-<target>`: the archive's name without its ending, and the folder inside it. */
export const downloadName = (version: string, target: Target) => `sift-${version}-${target.id}`;

export async function writeArchive(target: Target, folderName: string, entries: ArchiveEntry[], outDir: string) {
  const file = join(outDir, `${folderName}.${target.archive}`);
  const archive =
    target.archive === 'zip'
      ? archiver('zip', { zlib: { level: 9 } })
      : archiver('tar', { gzip: true, gzipOptions: { level: 9 } });
  const written = new Promise<void>((resolve, reject) => {
    const out = createWriteStream(file);
    out.once('close', () => resolve());
    out.once('error', reject);
    archive.once('error', reject);
    archive.pipe(out);
  });
  // A fixed date, so the same inputs make the same archive.
  const date = new Date('2026-01-01T00:00:00Z');
  for (const entry of entries) {
    const data = { name: `${folderName}/${entry.name}`, mode: entry.executable ? 0o755 : 0o644, date };
    if (entry.path) archive.file(entry.path, data);
    else archive.append(entry.text ?? '', data);
  }
  await archive.finalize();
  await written;
  return file;
}

function sha256Of(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .once('end', () => resolve(hash.digest('hex')))
      .once('error', reject);
  });
}

/** SHA256SUMS in the folder of `files` (all in one folder): `<hash>  <name>`, one a line. */
export async function writeChecksums(outDir: string, files: string[]): Promise<string> {
  const lines = [];
  for (const file of [...files].sort()) lines.push(`${await sha256Of(file)}  ${basename(file)}`);
  const path = join(outDir, 'SHA256SUMS');
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}
