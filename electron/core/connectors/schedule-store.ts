// A connected list synced again every day, week or month (`sift schedule`, `sift sync --due`): kept in the
// sync store's database (sync-store-schema.ts).
import { sql } from '../storage/sqlite.ts';
import { invalidStepFlags, readChoiceInFlags, scoreFieldsFlag, type ReadChoice } from './connector.ts';
import { openSyncDatabase } from './sync-store-schema.ts';

/** A list synced again every `everyDays`: due from `nextDue` (ms). */
export type Schedule = {
  connection: string;
  audience: string;
  everyDays: number;
  writeBack: boolean;
  /** The flags the run passes on to sift sync (--keep, --remove, --base-url, --archive-invalid, …), as given. */
  cleanFlags: string[];
  /** The flags ask for the tool's step for invalid members (connector.ts's invalidStepFlags). */
  withInvalidStep: boolean;
  /** The flags ask for the score fields (connector.ts's scoreFieldsFlag). */
  withScoreFields: boolean;
  /** Which of the list's members each run reads (`--include`, `--segment`). */
  readChoice: ReadChoice;
  nextDue: number;
  lastRun: number | null;
  lastOutcome: string | null;
};

export type ScheduleStore = {
  /** Keeps a list's schedule (replacing its earlier one), first due at `firstDue` (ms). */
  schedule(
    connection: string,
    audience: string,
    everyDays: number,
    writeBack: boolean,
    cleanFlags: readonly string[],
    firstDue: number,
  ): void;
  unschedule(connection: string, audience: string): boolean;
  /** Drops every schedule of a connection that is gone (a due run would only fail for want of it); answers how many. */
  unscheduleConnection(connection: string): number;
  schedules(): Schedule[];
  /**
   * Takes a due run for this process: its next time moves on now, so the app and `sift sync --due` (from
   * cron) never run the same schedule at once. Answers whether it was still due (`now` or before).
   */
  claim(connection: string, audience: string, now: number): boolean;
  /** A scheduled run ended at `now` with `outcome` (in words); it is next due `everyDays` later. */
  ranSchedule(connection: string, audience: string, now: number, outcome: string): void;
  close(): void;
};

export function openScheduleStore(dataDir: string): ScheduleStore {
  const db = openSyncDatabase(dataDir);
  return {
    schedule(connection, audience, everyDays, writeBack, cleanFlags, firstDue) {
      sql(
        db,
        `INSERT INTO schedules (connection, audience, every_days, write_back, clean_flags, next_due) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (connection, audience) DO UPDATE SET every_days = excluded.every_days, write_back = excluded.write_back,
           clean_flags = excluded.clean_flags, next_due = excluded.next_due`,
      ).run(connection, audience, everyDays, writeBack ? 1 : 0, JSON.stringify(cleanFlags), firstDue);
    },
    unschedule(connection, audience) {
      return (
        sql(db, 'DELETE FROM schedules WHERE connection = ? AND audience = ?').run(connection, audience).changes > 0
      );
    },
    unscheduleConnection(connection) {
      return Number(sql(db, 'DELETE FROM schedules WHERE connection = ?').run(connection).changes);
    },
    schedules() {
      const rows = sql(db, 'SELECT * FROM schedules ORDER BY next_due, connection, audience').all() as {
        connection: string;
        audience: string;
        every_days: number;
        write_back: number;
        next_due: number;
        last_run: number | null;
        last_outcome: string | null;
        clean_flags: string;
      }[];
      const stepFlags: readonly string[] = Object.values(invalidStepFlags);
      return rows.map((row) => {
        const cleanFlags = JSON.parse(row.clean_flags) as string[];
        return {
          connection: row.connection,
          audience: row.audience,
          everyDays: row.every_days,
          writeBack: row.write_back === 1,
          cleanFlags,
          withInvalidStep: cleanFlags.some((flag) => stepFlags.includes(flag)),
          withScoreFields: cleanFlags.includes(scoreFieldsFlag),
          readChoice: readChoiceInFlags(cleanFlags),
          nextDue: row.next_due,
          lastRun: row.last_run,
          lastOutcome: row.last_outcome,
        };
      });
    },
    claim(connection, audience, now) {
      return (
        sql(
          db,
          'UPDATE schedules SET next_due = ? + every_days * 86400000 WHERE connection = ? AND audience = ? AND next_due <= ?',
        ).run(now, connection, audience, now).changes > 0
      );
    },
    ranSchedule(connection, audience, now, outcome) {
      sql(
        db,
        'UPDATE schedules SET last_run = ?, last_outcome = ?, next_due = ? + every_days * 86400000 WHERE connection = ? AND audience = ?',
      ).run(now, outcome, now, connection, audience);
    },
    close: () => db.close(),
  };
}
