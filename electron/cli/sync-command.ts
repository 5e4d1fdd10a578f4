// `sift sync NAME LIST`: a connected tool's list read (only its members), cleaned as `sift clean` cleans a
// file (same flags, same files, same cache and cost), and the changes its verdicts call for planned and
// said. With --write-back, and only with live verdicts, the plan is written to the tool, each change once;
// a sync stopped anywhere goes on from there when run again (sync-store.ts).
import { mkdir, open } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { demoVerdictsNote } from '../common/demo-verdicts.ts';
import { toolNames, type Connector, type MemberChange } from '../core/connectors/connector.ts';
import { openSyncStore, type SyncRecord, type SyncStore } from '../core/connectors/sync-store.ts';
import { planChanges, readMembers, writeChanges } from '../core/connectors/sync-run.ts';
import { csvLineWriter } from '../core/lists/csv-writer.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';
import { runClean } from './clean-command.ts';
import { connectionsOf, connectorExit } from './connect-command.ts';
import { privateDataDir } from './data-folder.ts';

export const syncUsage = `sift sync NAME LIST [--write-back] [--restart] [--out DIR] [--keep …] [--remove …] [--base-url URL] | sift sync --due`;

export const syncDetails = `Reads LIST's members from the connection NAME (as \`sift audiences NAME\` names the list), cleans them as
sift clean does (--keep, --remove and --base-url as there; the files in --out, else the sync's folder in the
data folder), and says what the verdicts call for: Mailchimp, one sift tag per member (sift-valid, …);
HubSpot, Sift's own properties (sift_result, sift_checked_at); Mailman, invalid members' delivery turned off.
Nothing is written to the tool without --write-back, and demo verdicts never are. A sync stopped part way goes on from
there when run again; a plan not written waits for --write-back, or --restart reads the list again.`;

/** sift clean's flags a sync passes on (and a schedule keeps), as `--flag value` pairs. */
export function cleanFlagsOf(values: Partial<Record<'keep' | 'remove' | 'base-url', string>>): string[] {
  return (['keep', 'remove', 'base-url'] as const).flatMap((flag) =>
    values[flag] === undefined ? [] : [`--${flag}`, values[flag]!],
  );
}

export async function runSync(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'write-back': { type: 'boolean', default: false },
      restart: { type: 'boolean', default: false },
      out: { type: 'string' },
      keep: { type: 'string' },
      remove: { type: 'string' },
      'base-url': { type: 'string' },
      due: { type: 'boolean', default: false },
    },
  });
  if (values.due) {
    if (positionals.length > 0) throw new CliExit(exitCodes.usage, '--due runs every due schedule: give no list.');
    return (await import('./schedule-command.ts')).runDue(io);
  }
  if (positionals.length !== 2) throw new CliExit(exitCodes.usage, `Usage: ${syncUsage}\n${syncDetails}`);
  const [name, audience] = positionals as [string, string];
  const dataDir = privateDataDir(io);
  const connector = connectionsOf(dataDir).open(name);
  const store = openSyncStore(dataDir);
  try {
    let sync = store.unfinished(name, audience);
    if (sync && values.restart) {
      store.finish(sync.id);
      sync = undefined;
    }
    if (sync) io.err(`Going on with the sync of ${audience} started ${new Date(sync.startedAt).toISOString()}.\n`);
    sync ??= store.start(name, audience, Date.now());
    const folder = join(dataDir, 'connectors', `sync-${sync.id}`);
    await mkdir(folder, { recursive: true, mode: 0o700 });
    // The list's id as the stem of the sync's files: the members, what clean writes, the refusals.
    const stem = audience.replace(/[^A-Za-z0-9._-]/g, '_');
    const membersFile = join(folder, `${stem}.csv`);
    const outDir = values.out === undefined ? folder : resolve(io.env.INIT_CWD ?? process.cwd(), values.out);

    sync = await readMembers(
      store,
      connector,
      sync,
      membersFile,
      (count) => io.interactive && io.err(`\rRead ${count} members…`),
      io.signal,
    ).catch((error: unknown) => {
      throw goOnLater(error);
    });
    io.err(`${io.interactive ? '\r\x1b[K' : ''}Read ${sync.members} members of ${audience}.\n`);
    if (sync.members === 0) {
      store.finish(sync.id);
      io.out(`${audience} has no members Sift would check: nothing is cleaned or written.\n`);
      return exitCodes.done;
    }
    const cleaned = await cleanMembers(membersFile, outDir, cleanFlagsOf(values), io);
    if (sync.phase === 'cleaning') {
      store.cleaned(sync.id, cleaned.job);
      const { alreadyDone } = await planChanges(store, connector, sync, cleaned.annotated);
      sync = { ...sync, phase: 'planned' };
      if (alreadyDone > 0)
        io.out(
          `${alreadyDone} ${alreadyDone === 1 ? 'member has' : 'members have'} what the verdict calls for from an earlier sync: left as ${alreadyDone === 1 ? 'it is' : 'they are'}.\n`,
        );
    }
    const planned = store.counts(sync.id).reduce((sum, each) => sum + each.count, 0);
    io.out(`Plan: ${describePlan(store, sync, connector)}\n`);
    if (cleaned.demo) {
      io.out(`Nothing is written to ${toolNames[connector.kind]}: these are demo verdicts. ${demoVerdictsNote}\n`);
      store.finish(sync.id);
      return exitCodes.done;
    }
    if (!values['write-back']) {
      if (planned > 0)
        io.out('Nothing is written yet: run the same command with --write-back to make these changes.\n');
      else store.finish(sync.id);
      return exitCodes.done;
    }
    await writeChanges(
      store,
      connector,
      sync,
      (count) => io.interactive && io.err(`\rWrote ${count} of ${planned} changes…`),
      io.signal,
    ).catch((error: unknown) => {
      throw goOnLater(error);
    });
    store.finish(sync.id);
    return await sayOutcome(store, sync, join(outDir, `${stem}.refused.csv`), io);
  } finally {
    store.close();
  }
}

/** A tool's failure mid-sync: what was read and written is kept, and the same command goes on from there. */
function goOnLater(error: unknown): unknown {
  const exit = connectorExit(error);
  if (exit instanceof CliExit && exit.code === exitCodes.service)
    exit.message += ' Nothing is lost: run the same command again to go on where it stopped.';
  return exit;
}

/** The members file cleaned by `sift clean` itself: its summary and files printed as it prints them. */
async function cleanMembers(
  membersFile: string,
  outDir: string,
  passed: readonly string[],
  io: CliIo,
): Promise<{ job: string; annotated: string; demo: boolean }> {
  let said = '';
  const code = await runClean([membersFile, '--column', 'email', '--out', outDir, '--json', ...passed], {
    ...io,
    out: (text) => void (said += text),
  });
  if (code !== exitCodes.done) throw new CliExit(code, 'The members were not cleaned: nothing is planned or written.');
  const report = JSON.parse(said) as {
    job: string;
    annotated: string;
    demo?: boolean;
    summary: Record<string, number>;
  };
  const { summary } = report;
  io.out(
    `Cleaned: ${summary.valid ?? 0} valid, ${summary.invalid ?? 0} invalid, ${summary.catch_all ?? 0} catch-all, ${summary.unknown ?? 0} unknown.\n`,
  );
  return { job: report.job, annotated: report.annotated, demo: report.demo === true };
}

function describePlan(store: SyncStore, sync: SyncRecord, connector: Connector): string {
  const counts = store.counts(sync.id);
  if (counts.length === 0) return 'no member needs a change; nothing is written.';
  const byChange = new Map<string, number>();
  for (const each of counts) byChange.set(each.change, (byChange.get(each.change) ?? 0) + each.count);
  return [...byChange]
    .map(
      ([change, count]) =>
        `${count} ${count === 1 ? 'member' : 'members'}: ${connector.describe(change as MemberChange)}`,
    )
    .join('; ')
    .concat('. Nothing else changes: no member is removed or unsubscribed.');
}

/** What was written and what the tool refused; the refusals, with the tool's words, in a CSV at `path`. */
async function sayOutcome(store: SyncStore, sync: SyncRecord, path: string, io: CliIo): Promise<number> {
  const counts = store.counts(sync.id);
  const done = counts.filter((each) => each.state === 'done').reduce((sum, each) => sum + each.count, 0);
  const refused = counts.filter((each) => each.state === 'refused').reduce((sum, each) => sum + each.count, 0);
  io.out(`Written: ${done} ${done === 1 ? 'change' : 'changes'}.\n`);
  if (refused === 0) return exitCodes.done;
  const lineOf = csvLineWriter(',');
  // A page at a time: a list the tool refused wholesale is never held in memory.
  const file = await open(path, 'w', 0o600);
  try {
    await file.write(`${lineOf(['email', 'member_id', 'change', 'refused_with'])}\n`);
    for (let after = 0; ;) {
      const page = store.refused(sync.id, after, 500);
      if (page.length === 0) break;
      await file.write(
        page.map((each) => `${lineOf([each.email, each.memberId, each.change, each.words])}\n`).join(''),
      );
      after = page.at(-1)!.row;
    }
  } finally {
    await file.close();
  }
  io.out(`Refused by the tool: ${refused} (with its words: ${path}). The next sync tries them again.\n`);
  return exitCodes.service;
}
