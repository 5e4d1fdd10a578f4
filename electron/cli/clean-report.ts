// What `sift clean` prints on the way: progress on one line, the cost before anything is sent, and the
// list's funnel at the end. Every figure is one the service or the list gave; none is made up.
import { describeChanges } from '../common/changes-words.ts';
import type { ListSummary } from '../common/contract.ts';
import { demoVerdictsNote } from '../common/demo-verdicts.ts';
import { describeTimeLeft } from '../common/durations.ts';
import type { Cost, JobProgress } from '../core/jobs/run/index.ts';
import type { CliIo } from './cli-io.ts';
import { count, counted } from './cli-format.ts';

export function progressPrinter(io: CliIo) {
  let last = '';
  return (progress: JobProgress) => {
    if (!io.interactive) return;
    let line: string;
    if (progress.phase === 'importing') line = `Reading list… ${count(progress.rows)} rows`;
    else {
      const { checked, total, etaSeconds, politePace, parts } = progress;
      const sending = parts ? `Sending… ${count(parts.sent)} of ${count(parts.total)} batches sent; ` : '';
      const left = etaSeconds ? `, ${describeTimeLeft(etaSeconds, politePace)}` : '';
      line = `${sending}${parts ? 'checked' : 'Verifying…'} ${count(checked)} of ${count(total)}${left}`;
    }
    if (line !== last) io.err(`\r${line}\x1b[K`);
    last = line;
  };
}

export function describeCost(cost: Cost): string {
  // Only what the service said: a balance it does not give is not printed as a number.
  const account = [
    ...(cost.freeRemaining === undefined ? [] : [`${count(cost.freeRemaining)} free checks left this month`]),
    ...(cost.balance === undefined ? [] : [`balance ${count(cost.balance)}`]),
  ];
  const how =
    cost.mode === 'sandbox'
      ? 'sandbox key: demo verdicts, no mail server is asked, no credits are spent'
      : account.length > 0
        ? account.join(', ')
        : 'the service does not say its balance';
  const known =
    cost.cached > 0 ? `${count(cost.cached)} known from earlier lists (the verdict cache): not sent, free.\n` : '';
  if (cost.checks === 0) return known;
  return `${counted(cost.checks, 'address', 'addresses')} to check (${how}).\n${known}`;
}

/** The list's funnel in a sentence or three: every row counted once; demo verdicts say what they are. */
export function describeSummary(s: ListSummary, demo: boolean): string {
  const other = Object.entries(s.other_results).map(([result, n]) => `, ${count(n)} ${result}`);
  const verdicts =
    `${count(s.valid)} valid, ${count(s.invalid)} invalid, ${count(s.catch_all)} catch-all, ` +
    `${count(s.unknown)} unknown${other.join('')}${s.unverified > 0 ? `, ${count(s.unverified)} not checked` : ''}`;
  return (
    `${counted(s.rows, 'row', 'rows')}: ${count(s.no_address)} without an address, ${count(s.bad_syntax)} bad syntax, ` +
    `${counted(s.duplicates, 'duplicate', 'duplicates')}, ${s.suppressed > 0 ? `${count(s.suppressed)} suppressed (do-not-mail), ` : ''}` +
    `${s.ruled ? `${count(s.ruled)} decided by your rules, ` : ''}` +
    `${count(s.to_check)} to check.\n` +
    (demo
      ? `Demo verdicts: ${verdicts}.\n${demoVerdictsNote}\n`
      : `Checked: ${verdicts}; ${count(s.billed)} billed.\n`) +
    (s.cached > 0
      ? `Of these verdicts, ${count(s.cached)} were reused from earlier lists (sift_source "cache", with the day each was got).\n`
      : '') +
    `Flagged: ${count(s.role)} role, ${count(s.disposable)} disposable, ${counted(s.typos, 'likely typo', 'likely typos')}.\n` +
    (s.changed ? `Changed since the last check: ${describeChanges(s.changed)}\n` : '')
  );
}
