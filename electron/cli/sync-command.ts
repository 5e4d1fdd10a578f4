// `sift sync NAME LIST`: a connected tool's list read (only its members), cleaned as `sift clean` cleans a
// file (same flags, same files, same cache and cost), and the changes its verdicts call for planned and
// said. With --write-back, and only with live verdicts, the plan is written to the tool, each change once;
// a sync stopped anywhere goes on from there when run again (sync-store.ts).
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { demoVerdictsNote } from '../common/demo-verdicts.ts';
import {
  readChoiceKey,
  toolNames,
  writtenResults,
  type Connector,
  type PlanChoices,
} from '../core/connectors/connector.ts';
import { openSyncStore, type SyncRecord, type SyncStore } from '../core/connectors/sync-store.ts';
import { syncFiles } from '../core/connectors/sync-run.ts';
import {
  checkPlanChoices,
  planStep,
  readStep,
  SyncStepRefusal,
  unfinishedSync,
  writeStep,
  type SyncContext,
} from '../core/connectors/sync-steps.ts';
import { readOutcomesFirst } from './sync-outcomes.ts';
import { shareAgainIfAsked } from './outcomes-share.ts';
import { describePlan, outcomeCounts, writeRefusals } from '../core/connectors/sync-outcome.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';
import { parseKeep, runClean } from './clean-command.ts';
import { connectionsOf, connectorExit } from './connect-command.ts';
import { privateDataDir } from './data-folder.ts';
import { planChoiceExit, planChoiceOptions, planChoicesOf } from './plan-choice-flags.ts';
import { readChoiceOf, readChoiceOptions } from './read-choice-flags.ts';
import { readChoiceWords } from '../common/connector-schemas.ts';

export const syncUsage = `sift sync NAME LIST [--plan | --write-back] [--archive-invalid | --unsubscribe-invalid | --list-invalid] [--merge-fields] [--include pending,transactional] [--segment ID] [--restart] [--out DIR] [--keep …] [--remove …] [--base-url URL] | sift sync --due`;

export const syncDetails = `Reads LIST's members from the connection NAME (as \`sift audiences NAME\` names the list), cleans them as
sift clean does (--keep, --remove and --base-url as there; the files in --out, else the sync's folder in the
data folder), and says what the verdicts call for: Mailchimp, one sift tag per member (sift-valid, …);
HubSpot, Sift's own properties (sift_result, sift_checked_at); Mailman, invalid members' delivery turned off.
Nothing is written to the tool without --write-back, and demo verdicts never are. --plan reads the list and says what
a run would check (and what a plan waiting for --write-back would write), sending and writing nothing. A sync
stopped part way goes on from there when run again; a plan not written waits for --write-back, or --restart reads
the list again. Only when chosen, each tool's step for invalid members: --archive-invalid archives them in Mailchimp
(kept by Mailchimp, restored by re-adding; never deleted), --unsubscribe-invalid unsubscribes them from a Mailman
list, --list-invalid adds them to HubSpot's static list "Sift: invalid" (HubSpot's unsubscribe cannot be undone
by the sender, so Sift never makes it). Mailchimp only: --merge-fields writes each score and its day in the fields
SIFTSCORE and SIFTDATE (made where the audience has room; a field Sift did not make is never written);
--include pending,transactional reads those members too (never unsubscribed, cleaned or archived ones),
--segment ID only one segment's or tag's (\`sift audiences NAME LIST\` names them).`;

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
      plan: { type: 'boolean', default: false },
      ...planChoiceOptions,
      restart: { type: 'boolean', default: false },
      out: { type: 'string' },
      keep: { type: 'string' },
      remove: { type: 'string' },
      'base-url': { type: 'string' },
      ...readChoiceOptions,
      due: { type: 'boolean', default: false },
    },
  });
  // `sift sync --due` is schedule-command.ts's (sift.ts sends it there): it runs this command, never the reverse.
  if (values.due) throw new CliExit(exitCodes.usage, '--due runs every due schedule: give no list.');
  if (positionals.length !== 2) throw new CliExit(exitCodes.usage, `Usage: ${syncUsage}\n${syncDetails}`);
  if (values.plan && values['write-back']) throw new CliExit(exitCodes.usage, 'Give --plan or --write-back, not both.');
  const [name, audience] = positionals as [string, string];
  const dataDir = privateDataDir(io);
  const connector = connectionsOf(dataDir).open(name);
  const choices = planChoicesOf(connector, values);
  const readChoice = readChoiceOf(connector, values);
  const store = openSyncStore(dataDir);
  let planned = 0;
  const context: SyncContext = {
    dataDir,
    store,
    connector,
    ...(io.signal ? { signal: io.signal } : {}),
    onProgress: (step, count) =>
      io.interactive &&
      io.err(step === 'reading' ? `\rRead ${count} members…` : `\rWrote ${count} of ${planned} changes…`),
  };
  try {
    let sync = inFlagWords(connector, () => unfinishedSync(store, name, audience, readChoice, values.restart));
    if (sync) io.err(`Going on with the sync of ${audience} started ${new Date(sync.startedAt).toISOString()}.\n`);
    if (values.plan && sync?.phase === 'planned') {
      io.out(`Plan waiting for --write-back: ${describePlan(store, sync.id, connector)}\n`);
      io.out(`Nothing was sent or written (--plan).\n`);
      return exitCodes.done;
    }
    const waiting = sync;
    if (waiting?.phase === 'planned') inFlagWords(connector, () => checkPlanChoices(context, waiting, choices));
    if (!sync) {
      // A new sync: what bounced since the last one is read first (only for a list read back before), and
      // shared with the team where the service keeps a team's outcomes.
      await readOutcomesFirst(dataDir, name, audience, connector, io).catch((error: unknown) => {
        throw goOnLater(error);
      });
      await shareAgainIfAsked(dataDir, values['base-url'], io);
      sync = store.start(name, audience, Date.now(), readChoice);
    }
    const { folder, stem, members: membersFile } = syncFiles(dataDir, sync);
    const outDir = values.out === undefined ? folder : resolve(io.env.INIT_CWD ?? process.cwd(), values.out);

    sync = await readStep(context, sync).catch((error: unknown) => {
      throw goOnLater(error);
    });
    io.err(
      `${io.interactive ? '\r\x1b[K' : ''}Read ${sync.members} ${sync.members === 1 ? 'member' : 'members'} of ${audience}${readChoiceKey(readChoice) === '' ? '' : ` (${readChoiceWords(readChoice)})`}.\n`,
    );
    if (sync.phase === 'done') {
      io.out(`${audience} has no members Sift would check: nothing is cleaned or written.\n`);
      return exitCodes.done;
    }
    if (values.plan)
      return await estimateMembers(membersFile, cleanFlagsOf(values), connector, choices, [name, audience], io);
    const cleaned = await cleanMembers(membersFile, outDir, cleanFlagsOf(values), io);
    const { keepAtScore } = parseKeep(values.keep ?? 'valid');
    const plan = await planStep(context, sync, cleaned, { ...choices, keepAtScore });
    sync = plan.sync;
    if (plan.alreadyDone > 0)
      io.out(
        `${plan.alreadyDone} ${plan.alreadyDone === 1 ? 'member has' : 'members have'} what the verdict calls for from an earlier sync: left as ${plan.alreadyDone === 1 ? 'it is' : 'they are'}.\n`,
      );
    planned = store.counts(sync.id).reduce((sum, each) => sum + each.count, 0);
    io.out(`Plan: ${describePlan(store, sync.id, connector)}\n`);
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
    await writeStep(context, sync, { demo: cleaned.demo, choices }).catch((error: unknown) => {
      throw error instanceof SyncStepRefusal ? refusalExit(connector, error) : goOnLater(error);
    });
    return await sayOutcome(store, sync, join(outDir, `${stem}.refused.csv`), io);
  } finally {
    store.close();
  }
}

/** A step's refusal in the CLI's words (the flags that would go on); anything else as it came. */
function inFlagWords<T>(connector: Connector, step: () => T): T {
  try {
    return step();
  } catch (error) {
    throw refusalExit(connector, error);
  }
}

function refusalExit(connector: Connector, error: unknown): unknown {
  if (!(error instanceof SyncStepRefusal)) return error;
  const { refusal } = error;
  if (refusal.kind === 'other_read')
    return new CliExit(
      exitCodes.usage,
      `The unfinished sync of this list reads its ${readChoiceWords(refusal.reading)}: give the same flags to go on, or --restart to read ${readChoiceWords(refusal.asked)} instead.`,
    );
  if (refusal.kind === 'other_choice') return planChoiceExit(connector, refusal.choice, refusal.has);
  return new CliExit(
    exitCodes.usage,
    `Nothing is written to ${toolNames[connector.kind]}: these are demo verdicts. ${demoVerdictsNote}`,
  );
}

/** A tool's failure mid-sync: what was read and written is kept, and the same command goes on from there. */
function goOnLater(error: unknown): unknown {
  const exit = connectorExit(error);
  if (exit instanceof CliExit && exit.code === exitCodes.service)
    exit.message += ' Nothing is lost: run the same command again to go on where it stopped.';
  return exit;
}

/** `--plan`: the members read and priced as `sift clean` would, nothing sent; the job waits for the sync. */
async function estimateMembers(
  membersFile: string,
  passed: readonly string[],
  connector: Connector,
  choices: PlanChoices,
  [name, audience]: readonly [string, string],
  io: CliIo,
): Promise<number> {
  const code = await runClean([membersFile, '--column', 'email', '--resume', ...passed], io, { estimateOnly: true });
  if (code !== exitCodes.done) return code;
  const changes = writtenResults
    .flatMap((result) => connector.changesFor({ result, risky: false, scored: true, status: '' }, choices))
    .map((change) => connector.describe(change));
  io.out(
    `Nothing was sent or written (--plan). Once checked, a member gets what its verdict calls for: ${changes.join('; ')}. ` +
      `\`sift sync ${name} ${audience}\` cleans them, going on from the members read now (--restart reads the list again).\n`,
  );
  return exitCodes.done;
}

/** The members file cleaned by `sift clean` itself: its summary and files printed as it prints them. */
async function cleanMembers(
  membersFile: string,
  outDir: string,
  passed: readonly string[],
  io: CliIo,
): Promise<{ job: string; annotated: string; demo: boolean }> {
  let said = '';
  // --resume: a clean stopped part way (a kill, a --plan) goes on; nothing is sent or billed twice.
  const code = await runClean([membersFile, '--column', 'email', '--resume', '--out', outDir, '--json', ...passed], {
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

/** What was written and what the tool refused; the refusals, with the tool's words, in a CSV at `path`. */
async function sayOutcome(store: SyncStore, sync: SyncRecord, path: string, io: CliIo): Promise<number> {
  const { written, refused } = outcomeCounts(store, sync.id);
  io.out(`Written: ${written} ${written === 1 ? 'change' : 'changes'}.\n`);
  if (refused === 0) return exitCodes.done;
  await writeRefusals(store, sync.id, path);
  io.out(`Refused by the tool: ${refused} (with its words: ${path}). The next sync tries them again.\n`);
  return exitCodes.service;
}
