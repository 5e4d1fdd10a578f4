// The data folder a command uses, opened as store-versions.ts does: refused untouched when a newer Sift
// wrote it, else made private and each older store copied before its migration, said once.
import { defaultDataDir } from '../core/app-paths.ts';
import { appStoreFiles } from '../core/app/data-stores.ts';
import { appVersion } from '../core/own-files.ts';
import { NewerDataError, openDataFolder } from '../core/storage/store-versions.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';

export function privateDataDir(io: Pick<CliIo, 'env' | 'err'>): string {
  try {
    return openDataFolder(defaultDataDir(io.env), appStoreFiles, appVersion(), (line) => io.err(`sift: ${line}\n`));
  } catch (error) {
    if (error instanceof NewerDataError) throw new CliExit(exitCodes.newerData, error.message);
    throw error;
  }
}
