// What a sync plans and did, in the tool's words: the plan's lines (a count per change), the outcome's
// counts, and the refusals written to a CSV a page at a time. The CLI prints them; the app shows them.
import { open } from 'node:fs/promises';
import { nothingElseWords } from '../../common/connector-schemas.ts';
import { csvLineWriter } from '../lists/csv-writer.ts';
import type { Connector, MemberChange } from './connector.ts';
import type { SyncStore } from './sync-store.ts';

/** Each change of the plan with how many members get it, in the tool's words. */
export function planLines(
  store: SyncStore,
  syncId: number,
  connector: Connector,
): { members: number; change: string }[] {
  const byChange = new Map<MemberChange, number>();
  for (const each of store.counts(syncId)) byChange.set(each.change, (byChange.get(each.change) ?? 0) + each.count);
  return [...byChange].map(([change, members]) => ({ members, change: connector.describe(change) }));
}

/** The plan in a sentence, as `sift sync` prints it: what it does not do too, unless it does. */
export function describePlan(store: SyncStore, syncId: number, connector: Connector): string {
  const lines = planLines(store, syncId, connector);
  if (lines.length === 0) return 'no member needs a change; nothing is written.';
  const stepped = invalidStepWaiting(store, syncId, connector) !== null;
  return `${lines.map(({ members, change }) => `${members} ${members === 1 ? 'member' : 'members'}: ${change}`).join('; ')}. ${nothingElseWords(stepped)}`;
}

/**
 * Whether a plan has the tool's step for invalid members: how many members it has still to get it, or null
 * for a plan made without it. A waiting plan is written exactly as planned, so a writing must ask for the
 * same step (`sift sync` its flag, a schedule its choice): never taken unless asked for at the writing too.
 */
export function invalidStepWaiting(store: SyncStore, syncId: number, connector: Connector): number | null {
  const counts = store.counts(syncId).filter((each) => each.change === connector.invalidStep);
  if (counts.length === 0) return null;
  return counts.filter((each) => each.state === 'planned').reduce((sum, each) => sum + each.count, 0);
}

/** How many planned changes were written and how many the tool refused. */
export function outcomeCounts(store: SyncStore, syncId: number): { written: number; refused: number } {
  const counts = store.counts(syncId);
  const sum = (state: string) =>
    counts.filter((each) => each.state === state).reduce((total, each) => total + each.count, 0);
  return { written: sum('done'), refused: sum('refused') };
}

/** Every refusal with the tool's words into a CSV at `path`: a page at a time, never the whole list in memory. */
export async function writeRefusals(store: SyncStore, syncId: number, path: string): Promise<void> {
  const lineOf = csvLineWriter(',');
  const file = await open(path, 'w', 0o600);
  try {
    await file.write(`${lineOf(['email', 'member_id', 'change', 'refused_with'])}\n`);
    for (let after = 0; ;) {
      const page = store.refused(syncId, after, 500);
      if (page.length === 0) break;
      await file.write(
        page.map((each) => `${lineOf([each.email, each.memberId, each.change, each.words])}\n`).join(''),
      );
      after = page.at(-1)!.row;
    }
  } finally {
    await file.close();
  }
}
