// The outcome store (<data>/outcomes/outcomes.sqlite; its tables in outcome-store-schema.ts): every bounce
// read, from where and when, with the message it came from and what Sift had said of the address before;
// how far each source was read. All of its SQL is here.
import { sql, transaction, type Database } from '../storage/sqlite.ts';
import type { CheckedVerdict } from '../cache/index.ts';
import type { BounceKind } from './bounce-meaning.ts';
import { openOutcomeDatabase } from './outcome-store-schema.ts';

/** `team`: what teammates read, from a team's service (team-sharing.ts). */
export type SourceKind = 'imap' | 'file' | 'mailchimp' | 'hubspot' | 'mailman' | 'team';
export type OutcomeSource = {
  id: number;
  name: string;
  kind: SourceKind;
  cursor: string | null;
  readAt: number | null;
};

export type NewOutcome = {
  address: string;
  key: string;
  kind: BounceKind;
  reason: string;
  status?: string;
  /** The server's words. */
  words?: string;
  at: number;
  /** Sift's own verdict before the outcome, when it had one. */
  checked?: CheckedVerdict;
  /** This outcome's bounce took the place of that verdict in the verdict cache. */
  replaced?: boolean;
  /** Its id on a team's service, when a teammate read it. */
  remote?: string;
};
export type NewMessage = { ref: string; at: number; subject: string; raw?: Uint8Array; outcomes: NewOutcome[] };

type StoredOutcome = Omit<NewOutcome, 'checked' | 'replaced'> & {
  id: number;
  source: string;
  message: number | null;
  undoneAt: number | null;
  checkedResult: string | null;
  checkedAt: number | null;
};

/** A row of the ledger's raw counts: addresses by the day and result of Sift's check, and what happened. */
export type LedgerCount = {
  day: string | null;
  result: string | null;
  kind: BounceKind | 'replaced' | 'sent';
  addresses: number;
};

const outcomeColumns = `outcomes.id, sources.name AS source, message, address, key, outcomes.kind, reason, status, words, at,
  undone_at AS undoneAt, checked_result AS checkedResult, checked_at AS checkedAt`;

export function openOutcomeStore(dataDir: string) {
  const db: Database = openOutcomeDatabase(dataDir);
  const insertOutcome = (source: number, message: number | null, outcome: NewOutcome) =>
    Number(
      sql(
        db,
        `INSERT INTO outcomes (source, message, address, key, kind, reason, status, words, at, checked_result,
           checked_reason, checked_at, replaced, remote, shared) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO NOTHING`,
      ).run(
        source,
        message,
        outcome.address,
        outcome.key,
        outcome.kind,
        outcome.reason,
        outcome.status ?? null,
        outcome.words ?? null,
        outcome.at,
        outcome.checked?.result ?? null,
        outcome.checked?.reason ?? null,
        outcome.checked?.checkedAt ?? null,
        outcome.replaced ? 1 : 0,
        outcome.remote ?? null,
        // A teammate's outcome is the service's already.
        outcome.remote === undefined ? 0 : 1,
      ).changes,
    ) === 1;
  const sourceRow = (name: string) =>
    sql(db, 'SELECT id, name, kind, cursor, read_at AS readAt FROM sources WHERE name = ?').get(name) as
      OutcomeSource | undefined;
  return {
    source: sourceRow,
    /** The source of that name, made when new (one name, one kind). */
    ensureSource(name: string, kind: SourceKind): OutcomeSource {
      sql(db, 'INSERT INTO sources (name, kind) VALUES (?, ?) ON CONFLICT (name) DO NOTHING').run(name, kind);
      return sourceRow(name)!;
    },
    sources: () =>
      sql(db, 'SELECT id, name, kind, cursor, read_at AS readAt FROM sources ORDER BY name').all() as OutcomeSource[],
    /**
     * Keeps a page of what was read, and how far, in one transaction: a page read again after a crash adds
     * nothing twice. Answers the outcomes that were new.
     */
    record(
      source: number,
      page: { messages?: readonly NewMessage[]; outcomes?: readonly NewOutcome[]; cursor?: string },
    ) {
      return transaction(db, () => {
        const added: NewOutcome[] = [];
        for (const message of page.messages ?? []) {
          const inserted = sql(
            db,
            'INSERT INTO messages (source, ref, at, subject, raw) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
          ).run(source, message.ref, message.at, message.subject, message.raw ?? null);
          if (Number(inserted.changes) === 0) continue;
          const id = Number(inserted.lastInsertRowid);
          for (const outcome of message.outcomes) if (insertOutcome(source, id, outcome)) added.push(outcome);
        }
        for (const outcome of page.outcomes ?? []) if (insertOutcome(source, null, outcome)) added.push(outcome);
        if (page.cursor !== undefined)
          sql(db, 'UPDATE sources SET cursor = ?, read_at = ? WHERE id = ?').run(page.cursor, Date.now(), source);
        return added;
      });
    },
    /** Messages kept but not yet moved out of the mailbox (a read stopped between the two). */
    unmoved: (source: number) =>
      sql(db, 'SELECT id, ref FROM messages WHERE source = ? AND moved = 0 ORDER BY id').all(source) as {
        id: number;
        ref: string;
      }[],
    markMoved(ids: readonly number[]) {
      sql(db, 'UPDATE messages SET moved = 1 WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(ids));
    },
    /** The distinct UTC days an address soft-bounced on (undone ones left out), as YYYY-MM-DD. */
    softDays: (address: string) =>
      (
        sql(
          db,
          `SELECT DISTINCT date(at / 1000, 'unixepoch') AS day FROM outcomes
           WHERE address = ? AND kind = 'soft' AND undone_at IS NULL`,
        ).all(address) as { day: string }[]
      ).map((row) => row.day),
    /** What Sift had said of an address at its first outcome, kept from before a bounce replaced it. */
    earlierCheck(key: string): CheckedVerdict | undefined {
      const row = sql(
        db,
        `SELECT checked_result AS result, checked_reason AS reason, checked_at AS checkedAt FROM outcomes
         WHERE key = ? AND checked_at IS NOT NULL ORDER BY checked_at DESC LIMIT 1`,
      ).get(key) as CheckedVerdict | undefined;
      return row && { ...row };
    },
    /** A page of outcomes, newest first: from `offset`, or those older than the outcome `before` (O(page)). */
    page(query: { search: string; kind?: BounceKind; offset?: number; before?: number; limit: number }) {
      const pattern = `%${query.search
        .trim()
        .toLowerCase()
        .replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      return sql(
        db,
        `SELECT ${outcomeColumns} FROM outcomes JOIN sources ON sources.id = outcomes.source
         WHERE address LIKE ? ESCAPE '\\' AND (? IS NULL OR outcomes.kind = ?) AND outcomes.id < ?
         ORDER BY outcomes.id DESC LIMIT ? OFFSET ?`,
      ).all(
        pattern,
        query.kind ?? null,
        query.kind ?? null,
        query.before ?? Number.MAX_SAFE_INTEGER,
        query.limit,
        query.offset ?? 0,
      ) as StoredOutcome[];
    },
    outcome: (id: number) =>
      sql(
        db,
        `SELECT ${outcomeColumns} FROM outcomes JOIN sources ON sources.id = outcomes.source WHERE outcomes.id = ?`,
      ).get(id) as StoredOutcome | undefined,
    /** The message an outcome came from, as it arrived. */
    messageOf: (id: number) =>
      (sql(db, 'SELECT raw FROM messages WHERE id = ?').get(id) as { raw: Uint8Array | null } | undefined)?.raw ??
      undefined,
    /** Standing outcomes at or after `since`, a page at a time after the outcome `afterId` (O(page)). */
    standingSince: (since: number, afterId: number, limit: number) =>
      sql(
        db,
        `SELECT id, address, kind FROM outcomes WHERE undone_at IS NULL AND at >= ? AND id > ? ORDER BY id LIMIT ?`,
      ).all(since, afterId, limit) as { id: number; address: string; kind: BounceKind }[],
    /** Whether this source has an outcome of this kind for the address already. */
    hasOutcome: (source: number, address: string, kind: BounceKind) =>
      sql(db, 'SELECT 1 AS found FROM outcomes WHERE source = ? AND address = ? AND kind = ? LIMIT 1').get(
        source,
        address,
        kind,
      ) !== undefined,
    /** Keeps the last send to each address, with Sift's verdict then; answers how many were new or later. */
    recordSends(sends: readonly { key: string; domain: string; at: number; checked?: CheckedVerdict }[]): number {
      return transaction(db, () => {
        let changed = 0;
        for (const send of sends)
          changed += Number(
            sql(
              db,
              `INSERT INTO sends (key, at, checked_result, checked_at, domain) VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (key) DO UPDATE SET at = excluded.at, domain = excluded.domain,
                 checked_result = coalesce(excluded.checked_result, sends.checked_result),
                 checked_at = coalesce(excluded.checked_at, sends.checked_at)
               WHERE excluded.at > sends.at`,
            ).run(send.key, send.at, send.checked?.result ?? null, send.checked?.checkedAt ?? null, send.domain)
              .changes,
          );
        return changed;
      });
    },
    /**
     * Per domain, the sends to addresses Sift had called catch-all before them, and how many of those
     * addresses bounced hard after their check (a bounce undone does not count); with the first send.
     */
    catchAllSends(): { domain: string; sent: number; bounced: number; since: number }[] {
      return sql(
        db,
        `SELECT domain, COUNT(*) AS sent, MIN(at) AS since,
           SUM(EXISTS (SELECT 1 FROM outcomes AS o WHERE o.key = s.key AND o.kind = 'hard'
             AND o.undone_at IS NULL AND o.at >= s.checked_at)) AS bounced
         FROM sends AS s WHERE checked_result = 'catch_all' AND domain IS NOT NULL AND at >= checked_at
         GROUP BY domain`,
      ).all() as { domain: string; sent: number; bounced: number; since: number }[];
    },
    /** Whether any source reported who it sent to. */
    sendsKnown: () => sql(db, 'SELECT 1 AS found FROM sends LIMIT 1').get() !== undefined,
    /**
     * Marks an outcome as wrong; answers whether it was standing. The undo is for a team's service too,
     * unless it came from there.
     */
    undo: (id: number, now = Date.now(), fromTeam = false) =>
      Number(
        sql(db, 'UPDATE outcomes SET undone_at = ?, shared = shared * ? WHERE id = ? AND undone_at IS NULL').run(
          now,
          fromTeam ? 1 : 0,
          id,
        ).changes,
      ) === 1,
    /** Another standing hard bounce of the address, from any source. */
    hardElsewhere: (address: string, except: number) =>
      sql(
        db,
        "SELECT 1 AS found FROM outcomes WHERE address = ? AND kind = 'hard' AND undone_at IS NULL AND id != ? LIMIT 1",
      ).get(address, except) !== undefined,
    /**
     * The ledger's counts: each address once per check, under the worst that happened after it (hard, then
     * soft, then refused); `replaced`, the checks whose cache row a bounce took over (counted back in).
     */
    ledgerCounts(): LedgerCount[] {
      return sql(
        db,
        `SELECT day, result, CASE worst WHEN 3 THEN 'hard' WHEN 2 THEN 'soft' ELSE 'refused' END AS kind,
           COUNT(*) AS addresses FROM (
             SELECT date(checked_at / 1000, 'unixepoch') AS day, checked_result AS result,
               MAX(CASE kind WHEN 'hard' THEN 3 WHEN 'soft' THEN 2 ELSE 1 END) AS worst
             FROM outcomes WHERE undone_at IS NULL AND (checked_at IS NULL OR at >= checked_at)
             GROUP BY key, checked_at, checked_result)
         GROUP BY day, result, worst
         UNION ALL
         SELECT date(checked_at / 1000, 'unixepoch'), checked_result, 'replaced', COUNT(DISTINCT key)
         FROM outcomes WHERE replaced = 1 GROUP BY 1, 2
         UNION ALL
         SELECT date(checked_at / 1000, 'unixepoch'), checked_result, 'sent', COUNT(*)
         FROM sends WHERE checked_at IS NOT NULL AND at >= checked_at GROUP BY 1, 2`,
      ).all() as LedgerCount[];
    },
    counts: () =>
      sql(db, 'SELECT kind, COUNT(*) AS n FROM outcomes WHERE undone_at IS NULL GROUP BY kind').all() as {
        kind: BounceKind;
        n: number;
      }[],
    /** Removes a source and its outcomes: answers how many, and the hard-bounced addresses no other source holds. */
    removeSource(name: string): { outcomes: number; hard: { address: string; key: string }[] } {
      return transaction(db, () => {
        const { outcomes } = sql(
          db,
          'SELECT COUNT(*) AS outcomes FROM outcomes WHERE source = (SELECT id FROM sources WHERE name = ?)',
        ).get(name) as { outcomes: number };
        const hard = sql(
          db,
          `SELECT DISTINCT address, key FROM outcomes AS mine WHERE kind = 'hard'
             AND source = (SELECT id FROM sources WHERE name = ?)
             AND NOT EXISTS (SELECT 1 FROM outcomes AS other WHERE other.address = mine.address
               AND other.kind = 'hard' AND other.undone_at IS NULL AND other.source != mine.source)`,
        ).all(name) as { address: string; key: string }[];
        // A source a team's service has heard of is forgotten there too, at the next sharing.
        sql(
          db,
          'INSERT INTO team_forgets (team_id) SELECT team_id FROM sources WHERE name = ? AND team_id IS NOT NULL',
        ).run(name);
        sql(db, 'DELETE FROM sources WHERE name = ?').run(name);
        return { outcomes, hard: hard.map((row) => ({ ...row })) };
      });
    },
    /** The database itself, for the team sharing's own SQL (team-share-store.ts). */
    database: db,
    close: () => db.close(),
  };
}
export type OutcomeStore = ReturnType<typeof openOutcomeStore>;
