// What happened to one list's addresses after it was checked: each outcome read back since (outcomes/) of
// an address the list holds, under the verdict the list gave it, the worst of each address counted once
// (hard, then soft, then a refusal that blamed the sender). A demo's verdicts were no check: nothing to set
// its outcomes beside. One pass over the list's addresses; outcomes read a page at a time.
import { existsSync } from 'node:fs';
import type { ListOutcomes } from '../../../common/outcome-schemas.ts';
import { ledgerSentence, openOutcomeStore, outcomeStoreFile } from '../../outcomes/index.ts';
import { hasDemoVerdicts, type JobRecord, type JobStore } from '../store/index.ts';
import { summariseJob } from './list-summary.ts';

const rank = { refused: 1, soft: 2, hard: 3 } as const;
type Kind = keyof typeof rank;
const shown = ['valid', 'catch_all', 'unknown', 'invalid'] as const;

export function listOutcomes(store: JobStore, job: JobRecord, dataDir: string): ListOutcomes {
  const none: ListOutcomes = { checkedAt: job.updatedAt, sentence: '', byVerdict: [] };
  if (hasDemoVerdicts(job) || !existsSync(outcomeStoreFile(dataDir))) return none;
  const worst = new Map<string, Kind>();
  const outcomes = openOutcomeStore(dataDir);
  try {
    for (let after = 0; ;) {
      const page = outcomes.standingSince(job.updatedAt, after, 10_000);
      for (const { address, kind } of page)
        if (rank[kind] > rank[worst.get(address) ?? 'refused'] || !worst.has(address)) worst.set(address, kind);
      if (page.length < 10_000) break;
      after = page.at(-1)!.id;
    }
  } finally {
    outcomes.close();
  }
  if (worst.size === 0) return none;
  const results = store
    .list(job.id)
    .rowText()
    .resultsOf([...worst.keys()]);
  const summary = summariseJob(store, job);
  const byVerdict = shown.map((result) => ({
    result,
    checked: summary[result],
    sent: 0,
    hard: 0,
    soft: 0,
    refused: 0,
  }));
  for (const [address, result] of results) {
    const row = byVerdict.find((each) => each.result === result);
    if (row) row[worst.get(address)!] += 1;
  }
  const rows = byVerdict.filter((row) => row.checked > 0);
  const bounced = rows.some((row) => row.hard + row.soft + row.refused > 0);
  return { checkedAt: job.updatedAt, sentence: bounced ? ledgerSentence(rows) : '', byVerdict: bounced ? rows : [] };
}
