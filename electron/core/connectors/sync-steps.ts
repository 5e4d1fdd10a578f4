// One sync of a list, as the CLI (`sift sync`, `sift sync --due`), the app and its schedules all run it: the
// sync to go on with, its members read, its plan made from the cleaned list, and the plan written. The
// cleaning between is each caller's own (a `sift clean` in the CLI; the app's list flow, where a person sees
// and agrees to the cost), and so is how progress is shown and a refusal worded; the rules are here, once:
// an unfinished sync goes on reading the members it began with, a list with no one to check ends there, a
// plan is made once from one cleaned list, a plan waiting is written only with the choices it was made with,
// and demo verdicts are never written.
import { mkdir } from 'node:fs/promises';
import { readChoiceKey, type Connector, type ConnectorKind, type PlanChoices, type ReadChoice } from './connector.ts';
import { planChanges, readMembers, syncFiles, writeChanges } from './sync-run.ts';
import { choicesWaiting, otherChoice, outcomeCounts } from './sync-outcome.ts';
import type { SyncRecord, SyncStore } from './sync-store.ts';

/** What a sync step needs: where it keeps things, the tool, and how its progress is told. */
export type SyncContext = {
  dataDir: string;
  store: SyncStore;
  connector: Connector;
  signal?: AbortSignal;
  onProgress?: (step: 'reading' | 'writing', count: number) => void;
};

/** A step refused for a reason the caller words its own way (a flag in the CLI, a button in the app). */
export class SyncStepRefusal extends Error {
  readonly refusal:
    | { kind: 'other_read'; reading: ReadChoice; asked: ReadChoice }
    | { kind: 'other_choice'; choice: keyof PlanChoices; has: string | null }
    | { kind: 'demo'; tool: ConnectorKind };
  constructor(refusal: SyncStepRefusal['refusal']) {
    super(`The sync step was refused: ${refusal.kind}.`);
    this.name = 'SyncStepRefusal';
    this.refusal = refusal;
  }
}

/**
 * The sync of this list not finished yet, else none (`restart` sets an unfinished one aside). An unfinished
 * sync reading other members than `readChoice` is refused: it goes on with the members it began with.
 */
export function unfinishedSync(
  store: SyncStore,
  connection: string,
  audience: string,
  readChoice: ReadChoice,
  restart = false,
): SyncRecord | undefined {
  const sync = store.unfinished(connection, audience);
  if (sync && restart) {
    store.finish(sync.id);
    return undefined;
  }
  if (sync && readChoiceKey(sync.readChoice) !== readChoiceKey(readChoice))
    throw new SyncStepRefusal({ kind: 'other_read', reading: sync.readChoice, asked: readChoice });
  return sync;
}

/** Reads the members not read yet into the sync's folder; a list with no one to check is finished there. */
export async function readStep(context: SyncContext, sync: SyncRecord): Promise<SyncRecord> {
  const files = syncFiles(context.dataDir, sync);
  await mkdir(files.folder, { recursive: true, mode: 0o700 });
  const read = await readMembers(
    context.store,
    context.connector,
    sync,
    files.members,
    (count) => context.onProgress?.('reading', count),
    context.signal,
  );
  if (read.members > 0) return read;
  context.store.finish(read.id);
  return { ...read, phase: 'done' };
}

/**
 * The plan, made once from the cleaned list (`job`, its `annotated` file): the changes its verdicts call for
 * that an earlier sync did not already make. Answers how many those were.
 */
export async function planStep(
  context: SyncContext,
  sync: SyncRecord,
  cleaned: { job: string; annotated: string },
  choices: Partial<PlanChoices> & { keepAtScore?: Partial<Record<string, number>> },
): Promise<{ sync: SyncRecord; alreadyDone: number }> {
  if (sync.phase !== 'cleaning') return { sync, alreadyDone: 0 };
  context.store.cleaned(sync.id, cleaned.job);
  const { alreadyDone } = await planChanges(context.store, context.connector, sync, cleaned.annotated, choices);
  return { sync: context.store.get(sync.id)!, alreadyDone };
}

/** The choices the plan waiting was made with: what writing it as planned chooses. */
export function choicesOfPlan(context: SyncContext, sync: SyncRecord): PlanChoices {
  const waiting = choicesWaiting(context.store, sync.id, context.connector);
  return { withInvalidStep: waiting.withInvalidStep !== null, withScoreFields: waiting.withScoreFields !== null };
}

/** Refused when the plan waiting was made with other choices than `choices`: it is written only as planned. */
export function checkPlanChoices(context: SyncContext, sync: SyncRecord, choices: PlanChoices): void {
  const other = otherChoice(choicesWaiting(context.store, sync.id, context.connector), choices, context.connector);
  if (other) throw new SyncStepRefusal({ kind: 'other_choice', choice: other.choice, has: other.has });
}

/**
 * Writes the plan waiting, each change once, and finishes the sync: never from demo verdicts, which no mail
 * server gave, and only with the choices the plan was made with.
 */
export async function writeStep(
  context: SyncContext,
  sync: SyncRecord,
  written: { demo: boolean; choices: PlanChoices },
): Promise<{ written: number; refused: number }> {
  if (written.demo) throw new SyncStepRefusal({ kind: 'demo', tool: context.connector.kind });
  checkPlanChoices(context, sync, written.choices);
  await writeChanges(
    context.store,
    context.connector,
    sync,
    (count) => context.onProgress?.('writing', count),
    context.signal,
  );
  context.store.finish(sync.id);
  return outcomeCounts(context.store, sync.id);
}
