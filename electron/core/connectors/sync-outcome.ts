// What a sync plans and did, in the tool's words: the plan's lines (a count per change), the outcome's
// counts, and the refusals written to a CSV a page at a time. The CLI prints them; the app shows them.
import { nothingElseWords } from '../../common/connector-schemas.ts';
import { writeCsvPages } from '../lists/csv-writer.ts';
import type { Connector, MemberChange, PlanChoices } from './connector.ts';
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
  const stepped = choicesWaiting(store, syncId, connector).withInvalidStep !== null;
  return `${lines.map(({ members, change }) => `${members} ${members === 1 ? 'member' : 'members'}: ${change}`).join('; ')}. ${nothingElseWords(stepped)}`;
}

/**
 * What a plan was made with of each change the person chooses (connector.ts's PlanChoices): how many members
 * it still has to get it, or null for a plan made without it. A waiting plan is written exactly as planned,
 * so a writing must make the same choices (`sift sync` its flags, a schedule its own): a chosen change is
 * never written unless chosen at the writing too.
 */
export function choicesWaiting(
  store: SyncStore,
  syncId: number,
  connector: Connector,
): Record<keyof PlanChoices, number | null> {
  const counts = store.counts(syncId);
  const waiting = (change: MemberChange) => {
    const ofChange = counts.filter((each) => each.change === change);
    if (ofChange.length === 0) return null;
    return ofChange
      .filter((each) => each.state === 'planned' || each.state === 'sent')
      .reduce((sum, each) => sum + each.count, 0);
  };
  return { withInvalidStep: waiting(connector.invalidStep), withScoreFields: waiting('score_fields') };
}

/** The first choice a writing makes otherwise than the plan waiting, in words; null when it may write it. */
export function otherChoice(
  waiting: Record<keyof PlanChoices, number | null>,
  choices: PlanChoices,
  connector: Connector,
) {
  const what: Record<keyof PlanChoices, (count: number) => string> = {
    withInvalidStep: (count) =>
      `${count} invalid ${count === 1 ? 'member' : 'members'} ${connector.describe(connector.invalidStep)}`,
    withScoreFields: (count) =>
      `${count} ${count === 1 ? "member's" : "members'"} score and day to write in Sift's fields`,
  };
  for (const choice of ['withInvalidStep', 'withScoreFields'] as const) {
    const count = waiting[choice];
    if (count !== null && count > 0 && !choices[choice]) return { choice, has: what[choice](count) };
    if (count === null && choices[choice]) return { choice, has: null };
  }
  return null;
}

/** How many planned changes were written and how many the tool refused. */
export function outcomeCounts(store: SyncStore, syncId: number): { written: number; refused: number } {
  const counts = store.counts(syncId);
  const sum = (state: string) =>
    counts.filter((each) => each.state === state).reduce((total, each) => total + each.count, 0);
  return { written: sum('done'), refused: sum('refused') };
}

/** Every refusal with the tool's words into a CSV at `path`, a page at a time (writeCsvPages). */
export async function writeRefusals(store: SyncStore, syncId: number, path: string): Promise<void> {
  function* pages() {
    for (let after = 0; ;) {
      const page = store.refused(syncId, after, 500);
      if (page.length === 0) return;
      yield page.map((each) => [each.email, each.memberId, each.change, each.words]);
      after = page.at(-1)!.row;
    }
  }
  await writeCsvPages(path, ['email', 'member_id', 'change', 'refused_with'], pages());
}
