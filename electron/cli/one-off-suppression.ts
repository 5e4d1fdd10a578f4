// `sift clean --suppress FILE`: a do-not-mail list for this clean only, beside the stored one (`sift
// suppress`). Read whole before anything is sent: a file that cannot be read stops the clean.
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { readSuppressionFile, suppressionSource, type SuppressionEntry } from '../core/suppression/index.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';

export async function oneOffSuppression(dataDir: string, files: readonly string[], cwd: string, io: CliIo) {
  const entries: SuppressionEntry[] = [];
  for (const file of files) {
    const path = resolve(cwd, file);
    if (!(await stat(path).catch(() => null))?.isFile())
      throw new CliExit(exitCodes.usage, `No such file: ${file} (--suppress).`);
    const read = await readSuppressionFile(path, basename(path), (batch) => entries.push(...batch));
    if (read.refused > 0)
      io.err(
        `${basename(path)}: left out ${read.refused.toLocaleString('en')} lines that are neither an address nor a domain.\n`,
      );
  }
  return suppressionSource(dataDir, entries);
}
