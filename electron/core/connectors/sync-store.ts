// What a sync has done, kept so that a sync stopped anywhere goes on without reading a member twice, sending
// an address twice or writing a change twice: <data>/connectors/syncs.sqlite. A sync reads the members into
// a CSV a page at a time (the file's length after each page is kept with the next page's cursor, so a page
// cut by a crash is cut off the file and read again), cleans that file as a job, plans its changes from the
// verdicts, and writes each planned change once, keeping each outcome as the tool gave it.
import { sql, transaction } from '../storage/sqlite.ts';
import { openSyncDatabase } from './sync-store-schema.ts';
import { readChoiceFromKey, readChoiceKey, type MemberChange, type ReadChoice } from './connector.ts';

/** Where a sync is: reading members, cleaning them, planned (changes known), or done. */
type SyncPhase = 'reading' | 'cleaning' | 'planned' | 'done';

export type SyncRecord = {
  id: number;
  connection: string;
  audience: string;
  /** Which of the list's members it reads: kept, so a read stopped part way goes on with the same. */
  readChoice: ReadChoice;
  startedAt: number;
  phase: SyncPhase;
  /** The page to read next; none once every page is read. */
  nextCursor: string | null;
  /** The members file's length after the last page read, and its members. */
  fileBytes: number;
  members: number;
  /** The job that cleaned the members, once it ran. */
  jobId: string | null;
};

/** A refused change is not carried over: the next sync plans it again from its verdict, if still called for. */
export type PlannedChange = {
  memberId: string;
  email: string;
  change: MemberChange;
  verdict: string;
  /** The row's sift_score (none for rows not checked) and its reasons, for tools that keep them. */
  score: number | null;
  reasons: string;
};
/** `sent`: in a bulk job of the tool's, its outcome not read yet. */
type ChangeState = 'planned' | 'sent' | 'done' | 'refused';

export type SyncStore = {
  get(id: number): SyncRecord | undefined;
  /** The latest `limit` syncs, newest first. */
  recent(limit: number): SyncRecord[];
  /** The sync of this list not done yet, if any: it goes on from where it stopped. */
  unfinished(connection: string, audience: string): SyncRecord | undefined;
  start(connection: string, audience: string, now: number, readChoice: ReadChoice): SyncRecord;
  /** A page is in the file: its new length, its members, and the cursor of the next (none: all read). */
  pageRead(id: number, fileBytes: number, members: number, nextCursor: string | undefined): void;
  cleaned(id: number, jobId: string): void;
  /** Changes the verdicts call for, a page at a time, each kept once however often it is added. */
  addPlanned(id: number, changes: readonly PlannedChange[]): void;
  /**
   * The changes last written to each of `memberIds` of this list by earlier syncs, newest first, where there
   * are any: a member already given what its verdict calls for is not written again.
   */
  lastWritten(
    connection: string,
    audience: string,
    memberIds: readonly string[],
  ): Map<string, Pick<PlannedChange, 'change' | 'score' | 'reasons'>[]>;
  /** Every change is planned: what the plan says now holds. */
  planned(id: number): void;
  /** Up to `limit` changes not yet written, in the order planned. */
  pending(id: number, limit: number): PlannedChange[];
  /** How many changes of each kind are in each state. */
  counts(id: number): { change: MemberChange; state: ChangeState; count: number }[];
  /** The changes the tool refused, with its words, a page at a time from `after` (a row number). */
  refused(id: number, after: number, limit: number): (PlannedChange & { row: number; words: string })[];
  /** Outcomes of changes as the tool gave them, kept together (one transaction, one write to the disk). */
  outcomes(
    id: number,
    outcomes: readonly { memberId: string; change: MemberChange; done: boolean; words?: string }[],
  ): void;
  /** Changes sent in the tool's bulk job `job`, before its results are awaited. */
  sent(id: number, job: string, change: MemberChange, memberIds: readonly string[]): void;
  /** The bulk jobs whose results are still to read, each with its one change. */
  sentJobs(id: number): { job: string; change: MemberChange }[];
  /** A job's results are read: a change they did not name is refused with `words`. */
  jobRead(id: number, job: string, words: string): void;
  finish(id: number): void;
  close(): void;
};

type SyncRow = {
  id: number;
  connection: string;
  audience: string;
  read_choice: string;
  started_at: number;
  phase: SyncPhase;
  next_cursor: string | null;
  read_done: number;
  file_bytes: number;
  members: number;
  job_id: string | null;
};

type ChangeRow = {
  member_id: string;
  email: string;
  change: MemberChange;
  verdict: string;
  score: number | null;
  reasons: string;
};
const changeOf = (row: ChangeRow): PlannedChange => ({
  memberId: row.member_id,
  email: row.email,
  change: row.change,
  verdict: row.verdict,
  score: row.score,
  reasons: row.reasons,
});

const recordOf = (row: SyncRow): SyncRecord => ({
  id: row.id,
  connection: row.connection,
  audience: row.audience,
  readChoice: readChoiceFromKey(row.read_choice),
  startedAt: row.started_at,
  phase: row.phase,
  nextCursor: row.read_done ? null : row.next_cursor,
  fileBytes: row.file_bytes,
  members: row.members,
  jobId: row.job_id,
});

export function openSyncStore(dataDir: string): SyncStore {
  const db = openSyncDatabase(dataDir);
  const byId = (id: number) => recordOf(sql(db, 'SELECT * FROM syncs WHERE id = ?').get(id) as SyncRow);
  return {
    get(id) {
      const row = sql(db, 'SELECT * FROM syncs WHERE id = ?').get(id) as SyncRow | undefined;
      return row && recordOf(row);
    },
    recent(limit) {
      return (sql(db, 'SELECT * FROM syncs ORDER BY id DESC LIMIT ?').all(limit) as SyncRow[]).map(recordOf);
    },
    unfinished(connection, audience) {
      const row = sql(
        db,
        "SELECT * FROM syncs WHERE connection = ? AND audience = ? AND phase != 'done' ORDER BY id DESC",
      ).get(connection, audience) as SyncRow | undefined;
      return row && recordOf(row);
    },
    start(connection, audience, now, readChoice) {
      const { lastInsertRowid } = sql(
        db,
        "INSERT INTO syncs (connection, audience, read_choice, started_at, phase) VALUES (?, ?, ?, ?, 'reading')",
      ).run(connection, audience, readChoiceKey(readChoice), now);
      return byId(Number(lastInsertRowid));
    },
    pageRead(id, fileBytes, members, nextCursor) {
      sql(
        db,
        `UPDATE syncs SET file_bytes = ?, members = ?, next_cursor = ?, read_done = ?, phase = CASE WHEN ? THEN 'cleaning' ELSE phase END WHERE id = ?`,
      ).run(
        fileBytes,
        members,
        nextCursor ?? null,
        nextCursor === undefined ? 1 : 0,
        nextCursor === undefined ? 1 : 0,
        id,
      );
    },
    cleaned(id, jobId) {
      sql(db, 'UPDATE syncs SET job_id = ? WHERE id = ?').run(jobId, id);
    },
    addPlanned(id, changes) {
      transaction(db, () => {
        const insert = sql(
          db,
          'INSERT OR IGNORE INTO planned_changes (sync_id, member_id, email, change, verdict, score, reasons) VALUES (?, ?, ?, ?, ?, ?, ?)',
        );
        for (const each of changes)
          insert.run(id, each.memberId, each.email, each.change, each.verdict, each.score, each.reasons);
      });
    },
    lastWritten(connection, audience, memberIds) {
      const found = new Map<string, Pick<PlannedChange, 'change' | 'score' | 'reasons'>[]>();
      // A sync writes a member a few changes at most (a tag, an archive, the score fields): the last few
      // syncs' rows hold the latest of each kind.
      const last = sql(
        db,
        `SELECT p.change, p.score, p.reasons FROM planned_changes p JOIN syncs s ON s.id = p.sync_id
         WHERE p.member_id = ? AND p.state = 'done' AND s.connection = ? AND s.audience = ? ORDER BY s.id DESC LIMIT 12`,
      );
      for (const memberId of memberIds) {
        const rows = last.all(memberId, connection, audience) as Pick<PlannedChange, 'change' | 'score' | 'reasons'>[];
        if (rows.length > 0)
          found.set(
            memberId,
            rows.map((row) => ({ change: row.change, score: row.score, reasons: row.reasons })),
          );
      }
      return found;
    },
    planned(id) {
      sql(db, "UPDATE syncs SET phase = 'planned' WHERE id = ?").run(id);
    },
    pending(id, limit) {
      const rows = sql(
        db,
        "SELECT member_id, email, change, verdict, score, reasons FROM planned_changes WHERE sync_id = ? AND state = 'planned' ORDER BY rowid LIMIT ?",
      ).all(id, limit) as ChangeRow[];
      return rows.map(changeOf);
    },
    counts(id) {
      return sql(
        db,
        'SELECT change, state, COUNT(*) AS count FROM planned_changes WHERE sync_id = ? GROUP BY change, state',
      ).all(id) as { change: MemberChange; state: ChangeState; count: number }[];
    },
    refused(id, after, limit) {
      const rows = sql(
        db,
        "SELECT rowid AS row, member_id, email, change, verdict, score, reasons, words FROM planned_changes WHERE sync_id = ? AND state = 'refused' AND rowid > ? ORDER BY rowid LIMIT ?",
      ).all(id, after, limit) as (ChangeRow & { row: number; words: string })[];
      return rows.map((row) => ({ ...changeOf(row), row: row.row, words: row.words }));
    },
    outcomes(id, outcomes) {
      transaction(db, () => {
        const kept = sql(
          db,
          'UPDATE planned_changes SET state = ?, words = ? WHERE sync_id = ? AND member_id = ? AND change = ?',
        );
        for (const { memberId, change, done, words } of outcomes)
          kept.run(done ? 'done' : 'refused', words ?? null, id, memberId, change);
      });
    },
    sent(id, job, change, memberIds) {
      transaction(db, () => {
        const mark = sql(
          db,
          "UPDATE planned_changes SET state = 'sent', batch = ? WHERE sync_id = ? AND member_id = ? AND change = ?",
        );
        for (const memberId of memberIds) mark.run(job, id, memberId, change);
      });
    },
    sentJobs(id) {
      return sql(
        db,
        "SELECT DISTINCT batch AS job, change FROM planned_changes WHERE sync_id = ? AND state = 'sent' ORDER BY batch",
      ).all(id) as { job: string; change: MemberChange }[];
    },
    jobRead(id, job, words) {
      sql(
        db,
        "UPDATE planned_changes SET state = 'refused', words = ? WHERE sync_id = ? AND batch = ? AND state = 'sent'",
      ).run(words, id, job);
    },
    finish(id) {
      sql(db, "UPDATE syncs SET phase = 'done' WHERE id = ?").run(id);
    },
    close: () => db.close(),
  };
}
