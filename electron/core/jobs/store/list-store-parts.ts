// The parts of a job's list: the batches its addresses are sent in, planned once with their
// Idempotency-Keys before sending, and planned again for what a canceled or failed batch left unchecked.
// The parts table belongs to the list's file (list-store.ts); its SQL is here.
import { sql, transaction, type Database } from '../../storage/sqlite.ts';
import { completeStatus } from '../../wire/spec.ts';
import { toPart, type PartRow } from './list-store-schema.ts';
import { splitStatus, supersededStatus, type ListParts, type Part, type PartRoute } from './list-types.ts';

/** Address ids per read when a part's addresses are written out. */
const idsPerRead = 50_000;

/** A part's ids as ranges of at most `idsPerRead`, each read by one query. */
function* idRanges(part: Pick<Part, 'firstId' | 'lastId'>): Generator<[first: number, last: number]> {
  for (let first = part.firstId; first <= part.lastId; first += idsPerRead) {
    yield [first, Math.min(part.lastId, first + idsPerRead - 1)];
  }
}

export function partsOf(db: Database): ListParts {
  /**
   * The addresses a part sends: every sendable one, or only those still without a verdict (from the import,
   * or from the service: a look into verdicts per row costs less than the view's join).
   */
  const toSend = (pendingOnly: boolean) =>
    pendingOnly
      ? 'addresses WHERE sendable = 1 AND result IS NULL AND NOT EXISTS (SELECT 1 FROM verdicts WHERE verdicts.id = addresses.id)'
      : 'addresses WHERE sendable = 1';

  /**
   * Adds parts of `perPart` addresses to send (fewer in the last), numbered after the existing ones: each
   * part's first id, and the id of the address `count - 1` further on, found by SQLite in the id index
   * rather than by reading every row here. Call inside a transaction.
   */
  function insertParts(
    perPart: number,
    keyFor: (part: number) => string,
    limit: number,
    pendingOnly: boolean,
    from: { id: number; via: PartRoute | null } = { id: 0, via: null },
  ): number {
    const insert = sql(
      db,
      'INSERT INTO parts (part, idempotency_key, first_id, last_id, addresses, pending_only, via) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const nth = sql(db, `SELECT id FROM ${toSend(pendingOnly)} AND id >= ? ORDER BY id LIMIT 1 OFFSET ?`);
    const countFrom = sql(db, `SELECT COUNT(*) AS n FROM ${toSend(pendingOnly)} AND id >= ?`);
    const planned = Math.min(limit, (countFrom.get(from.id) as { n: number }).n);
    let number = (sql(db, 'SELECT COALESCE(MAX(part) + 1, 0) AS next FROM parts').get() as { next: number }).next;
    for (let remaining = planned, fromId = from.id; remaining > 0; number += 1) {
      const count = Math.min(perPart, remaining);
      const first = (nth.get(fromId, 0) as { id: number }).id;
      const last = (nth.get(first, count - 1) as { id: number }).id;
      insert.run(number, keyFor(number), first, last, count, pendingOnly ? 1 : 0, from.via);
      remaining -= count;
      fromId = last + 1;
    }
    return planned;
  }

  const parts = (): Part[] => (sql(db, 'SELECT * FROM parts ORDER BY part').all() as PartRow[]).map(toPart);

  return {
    /** The part's addresses to send, in id order, a range of ids at a time (cheaper than a row at a time). */
    *sendableAddresses(part: Pick<Part, 'firstId' | 'lastId' | 'pendingOnly'>): Generator<string[]> {
      const rows = sql(db, `SELECT address FROM ${toSend(part.pendingOnly)} AND id BETWEEN ? AND ? ORDER BY id`);
      rows.setReturnArrays(true);
      for (const [first, last] of idRanges(part)) {
        yield (rows.all(first, last) as unknown as [string][]).map((row) => row[0]);
      }
    },

    *sentKeys(part: Pick<Part, 'firstId' | 'lastId'>): Generator<[number, string][]> {
      // Only addresses without a verdict from the import (one reused from the cache, or an older Sift's):
      // a row matched to one of these needs no look at the address. The service's verdicts are left out
      // of the test, as those recorded since the part was sent would leave gaps in the order.
      const rows = sql(
        db,
        'SELECT id, key FROM addresses WHERE sendable = 1 AND result IS NULL AND id BETWEEN ? AND ? ORDER BY id',
      );
      rows.setReturnArrays(true);
      for (const [first, last] of idRanges(part)) yield rows.all(first, last) as unknown as [number, string][];
    },

    /**
     * Splits the sendable addresses (the first `limit` of them) into parts of at most `perPart`, each with
     * its key, once, before sending. Addresses that have a verdict already (reused from the verdict cache)
     * are left out: the parts send only those still without one.
     */
    planParts(perPart: number, idempotencyKeyFor: (part: number) => string, limit = Number.POSITIVE_INFINITY): Part[] {
      transaction(db, () => {
        if ((sql(db, 'SELECT COUNT(*) AS n FROM parts').get() as { n: number }).n > 0) return;
        const known = sql(
          db,
          // A verdict from the import, or one a service gave (an older Sift's is in the address row): not
          // through the view, which would look into verdicts for each of a million addresses without one.
          `SELECT EXISTS (SELECT 1 FROM addresses WHERE sendable = 1 AND result IS NOT NULL)
             OR EXISTS (SELECT 1 FROM verdicts) AS known`,
        );
        insertParts(perPart, idempotencyKeyFor, limit, (known.get() as { known: number }).known === 1);
      });
      return parts();
    },

    /**
     * After a canceled or failed batch: the parts that ended are set aside and the addresses still without a
     * verdict go into new parts with new keys, to be sent again. Answers how many will be sent.
     */
    planRetry(perPart: number, idempotencyKeyFor: (part: number) => string): number {
      return transaction(db, () => {
        sql(db, 'UPDATE parts SET status = ? WHERE results_in = 1 AND status <> ?').run(
          supersededStatus,
          completeStatus,
        );
        return insertParts(perPart, idempotencyKeyFor, Number.POSITIVE_INFINITY, true);
      });
    },

    parts,

    /**
     * Replaces a part never sent by parts of at most `perPart` of the same addresses, each with a new key and
     * the same route (the service refused it for its size, or its route takes smaller parts). Safe only
     * while nothing was created for it: its key is never sent again.
     */
    splitPart(part: Part, perPart: number, idempotencyKeyFor: (part: number) => string): void {
      transaction(db, () => {
        sql(db, 'UPDATE parts SET status = ? WHERE part = ? AND batch_id IS NULL').run(splitStatus, part.part);
        insertParts(perPart, idempotencyKeyFor, part.addresses, part.pendingOnly, { id: part.firstId, via: part.via });
      });
    },

    /** On cancel: parts not sent yet are set aside, never to be sent; a retry plans their addresses again. */
    setAsideUnsent(): void {
      sql(db, 'UPDATE parts SET status = ? WHERE batch_id IS NULL AND status = ?').run(supersededStatus, 'pending');
    },

    /** Chooses how a part goes, before it is sent; a new key with it when the part had gone another way. */
    setPartRoute(part: number, via: PartRoute, idempotencyKey?: string): void {
      if (idempotencyKey)
        sql(db, 'UPDATE parts SET via = ?, idempotency_key = ? WHERE part = ?').run(via, idempotencyKey, part);
      else sql(db, 'UPDATE parts SET via = ? WHERE part = ?').run(via, part);
    },

    setPartBatch(part: number, batchId: string): void {
      sql(db, "UPDATE parts SET batch_id = ?, status = 'running' WHERE part = ?").run(batchId, part);
    },

    setPartStatus(part: number, status: string): void {
      sql(db, 'UPDATE parts SET status = ? WHERE part = ?').run(status, part);
    },
  };
}
