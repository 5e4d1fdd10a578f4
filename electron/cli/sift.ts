#!/usr/bin/env node
// The `sift` command line.
import { runServiceCommand, UsageError } from './service-command.ts';

const usage = `Usage: sift service [...]   (sift service --help for more)`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'service') {
      if (rest.includes('--help')) throw new UsageError((await import('./service-command.ts')).serviceUsage);
      await runServiceCommand(rest, (line) => console.log(line));
      return 0;
    }
    throw new UsageError(usage);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(error instanceof Error ? error.message : String(error));
      return 2;
    }
    console.error(`sift: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

if (import.meta.main) {
  // A running service keeps the process alive after main() returns; everything else ends with this code.
  process.exitCode = await main(process.argv.slice(2));
}
