// The data folder a command uses, made private first (0700, whatever was open tightened and said once).
import { defaultDataDir } from '../core/app-paths.ts';
import { makePrivateFolder } from '../core/storage/private-folder.ts';
import type { CliIo } from './cli-io.ts';

export function privateDataDir(io: Pick<CliIo, 'env' | 'err'>): string {
  return makePrivateFolder(defaultDataDir(io.env), (line) => io.err(`sift: ${line}\n`));
}
