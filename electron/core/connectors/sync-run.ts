// The parts of a sync that are not cleaning: the members read into a CSV a page at a time, the changes
// the verdicts call for planned from the cleaned list's annotated file, and the planned changes written to
// the tool, each once. Every step keeps where it is in the sync store (sync-store.ts), so a sync stopped
// anywhere goes on from there; the cleaning between is a job like any list's (resumed, never billed twice).
import { open, statfs, truncate } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { readCsvRows } from '../lists/csv-reader.ts';
import { csvLineWriter } from '../lists/csv-writer.ts';
import {
  changeKind,
  ConnectorError,
  toolNames,
  verdictsOnly,
  type ChangeOutcome,
  type Connector,
  type MemberChange,
  type PlanChoices,
} from './connector.ts';
import type { PlannedChange, SyncRecord, SyncStore } from './sync-store.ts';

/**
 * The members file's columns: what the person sees in the cleaned list, the tool's id to write back by, and
 * the member's status at the tool where it has one (what a change may be planned for depends on it).
 */
export const memberColumns = ['email', 'name', 'member_id', 'status'] as const;
/** The columns of a members file an earlier version began: a sync it left part way goes on in them. */
const earlierMemberColumns = ['email', 'name', 'member_id'] as const;

/**
 * Where a sync keeps its files in the data folder, and their stem: the list's id, as the members file, what
 * the clean writes and the refusals are named.
 */
export function syncFiles(dataDir: string, sync: Pick<SyncRecord, 'id' | 'audience'>) {
  const folder = join(dataDir, 'connectors', `sync-${sync.id}`);
  const stem = sync.audience.replace(/[^A-Za-z0-9._-]/g, '_');
  return { folder, stem, members: join(folder, `${stem}.csv`) };
}

/** Changes per write call and per page planned: a page, never the whole list, in memory. */
const changesPerPage = 100;

/**
 * How far a read may run past what the tool claimed: twice its count, and a page more (people join while it
 * is read; Mailchimp's overlapping pages may take up to a tenth again). Past it, the tool's pages do not end
 * as it said they would, and the read stops rather than fill the disk.
 */
const readsPastClaim = (claimed: number) => 2 * claimed + 1000;

/**
 * A read stopped before it fills the disk or outruns what the tool claimed: the members still to come (by the
 * tool's count) must fit the disk at the bytes a member took so far.
 */
async function checkReadBounds(
  connector: Connector,
  path: string,
  claims: ReadonlyMap<string, number>,
  read: { members: number; bytes: number },
): Promise<void> {
  if (claims.size === 0) return;
  const tool = toolNames[connector.kind];
  const claimed = [...claims.values()].reduce((sum, count) => sum + count, 0);
  if (read.members > readsPastClaim(claimed))
    throw new ConnectorError(
      'unreachable',
      `${tool} said the list holds ${claimed.toLocaleString('en')} members, yet its pages went on to ${read.members.toLocaleString('en')} and more: Sift stopped reading (it reads at most twice what a tool claims, and a page more). Nothing was written.`,
    );
  const disk = await statfs(dirname(path));
  const free = disk.bavail * disk.bsize;
  const needed = Math.max(0, claimed - read.members) * Math.max(1, read.bytes / Math.max(1, read.members));
  if (needed > free)
    throw new ConnectorError(
      'unreachable',
      `${tool} says the list holds ${claimed.toLocaleString('en')} members: about ${Math.ceil(needed / 1e6).toLocaleString('en')} MB more to keep, and the disk holding ${dirname(path)} has ${Math.floor(free / 1e6).toLocaleString('en')} MB free. Sift stopped reading; free some space and sync again to go on. Nothing was written.`,
    );
}

/**
 * Reads the members not read yet into `path`: from the page after the last one kept, with the file cut back
 * to its length then (a page half-written when a sync stopped is written again, once).
 */
export async function readMembers(
  store: SyncStore,
  connector: Connector,
  sync: SyncRecord,
  path: string,
  onPage: (members: number) => void,
  signal?: AbortSignal,
): Promise<SyncRecord> {
  const lineOf = csvLineWriter(',');
  let { fileBytes, members } = sync;
  const cursor = sync.nextCursor ?? undefined;
  if (sync.phase !== 'reading') return sync;
  const file = await open(path, fileBytes === 0 ? 'w' : 'r+', 0o600);
  try {
    let columns: readonly string[] = memberColumns;
    if (fileBytes === 0) {
      fileBytes = (await file.write(`${lineOf(memberColumns)}\n`)).bytesWritten;
    } else {
      await truncate(path, fileBytes);
      const header = `${lineOf(earlierMemberColumns)}\n`;
      const { buffer } = await file.read(Buffer.alloc(header.length), 0, header.length, 0);
      if (buffer.toString() === header) columns = earlierMemberColumns;
    }
    // What the tool claims for each collection read in this run, and what this run read of it.
    const claims = new Map<string, number>();
    const thisRun = { members: 0, bytes: 0 };
    const pageFrom = (from: string | undefined) => connector.readPage(sync.audience, from, sync.readChoice);
    // The next page is asked for as soon as its cursor is known, while this one is written and kept: the
    // tool's answer time and the disk's overlap. A page fetched ahead and not kept is read again next time.
    let coming = pageFrom(cursor);
    for (;;) {
      signal?.throwIfAborted();
      const page = await coming;
      if (page.next !== undefined) {
        coming = pageFrom(page.next);
        // Awaited on the next turn; a failure while this page is kept is not left unhandled.
        coming.catch(() => undefined);
      }
      if (page.claimed && !claims.has(page.claimed.of)) claims.set(page.claimed.of, page.claimed.count);
      const text = page.members
        .map(
          (member) =>
            `${lineOf([member.email, member.name, member.id, member.status ?? ''].slice(0, columns.length))}\n`,
        )
        .join('');
      const { bytesWritten } = await file.write(text, fileBytes);
      await file.sync();
      fileBytes += bytesWritten;
      members += page.members.length;
      thisRun.members += page.members.length;
      thisRun.bytes += bytesWritten;
      store.pageRead(sync.id, fileBytes, members, page.next);
      onPage(members);
      if (page.next === undefined) break;
      await checkReadBounds(connector, path, claims, thisRun);
    }
  } finally {
    await file.close();
  }
  return { ...sync, phase: 'cleaning', nextCursor: null, fileBytes, members };
}

/**
 * Plans the changes the annotated file's verdicts call for at this tool, a page at a time; answers how many
 * an earlier sync of the list already made.
 */
export async function planChanges(
  store: SyncStore,
  connector: Connector,
  sync: SyncRecord,
  annotatedPath: string,
  choices: Partial<PlanChoices> & {
    /** The score each verdict must reach to be kept (`--keep catch_all:70`): below it, a member is risky. */
    keepAtScore?: Partial<Record<string, number>>;
  } = {},
): Promise<{ alreadyDone: number }> {
  if (sync.phase !== 'cleaning') return { alreadyDone: 0 };
  let seen = 0;
  let kept = 0;
  // A member an earlier sync already gave this very change is left as it is: not written twice.
  const keep = (changes: PlannedChange[]) => {
    seen += changes.length;
    const last = store.lastWritten(
      sync.connection,
      sync.audience,
      changes.map((each) => each.memberId),
    );
    const needed = changes.filter((each) => {
      const before = last.get(each.memberId)?.find((earlier) => changeKind(earlier.change) === changeKind(each.change));
      if (before?.change !== each.change) return true;
      return connector.scoreKept(each.change).some((part) => before[part] !== each[part]);
    });
    store.addPlanned(sync.id, needed);
    return needed.length;
  };
  let columns:
    { id: number; email: number; result: number; score: number; reasons: number; status: number } | undefined;
  let page: PlannedChange[] = [];
  await readCsvRows(annotatedPath, 'the cleaned members', (row) => {
    if (columns === undefined) {
      columns = {
        id: row.indexOf('member_id'),
        email: row.indexOf('email'),
        result: row.indexOf('sift_result'),
        score: row.indexOf('sift_score'),
        reasons: row.indexOf('sift_score_reasons'),
        // None in a file an earlier version read.
        status: row.indexOf('status'),
      };
      if (Object.entries(columns).some(([name, at]) => at === -1 && name !== 'status'))
        throw new Error(`${annotatedPath} is not a sync's annotated list.`);
      return;
    }
    const score = row[columns.score] ?? '';
    const result = row[columns.result] ?? '';
    const atLeast = choices.keepAtScore?.[result];
    const scored = /^\d+$/.test(score);
    const risky = atLeast !== undefined && scored && Number(score) < atLeast;
    const status = row[columns.status] ?? '';
    for (const change of connector.changesFor({ result, risky, scored, status }, { ...verdictsOnly, ...choices }))
      page.push({
        memberId: row[columns.id]!,
        email: row[columns.email]!,
        change,
        verdict: row[columns.result]!,
        score: /^\d+$/.test(score) ? Number(score) : null,
        reasons: row[columns.reasons] ?? '',
      });
    if (page.length >= changesPerPage) {
      kept += keep(page);
      page = [];
    }
  });
  kept += keep(page);
  store.planned(sync.id);
  return { alreadyDone: seen - kept };
}

/**
 * A page of changes as rounds: each member's first change still to write, then its second, and so on. Within
 * a round a member appears once, so its changes may be grouped by kind (one call pattern each) and still be
 * written in the order the plan lists them, wherever a page began (a page may begin with a member's archive
 * whose tag closed the page before).
 */
function inMemberOrder(pending: readonly PlannedChange[]): PlannedChange[][] {
  const rounds: PlannedChange[][] = [];
  const changesOf = new Map<string, number>();
  for (const each of pending) {
    const round = changesOf.get(each.memberId) ?? 0;
    changesOf.set(each.memberId, round + 1);
    (rounds[round] ??= []).push(each);
  }
  return rounds;
}

/** Writes every planned change not yet written, a page at a time; each outcome is kept as it comes. */
export async function writeChanges(
  store: SyncStore,
  connector: Connector,
  sync: SyncRecord,
  onPage: (written: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  let written = 0;
  const { bulk } = connector;
  // A call's outcomes come one after another in the same turn: kept together at the turn's end, before the
  // next call goes out (one write to the disk per call, not per member: 100,000 fsyncs were a minute).
  const unkept: { memberId: string; change: MemberChange; done: boolean; words?: string }[] = [];
  const keep = () => {
    if (unkept.length > 0) store.outcomes(sync.id, unkept.splice(0));
  };
  const outcomeOf = (change: MemberChange) => (outcome: ChangeOutcome) => {
    if (unkept.length === 0) queueMicrotask(keep);
    unkept.push({
      memberId: outcome.memberId,
      change,
      done: outcome.done,
      ...(outcome.done ? {} : { words: outcome.words }),
    });
  };
  /** A bulk job's results, read as they come; a change they do not name is refused in words. */
  const collect = async (job: string, change: MemberChange) => {
    await bulk!.collect(job, outcomeOf(change), signal);
    keep();
    store.jobRead(sync.id, job, `${toolNames[connector.kind]}'s results of job ${job} did not name this change.`);
  };
  // A job sent before a stop: its results are read, never the job sent again.
  for (const { job, change } of store.sentJobs(sync.id)) await collect(job, change);
  const planned = store.counts(sync.id).filter((each) => each.state === 'planned');
  if (planned.length > 0) await connector.prepare?.(sync.audience, new Set(planned.map((each) => each.change)));
  for (;;) {
    signal?.throwIfAborted();
    const pending = store.pending(sync.id, bulk?.most ?? connector.writePage ?? changesPerPage);
    if (pending.length === 0) return;
    for (const round of inMemberOrder(pending))
      for (const change of new Set(round.map((each) => each.change))) {
        const members = round.filter((each) => each.change === change);
        const job = bulk && members.length >= bulk.from ? await bulk.send(sync.audience, change, members) : undefined;
        if (job === undefined) {
          await connector.apply(sync.audience, change, members, outcomeOf(change));
          keep();
        } else {
          store.sent(
            sync.id,
            job,
            change,
            members.map((each) => each.memberId),
          );
          await collect(job, change);
        }
        written += members.length;
        onPage(written);
      }
  }
}
