// `sift suppress add|list|remove|clear`: the do-not-mail list the app and `sift clean` share
// (core/suppression/), from a terminal. `add` takes addresses, domains and files of them (CSV, TSV, TXT).
import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { privateDataDir } from './data-folder.ts';
import {
  isRefused,
  openSuppressionStore,
  parseSuppressionEntry,
  readSuppressionFile,
  type RefusedEntry,
  type SuppressionEntry,
  type SuppressionStore,
} from '../core/suppression/index.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';
import { count, day } from './cli-format.ts';

export const suppressUsage =
  'sift suppress add <address|domain|file>... | list [--search TEXT] [--json] | remove <address|domain>... | clear --yes';

const isFile = async (path: string) => (await stat(path).catch(() => null))?.isFile() === true;

/** Reads a file of entries into the store in batches; answers what it read. */
export async function addSuppressionFile(store: SuppressionStore, path: string) {
  let added = 0;
  const read = await readSuppressionFile(path, basename(path), (batch) => {
    added += store.add(batch, basename(path));
  });
  return { ...read, added };
}

function describeRefused(refused: number, examples: readonly RefusedEntry[]): string {
  if (refused === 0) return '';
  const shown = examples.map((example) => `  "${example.entry}": ${example.reason}\n`).join('');
  const lines = refused === 1 ? 'line that is' : 'lines that are';
  return `Left out ${count(refused)} ${lines} neither an address nor a domain:\n${shown}`;
}

async function add(store: SuppressionStore, args: readonly string[], io: CliIo, cwd: string): Promise<void> {
  const byHand: SuppressionEntry[] = [];
  const refused: RefusedEntry[] = [];
  for (const arg of args) {
    const path = resolve(cwd, arg);
    if (await isFile(path)) {
      const read = await addSuppressionFile(store, path);
      io.out(
        `${basename(path)}: ${count(read.added)} added, ${count(read.entries - read.added)} already listed.\n` +
          describeRefused(read.refused, read.refusedExamples),
      );
      continue;
    }
    const parsed = parseSuppressionEntry(arg);
    if (isRefused(parsed)) refused.push(parsed);
    else byHand.push(parsed);
  }
  if (byHand.length > 0) {
    const added = store.add(byHand, 'by hand');
    io.out(`${count(added)} added, ${count(byHand.length - added)} already listed.\n`);
  }
  if (refused.length > 0) {
    io.err(describeRefused(refused.length, refused));
    throw new CliExit(exitCodes.usage, 'Give addresses, domains (example.com) or files of them.');
  }
}

function list(store: SuppressionStore, search: string, json: boolean, io: CliIo): void {
  const pageSize = 10_000;
  const counts = store.counts();
  if (json) io.out('[');
  let written = 0;
  for (let offset = 0; ; offset += pageSize) {
    const { entries } = store.page({ search, offset, limit: pageSize });
    for (const entry of entries) {
      io.out(
        json
          ? `${written > 0 ? ',' : ''}\n  ${JSON.stringify(entry)}`
          : `${entry.value}\t${entry.kind}\t${day(entry.addedAt)}\t${entry.source}\n`,
      );
      written += 1;
    }
    if (entries.length < pageSize) break;
  }
  if (json) io.out(`${written > 0 ? '\n' : ''}]\n`);
  else
    io.err(
      `${count(written)} shown; the list holds ${count(counts.address)} address${counts.address === 1 ? '' : 'es'} ` +
        `and ${count(counts.domain)} domain${counts.domain === 1 ? '' : 's'}.\n`,
    );
}

export async function runSuppress(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      search: { type: 'string', default: '' },
      json: { type: 'boolean', default: false },
      yes: { type: 'boolean', default: false },
    },
  });
  const [action, ...args] = positionals;
  const usage = new CliExit(exitCodes.usage, `Usage: ${suppressUsage}`);
  if (action === undefined) throw usage;
  if ((action === 'add' || action === 'remove') && args.length === 0) throw usage;
  if ((action === 'list' || action === 'clear') && args.length > 0) throw usage;
  if (action === 'clear' && !values.yes)
    throw new CliExit(exitCodes.usage, 'This forgets the whole do-not-mail list: run `sift suppress clear --yes`.');
  if (!['add', 'list', 'remove', 'clear'].includes(action)) throw usage;
  const store = openSuppressionStore(privateDataDir(io));
  try {
    if (action === 'add') await add(store, args, io, io.env.INIT_CWD ?? process.cwd());
    else if (action === 'list') list(store, values.search, values.json, io);
    else if (action === 'remove') {
      const values = args.map((arg) => {
        const parsed = parseSuppressionEntry(arg);
        return isRefused(parsed) ? arg.trim().toLowerCase() : parsed.value;
      });
      const removed = store.remove(values);
      const absent = values.length - removed;
      const notListed = absent > 0 ? `; ${count(absent)} ${absent === 1 ? 'was' : 'were'} not listed` : '';
      io.out(`${count(removed)} removed${notListed}.\n`);
    } else io.out(`Forgot ${count(store.clear())} entries: nothing is suppressed now.\n`);
    return exitCodes.done;
  } finally {
    store.close();
  }
}
