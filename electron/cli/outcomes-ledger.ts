// `sift outcomes [--list ID]`: the accuracy ledger, of every address Sift checked live or of one list's
// (ID as `sift clean --json` prints it, each address under the verdict the list gave it, as its results
// screen shows it): what happened to them after the check.
import { basename } from 'node:path';
import { accuracyLedger, ledgerSentence, openOutcomeStore } from '../core/outcomes/index.ts';
import { hasDemoVerdicts, openJobStore } from '../core/jobs/store/index.ts';
import { listOutcomes } from '../core/jobs/views/index.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';
import { count, day } from './cli-format.ts';

export function showListOutcomes(dataDir: string, id: string, json: boolean, io: CliIo): number {
  const store = openJobStore(dataDir);
  try {
    const job = store.getJob(id);
    if (!job) throw new CliExit(exitCodes.usage, `No list "${id}" in this data folder (sift clean --json names it).`);
    const name = basename(job.inputPath);
    const checkedOn = day(job.updatedAt);
    const outcomes = listOutcomes(store, job, dataDir);
    if (json) {
      io.out(`${JSON.stringify({ list: job.id, file: name, demo: hasDemoVerdicts(job), ...outcomes }, null, 2)}\n`);
      return exitCodes.done;
    }
    if (hasDemoVerdicts(job)) {
      io.out(
        `${name} was checked with demo verdicts (a sandbox key): they were no check, so nothing is set beside them.\n`,
      );
      return exitCodes.done;
    }
    if (outcomes.byVerdict.length === 0) {
      io.out(`No bounce of ${name}'s addresses has been read back since it was checked on ${checkedOn}.\n`);
      return exitCodes.done;
    }
    io.out(
      `${name}, checked on ${checkedOn}: ${outcomes.sentence}\n\nverdict      checked    hard    soft  blamed sender\n`,
    );
    for (const row of outcomes.byVerdict)
      io.out(
        `${row.result.padEnd(10)} ${count(row.checked).padStart(9)} ${count(row.hard).padStart(7)} ${count(row.soft).padStart(7)} ${count(row.refused).padStart(14)}\n`,
      );
    return exitCodes.done;
  } finally {
    store.close();
  }
}

export function showLedger(dataDir: string, json: boolean, io: CliIo): number {
  const store = openOutcomeStore(dataDir);
  let read;
  try {
    read = { ledger: accuracyLedger(dataDir, store), counts: store.counts(), sources: store.sources() };
  } finally {
    store.close();
  }
  const { ledger, counts, sources } = read;
  if (json) {
    io.out(
      `${JSON.stringify({ ...ledger, outcomes: Object.fromEntries(counts.map((each) => [each.kind, each.n])), sources }, null, 2)}\n`,
    );
    return exitCodes.done;
  }
  if (sources.length === 0) {
    io.out(
      'No outcomes yet: `sift outcomes read NAME` reads a bounce mailbox, `sift outcomes import FILE` a bounce export.\n',
    );
    return exitCodes.done;
  }
  io.out(`${ledgerSentence(ledger.byVerdict)}\n\n`);
  const sent = (row: { sent: number }) => (ledger.sendsKnown ? count(row.sent) : '?').padStart(9);
  if (ledger.rows.length > 0) io.out('checked on   verdict      checked      sent    hard    soft  blamed sender\n');
  for (const row of ledger.rows)
    io.out(
      `${row.day}   ${row.result.padEnd(10)} ${count(row.checked).padStart(9)} ${sent(row)} ${count(row.hard).padStart(7)} ${count(row.soft).padStart(7)} ${count(row.refused).padStart(14)}\n`,
    );
  const { hard, soft, refused } = ledger.unchecked;
  if (hard + soft + refused > 0)
    io.out(
      `Never checked live by Sift: ${count(hard)} hard, ${count(soft)} soft, ${count(refused)} that blamed the sender.\n`,
    );
  io.out(
    ledger.sendsKnown
      ? 'Sent: the checked addresses a tool reported sending to after the check. Rates are of the addresses checked.\n'
      : 'Who was sent to is not known from a bounce mailbox or file (?): the rates are of the addresses checked.\n',
  );
  return exitCodes.done;
}
