#!/usr/bin/env -S node --disable-warning=ExperimentalWarning --max-semi-space-size=16
// The `sift` command line: clean, verify, cache, suppress, service, and with no command (or `app`) the
// app itself in the default browser. Each command's modules load when it runs: a clean need not wait for
// the service's dashboard to load.
import { keepCompiledModules } from '../core/app/compile-cache.ts';
import { keepHeapNearLive } from '../core/app/heap-tuning.ts';
import type { CliIo } from './cli-io.ts';
import { maskUrlCredentials } from '../common/url-credentials.ts';
import { withoutControls } from '../common/terminal-text.ts';
import { keepNewFilesPrivate } from '../core/storage/private-folder.ts';

/**
 * An error as the terminal gets it: a URL's credentials masked, and no escape sequence or control character
 * (an error quotes files, servers and tools: text from outside).
 */
const said = (message: string) => withoutControls(maskUrlCredentials(message));

export async function main(argv: string[], io: CliIo): Promise<number> {
  keepHeapNearLive();
  // Loaded here, not above: the compiled-module cache is on by then (below), and they bring much of the core.
  const [{ CliExit, exitCodes, exitFor }, { UsageError }] = await Promise.all([
    import('./cli-io.ts'),
    import('./cli-options.ts'),
  ]);
  const [command, ...rest] = argv;
  // The command an option mistake or a help request is about (`sift --port x` is the app's).
  const about = command === undefined || command.startsWith('-') ? 'app' : command;
  try {
    const help = await import('./command-help.ts');
    if (command === 'help' || command === '--help' || command === '-h') {
      const asked = command !== 'help' ? undefined : rest[0] === '--help' || rest[0] === '-h' ? 'help' : rest[0];
      if (asked === undefined) {
        io.out(help.overview());
        return 0;
      }
      const text = await help.helpFor(asked);
      if (text === undefined) throw new UsageError(`sift help: no command "${asked}".\n\n${help.overview()}`);
      io.out(text);
      return 0;
    }
    if (
      help.commandNames.includes(about) &&
      (rest.includes('--help') || rest.includes('-h') || argv.includes('--help'))
    ) {
      io.out((await help.helpFor(about))!);
      return 0;
    }
    if (command === '--version' || command === '-v') {
      const { buildInfo } = await import('../core/own-files.ts');
      const { version, commit } = buildInfo();
      io.out(`sift ${version} (${commit})\n`);
      return 0;
    }
    // `sift`, `sift app …`, or the app's own flags alone (`sift --port 8080`).
    if (command === undefined || command === 'app' || command.startsWith('--')) {
      const { runWebHost, WebHostStartError } = await import('./web-host-main.ts');
      try {
        await runWebHost(command === 'app' ? rest : argv, { openBrowser: true, quittable: true });
      } catch (error) {
        if (error instanceof WebHostStartError) throw new CliExit(exitCodes.usage, error.message);
        throw error;
      }
      return 0;
    }
    if (command === 'clean') return await (await import('./clean-command.ts')).runClean(rest, io);
    if (command === 'verify') return await (await import('./verify-command.ts')).runVerify(rest, io);
    if (command === 'cache') return await (await import('./cache-command.ts')).runCache(rest, io);
    if (command === 'suppress') return await (await import('./suppress-command.ts')).runSuppress(rest, io);
    if (command === 'rules') return await (await import('./rules-command.ts')).runRules(rest, io);
    if (command === 'update') return await (await import('./update-command.ts')).runUpdate(rest, io);
    if (command === 'connect') return await (await import('./connect-command.ts')).runConnect(rest, io);
    if (command === 'connections') return await (await import('./connect-command.ts')).runConnections(rest, io);
    if (command === 'audiences') return await (await import('./connect-command.ts')).runAudiences(rest, io);
    if (command === 'sync' && rest.includes('--due')) {
      // Every due schedule runs `sift sync` in turn: that command is schedule-command.ts's, not sync's own.
      if (rest.length > 1) throw new UsageError('sift sync --due runs every due schedule: give no list.');
      return await (await import('./schedule-command.ts')).runDue(io);
    }
    if (command === 'sync') return await (await import('./sync-command.ts')).runSync(rest, io);
    if (command === 'outcomes') return await (await import('./outcomes-command.ts')).runOutcomes(rest, io);
    if (command === 'schedule') return await (await import('./schedule-command.ts')).runSchedule(rest, io);
    if (command === 'service') {
      const { runServiceCommand } = await import('./service-command.ts');
      await runServiceCommand(rest, (line) => io.out(`${line}\n`));
      return 0;
    }
    throw new UsageError(`sift: no command "${command}".\n\n${help.overview()}`);
  } catch (error) {
    if (error instanceof CliExit) {
      if (error.message && error.code !== 130) io.err(`sift: ${said(error.message)}\n`);
      return error.code;
    }
    const mistake = (await import('./command-help.ts')).optionMistake(error, about);
    if (error instanceof UsageError || mistake !== undefined) {
      io.err(`${said(mistake ?? (error instanceof Error ? error.message : String(error)))}\n`);
      return 2;
    }
    io.err(`sift: ${said(error instanceof Error ? error.message : String(error))}\n`);
    // A data folder a newer Sift wrote (store-versions.ts), from any command: left as it is.
    if (error instanceof Error && error.name === 'NewerDataError') return exitCodes.newerData;
    // An unusable file or entry (AppError) is unusable input, as README's exit codes say: 2 (6 unwritable).
    const { AppError } = await import('../common/app-error.ts');
    return error instanceof AppError ? exitFor(error).code : 1;
  }
}

/** Runs `sift` as this process: its arguments, its streams, Ctrl-C, its exit code. */
export async function runSiftProcess(argv: string[]): Promise<void> {
  // Before a command's modules load: they, and its threads' modules, come from the cache once compiled.
  keepCompiledModules();
  keepNewFilesPrivate();
  const controller = new AbortController();
  // Ctrl-C stops at a safe point and leaves the job resumable; a second Ctrl-C ends at once.
  process.once('SIGINT', () => {
    controller.abort();
    process.once('SIGINT', () => process.exit(130));
  });
  const io: CliIo = {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    interactive: process.stderr.isTTY === true,
    env: process.env,
    signal: controller.signal,
  };
  // A running service keeps the process alive after main() returns; everything else ends with this code.
  process.exitCode = await main(argv, io);
}

if (import.meta.main) await runSiftProcess(process.argv.slice(2));
