// `sift outcomes`: what happened after a send. `read NAME` reads a bounce mailbox connected with `sift
// connect imap` (only what is new since the last read), `import FILE` a bounce or suppression export, and
// with no verb the accuracy ledger: of the addresses Sift checked, how many bounced since. `list`, `show`,
// `undo` and `forget` let a person look at each outcome, open the message it came from and undo a wrong one;
// `share` trades outcomes with the team's service (outcomes-share.ts).
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { withoutControls } from '../common/terminal-text.ts';
import {
  exportOutcomes,
  forgetSource,
  importOutcomeFile,
  MailboxError,
  openOutcomeStore,
  readToolBounces,
  undoOutcome,
  type OutcomeStore,
} from '../core/outcomes/index.ts';
import { toolNames } from '../core/connectors/connector.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';
import { connectionsOf, connectorExit } from './connect-command.ts';
import { mailboxesOf } from './connect-mailbox.ts';
import { privateDataDir } from './data-folder.ts';
import { shareAgainIfAsked, shareOutcomes } from './outcomes-share.ts';
import { showLedger, showListOutcomes } from './outcomes-ledger.ts';
import { count, counted, day } from './cli-format.ts';

/** The status, then the server's words (or Sift's reason): the status once, where the words say it already. */
function statusAndWords(outcome: { status?: string | null; words?: string | null; reason: string }): string {
  const words = outcome.words ?? outcome.reason;
  return outcome.status && !words.includes(outcome.status) ? `${outcome.status} ${words}` : words;
}

export const outcomesUsage = `sift outcomes [--list ID] [--json]                    the accuracy ledger (of one list, with --list): what happened to what Sift checked
       sift outcomes read NAME [--since YYYY-MM-DD]          a bounce mailbox (sift connect imap), what is new since the last read
       sift outcomes read NAME LIST                          a connected tool's list (Mailchimp, HubSpot, Mailman 3)
       sift outcomes import FILE [--kind hard|soft] [--name NAME]   a bounce or suppression export (CSV, TSV, workbook)
       sift outcomes list [--kind hard|soft|refused] [--search TEXT] [--json]
       sift outcomes export FILE                             every outcome into a CSV, with what Sift had said before
       sift outcomes show ID | undo ID | forget NAME
       sift outcomes share [--base-url URL]                  with the team's service: yours sent, teammates' read`;

/** The outcome store for the time `use` takes, awaited when it is async. */
function withStore<T>(dataDir: string, use: (store: OutcomeStore) => T): T;
function withStore<T>(dataDir: string, use: (store: OutcomeStore) => Promise<T>): Promise<T>;
function withStore<T>(dataDir: string, use: (store: OutcomeStore) => T | Promise<T>): T | Promise<T> {
  const store = openOutcomeStore(dataDir);
  let result: T | Promise<T>;
  try {
    result = use(store);
  } catch (error) {
    store.close();
    throw error;
  }
  if (!(result instanceof Promise)) {
    store.close();
    return result;
  }
  return result.finally(() => store.close());
}

/** What changes the outcomes here: shared again after it, where this folder has shared before. */
const changesOutcomes = new Set(['read', 'import', 'undo', 'forget']);

const options = {
  json: { type: 'boolean', default: false },
  since: { type: 'string' },
  kind: { type: 'string' },
  name: { type: 'string' },
  search: { type: 'string', default: '' },
  'base-url': { type: 'string' },
  list: { type: 'string' },
} as const;
type Parsed = ReturnType<typeof parseArgs<{ options: typeof options; allowPositionals: true }>>;

export async function runOutcomes(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs({ args: argv, allowPositionals: true, options });
  const dataDir = privateDataDir(io);
  const code = await runVerb(parsed, dataDir, io);
  // Quiet, and nothing asked of any service, without one and its key at hand.
  if (code === exitCodes.done && changesOutcomes.has(String(parsed.positionals[0])))
    await shareAgainIfAsked(dataDir, parsed.values['base-url'], io);
  return code;
}

async function runVerb({ values, positionals }: Parsed, dataDir: string, io: CliIo): Promise<number> {
  const [verb, ...rest] = positionals;
  const usage = () => new CliExit(exitCodes.usage, `Usage: ${outcomesUsage}`);
  if (verb === undefined)
    return values.list ? showListOutcomes(dataDir, values.list, values.json, io) : showLedger(dataDir, values.json, io);
  if (verb === 'share' && rest.length === 0) return shareOutcomes(dataDir, values['base-url'], io);
  if (verb === 'read') {
    if (rest.length === 2) return readTool(dataDir, rest[0]!, rest[1]!, io);
    if (rest.length !== 1) throw usage();
    return readNamed(dataDir, rest[0]!, values.since, io);
  }
  if (verb === 'import') {
    if (rest.length !== 1) throw usage();
    if (values.kind !== undefined && values.kind !== 'hard' && values.kind !== 'soft')
      throw new CliExit(exitCodes.usage, '--kind is hard or soft: what every row of the file is.');
    const path = resolve(rest[0]!);
    const name = values.name ?? `file:${basename(path)}`;
    const read = await withStore(dataDir, async (store) => {
      return importOutcomeFile(dataDir, store, name, path, basename(path), {
        ...(values.kind ? { kind: values.kind as 'hard' | 'soft' } : {}),
      });
    });
    io.out(
      `${basename(path)}: ${counted(read.rows, 'row')}: ${counted(read.hard, 'hard bounce')} (${count(read.suppressed)} new on the do-not-mail list), ` +
        `${count(read.soft)} soft, ${count(read.sender)} that blamed the sender, ${count(read.other)} not ${read.other === 1 ? 'a bounce' : 'bounces'}.\n` +
        (read.datedBy === 'file' ? 'The file has no date column: its bounces are dated by the file itself.\n' : '') +
        (read.refused > 0
          ? `Left out ${counted(read.refused, 'row')}:\n${read.examples.map((line) => `  ${withoutControls(line)}\n`).join('')}`
          : ''),
    );
    return exitCodes.done;
  }
  if (verb === 'export') {
    if (rest.length !== 1) throw usage();
    const path = resolve(rest[0]!);
    const written = await withStore(dataDir, (store) => exportOutcomes(store, path));
    io.out(`${counted(written, 'outcome')} written to ${path}.\n`);
    return exitCodes.done;
  }
  if (verb === 'list') {
    if (rest.length !== 0) throw usage();
    const kind = values.kind as 'hard' | 'soft' | 'refused' | undefined;
    if (kind !== undefined && !['hard', 'soft', 'refused'].includes(kind))
      throw new CliExit(exitCodes.usage, '--kind is hard, soft or refused.');
    // A page at a time, newest first: a mailbox's outcomes are never all held at once.
    withStore(dataDir, (store) => {
      const pageSize = 10_000;
      let written = 0;
      if (values.json) io.out('[');
      for (let before: number | undefined; ;) {
        const rows = store.page({
          search: values.search,
          ...(kind ? { kind } : {}),
          limit: pageSize,
          ...(before ? { before } : {}),
        });
        for (const row of rows)
          io.out(
            values.json
              ? `${written++ > 0 ? ',' : ''}\n  ${JSON.stringify(row)}`
              : `${String(row.id).padStart(6)}  ${day(row.at)}  ${row.kind.padEnd(7)} ${row.address}  ${withoutControls(statusAndWords(row)).slice(0, 120)}` +
                  `${row.undoneAt ? '  (undone)' : ''}  [${withoutControls(row.source)}]\n`,
          );
        if (rows.length < pageSize) break;
        before = rows.at(-1)!.id;
      }
      if (values.json) io.out(written > 0 ? '\n]\n' : ']\n');
    });
    return exitCodes.done;
  }
  if (verb === 'show' || verb === 'undo') {
    const id = Number(rest[0]);
    if (rest.length !== 1 || !Number.isInteger(id) || id <= 0) throw usage();
    return withStore(dataDir, (store) => {
      if (verb === 'undo') {
        const undone = undoOutcome(dataDir, store, id);
        if (!undone)
          throw new CliExit(exitCodes.usage, `No standing outcome ${id}: \`sift outcomes list\` shows them.`);
        io.out(
          `Undone: ${undone.address}'s ${undone.kind} bounce of ${day(undone.at)}${undone.kind === 'hard' ? '; it will be checked again' : ''}.\n`,
        );
        return exitCodes.done;
      }
      const outcome = store.outcome(id);
      if (!outcome) throw new CliExit(exitCodes.usage, `No outcome ${id}: \`sift outcomes list\` shows them.`);
      const message = outcome.message === null ? undefined : store.messageOf(outcome.message);
      io.out(
        `${outcome.address}: ${outcome.kind} bounce on ${day(outcome.at)} from ${withoutControls(outcome.source)}\n` +
          `  ${withoutControls(statusAndWords(outcome))}\n` +
          (outcome.checkedResult
            ? `  Sift had said: ${outcome.checkedResult} on ${day(outcome.checkedAt!)}\n`
            : '  Sift had not checked it.\n') +
          (message
            ? `\n${withoutControls(Buffer.from(message).toString('utf8').replace(/\r\n/g, '\n')).replace(/\t/g, '  ')}\n`
            : ''),
      );
      return exitCodes.done;
    });
  }
  if (verb === 'forget') {
    if (rest.length !== 1) throw usage();
    const name = rest[0]!;
    return withStore(dataDir, (store) => {
      const forgot = forgetSource(dataDir, store, name);
      if (!forgot) throw new CliExit(exitCodes.usage, `No outcomes from "${name}".`);
      io.out(
        `Forgot every outcome from "${name}", and ${count(forgot.unsuppressed)} do-not-mail entries its bounces had made.\n`,
      );
      return exitCodes.done;
    });
  }
  throw usage();
}

async function readNamed(dataDir: string, name: string, since: string | undefined, io: CliIo): Promise<number> {
  const sinceDate = since === undefined ? undefined : new Date(`${since}T00:00:00Z`);
  if (sinceDate && Number.isNaN(sinceDate.getTime()))
    throw new CliExit(exitCodes.usage, '--since takes a day: 2026-03-01.');
  const mailboxes = mailboxesOf(dataDir);
  const mailbox = mailboxes.get(name);
  if (!mailbox)
    throw new CliExit(
      exitCodes.usage,
      connectionsOf(dataDir).get(name)
        ? `"${name}" is a mailing tool's connection: name its list too (sift outcomes read ${name} LIST).`
        : `No bounce mailbox named "${name}": \`sift connect imap --name ${name} --host … --user …\` connects one.`,
    );
  try {
    const read = await mailboxes.read(name, {
      ...(sinceDate ? { since: sinceDate } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      onProgress: (progress) => {
        if (io.interactive)
          io.err(
            `\r${count(progress.read)} of ${count(progress.total)} messages read, ${count(progress.bounces)} bounces`,
          );
      },
    });
    if (io.interactive) io.err('\n');
    io.out(
      `${name}: ${counted(read.read, 'new message')}: ${counted(read.bounces, 'bounce')} (${count(read.hard)} hard, ${count(read.soft)} soft, ` +
        `${count(read.refused)} that say nothing of the mailbox), moved to "${mailbox.handledFolder}"; ` +
        `${count(read.others)} that ${read.others === 1 ? 'is not a bounce' : 'are not bounces'}, left where ${read.others === 1 ? 'it is' : 'they are'}.\n` +
        `${counted(read.suppressed, 'address is', 'addresses are')} new on the do-not-mail list.\n` +
        (read.tooLarge > 0
          ? `${counted(read.tooLarge, 'message', 'messages')} larger than a bounce ${read.tooLarge === 1 ? 'was' : 'were'} passed over, not fetched.\n`
          : '') +
        (read.restarted
          ? 'The folder was renumbered (a new UIDVALIDITY): it was read again from the start; nothing was kept twice.\n'
          : ''),
    );
    return exitCodes.done;
  } catch (error) {
    if (error instanceof MailboxError)
      throw new CliExit(
        error.kind === 'authentication' ? exitCodes.authentication : exitCodes.service,
        `${error.message} What was read before is kept: run it again to go on.`,
      );
    throw error;
  }
}

async function readTool(dataDir: string, name: string, list: string, io: CliIo): Promise<number> {
  const connections = connectionsOf(dataDir);
  if (!connections.get(name))
    throw new CliExit(exitCodes.usage, `No connection named "${name}": \`sift connections\` lists them.`);
  const connector = connections.open(name);
  if (!connector.bounces)
    throw new CliExit(exitCodes.usage, `Sift does not read bounces back from ${toolNames[connector.kind]} yet.`);
  try {
    const read = await readToolBounces(dataDir, name, list, connector, {
      ...(io.signal ? { signal: io.signal } : {}),
      onPage: (progress) => {
        if (io.interactive) io.err(`\r${count(progress.pages)} pages read, ${count(progress.hard)} hard bounces`);
      },
    });
    if (io.interactive) io.err('\n');
    io.out(
      `${name}:${list}: ${counted(read.hard, 'new hard bounce')}, ${count(read.soft)} soft` +
        (read.refused > 0 ? `, ${count(read.refused)} not about the mailbox` : '') +
        (read.sends > 0 ? `, ${counted(read.sends, 'send')}` : '') +
        `; ${counted(read.suppressed, 'address is', 'addresses are')} new on the do-not-mail list.\n`,
    );
    return exitCodes.done;
  } catch (error) {
    throw connectorExit(error);
  }
}
