// The accuracy ledger: every address Sift checked (its live verdict and the day it was got, from the
// verdict cache, with the checks a bounce has since taken the place of counted back in) beside what
// happened to it after the check (outcomes read since). Each address is counted once per check, under
// the worst that happened: a hard bounce, else a soft one, else a refusal that blamed the sender.
// Nothing is claimed that was not seen: a bounce mailbox or a file says who bounced, not who was sent
// to, so "sent" is not known from them, and the rates are of the addresses checked.
import { bounceCache } from '../cache/index.ts';
import type { OutcomeStore } from './outcome-store.ts';

/** `sent`: of the addresses checked, how many a tool reported sending to after the check. */
export type LedgerRow = {
  day: string;
  result: string;
  checked: number;
  sent: number;
  hard: number;
  soft: number;
  refused: number;
};
export type Ledger = {
  /** By the UTC day of the check and Sift's verdict then. */
  rows: LedgerRow[];
  /** The same, over every day, by verdict. */
  byVerdict: Omit<LedgerRow, 'day'>[];
  /** Outcomes of addresses Sift never checked live (kept, and counted here). */
  unchecked: { hard: number; soft: number; refused: number };
  /** Whether any source said who it sent to: without one, `sent` is not known (0 means nothing). */
  sendsKnown: boolean;
};

export function accuracyLedger(dataDir: string, store: OutcomeStore): Ledger {
  const rows = new Map<string, LedgerRow>();
  const row = (day: string, result: string) => {
    const name = `${day}\0${result}`;
    return (
      rows.get(name) ?? rows.set(name, { day, result, checked: 0, sent: 0, hard: 0, soft: 0, refused: 0 }).get(name)!
    );
  };
  const history = bounceCache(dataDir);
  try {
    for (const each of history.checkedByDay()) row(each.day, each.result).checked += each.addresses;
  } finally {
    history.close();
  }
  const unchecked = { hard: 0, soft: 0, refused: 0 };
  for (const count of store.ledgerCounts()) {
    if (count.day === null || count.result === null) {
      if (count.kind !== 'replaced' && count.kind !== 'sent') unchecked[count.kind] += count.addresses;
      continue;
    }
    const target = row(count.day, count.result);
    if (count.kind === 'replaced') target.checked += count.addresses;
    else target[count.kind] += count.addresses;
  }
  const sorted = [...rows.values()].sort((a, b) => a.day.localeCompare(b.day) || a.result.localeCompare(b.result));
  const byVerdict = new Map<string, Omit<LedgerRow, 'day'>>();
  for (const { day: _day, ...each } of sorted) {
    const total =
      byVerdict.get(each.result) ??
      byVerdict
        .set(each.result, { result: each.result, checked: 0, sent: 0, hard: 0, soft: 0, refused: 0 })
        .get(each.result)!;
    total.checked += each.checked;
    total.sent += each.sent;
    total.hard += each.hard;
    total.soft += each.soft;
    total.refused += each.refused;
  }
  return { rows: sorted, byVerdict: [...byVerdict.values()], unchecked, sendsKnown: store.sendsKnown() };
}

const verdictWords: Record<string, string> = {
  valid: 'valid',
  catch_all: 'catch-all',
  unknown: 'unknown',
  invalid: 'invalid',
};
const count = (value: number) => value.toLocaleString('en');
/** A share as a person reads it: "0.25%" under one percent, "11%" above, "0%" for none. */
const share = (part: number, whole: number) => {
  if (whole === 0) return '';
  const percent = (part / whole) * 100;
  return ` (${part > 0 && percent < 1 ? percent.toFixed(2) : Math.round(percent)}%)`;
};

/** "Of 12,400 addresses Sift called valid on 2026-03-03, 31 bounced (0.25%); of 1,900 catch-all, 212 (11%)." */
export function ledgerSentence(rows: readonly (Omit<LedgerRow, 'day'> & { day?: string })[]): string {
  const [first, ...rest] = rows.filter((each) => each.checked > 0);
  if (!first) return 'No address Sift checked has an outcome yet.';
  const on = (each: { day?: string }) => (each.day === undefined || each.day === first.day ? '' : ` on ${each.day}`);
  const part = (each: Omit<LedgerRow, 'day'>) => `${count(each.hard)} bounced${share(each.hard, each.checked)}`;
  const words = (result: string) => verdictWords[result] ?? result;
  const head = `Of ${count(first.checked)} ${first.checked === 1 ? 'address' : 'addresses'} Sift called ${words(first.result)}${first.day ? ` on ${first.day}` : ''}, ${part(first)}`;
  return `${[head, ...rest.map((each) => `of ${count(each.checked)} ${words(each.result)}${on(each)}, ${part(each)}`)].join('; ')}.`;
}
