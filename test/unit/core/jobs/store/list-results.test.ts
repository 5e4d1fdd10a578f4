// Recording a page of verdicts into a job's list: each address keeps its first verdict, the running totals
// count each address once however often a page (or a repeated page) names it, and a page's addresses are
// confirmed by their stored keys whether its ids are one dense range or scattered.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openListStore } from '../../../../../electron/core/jobs/store/list-store.ts';
import { checkedVerdicts } from '../../../../../electron/core/list-file/checked-verdicts.ts';
import { type VerdictRow } from '../../../../../electron/core/jobs/store/list-types.ts';

async function listOf(count: number, path?: string) {
  const list = openListStore(path ?? join(await mkdtemp(join(tmpdir(), 'sift-results-')), 'list.sqlite'));
  const ids = Array.from({ length: count }, (_, i) => i + 1);
  list.appendImport(
    ids.map((id) => ({
      id,
      key: `person.${id}@example.com`,
      address: `Person.${id}@example.com`,
      firstRow: id,
      sendable: true,
      role: false,
      disposable: false,
      suggestion: null,
    })),
    1,
    new Int32Array(ids),
  );
  return list;
}

const verdictOf = (id: number, result: string, billed = result !== 'unknown'): VerdictRow => ({
  id,
  result,
  billed,
  reason: `${result}_reason`,
});

describe('recording verdicts', () => {
  it.each([
    ['looked up', false],
    ['matched in the order sent', true],
  ])('keeps the first verdict of each address and counts it once, across pages (rows %s)', async (_, sentPending) => {
    const verdict = (id: number, result: string) => ({ ...verdictOf(id, result), sentPending });
    const list = await listOf(100);
    list.planParts(50, (part) => `key-${part}`);
    // 70 rows: more than one multi-row statement's worth, with ids 5 and 40 named twice on the page.
    const page = [
      ...Array.from({ length: 60 }, (_, i) => verdict(i + 1, i % 10 === 0 ? 'unknown' : 'valid')),
      verdict(5, 'invalid'),
      verdict(40, 'invalid'),
      ...Array.from({ length: 8 }, (_, i) => verdict(61 + i, 'catch_all')),
    ];
    expect(list.recordResults(1, page, {})).toBe(68);
    // The same page again (a crash before its position was kept) and one new address.
    expect(list.recordResults(1, [...page, verdict(99, 'invalid')], { resultsIn: true, endStatus: 'complete' })).toBe(
      1,
    );
    // The batch's end status landed with its last verdicts.
    expect(list.parts().find((part) => part.part === 1)).toMatchObject({ resultsIn: true, status: 'complete' });

    expect(Object.fromEntries(list.counters())).toEqual({
      checked: 69,
      billed: 63,
      'result:valid': 54,
      'result:unknown': 6,
      'result:catch_all': 8,
      'result:invalid': 1,
    });
    const stored = new Map(list.addressesBetween(1, 100).map((address) => [address.id, address]));
    expect(stored.get(5)).toMatchObject({ result: 'valid', billed: true, reason: 'valid_reason' });
    expect(stored.get(40)).toMatchObject({ result: 'valid' });
    expect(stored.get(11)).toMatchObject({ result: 'unknown', billed: false });
    expect(stored.get(99)).toMatchObject({ result: 'invalid' });
    expect(stored.get(100)).toMatchObject({ result: null });
    expect(list.checkedCount()).toBe(69);
    list.close();
  });

  it('gives no verdict to an address that had one in its own row (from the import, or recorded there by an older Sift)', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'sift-results-')), 'list.sqlite');
    (await listOf(10, path)).close();
    const older = new DatabaseSync(path);
    older.exec("UPDATE addresses SET result = 'invalid', billed = 1, reason = 'kept' WHERE id IN (3, 7)");
    older.close();
    const list = openListStore(path);
    list.planParts(10, (part) => `key-${part}`);
    expect(list.recordResults(0, [verdictOf(3, 'valid'), verdictOf(4, 'valid'), verdictOf(7, 'unknown')], {})).toBe(1);
    expect(list.address(3)).toMatchObject({ result: 'invalid', reason: 'kept' });
    expect(list.address(4)).toMatchObject({ result: 'valid', reason: 'valid_reason' });
    expect(list.address(7)).toMatchObject({ result: 'invalid', reason: 'kept' });
    expect(Object.fromEntries(list.counters())).toEqual({ checked: 1, billed: 1, 'result:valid': 1 });
    list.close();
  });

  it('hands the verdict cache the verdicts a service gave, wherever they were recorded, and no others', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'sift-results-')), 'list.sqlite');
    const list = await listOf(8, path);
    list.planParts(10, (part) => `key-${part}`);
    list.recordResults(0, [verdictOf(1, 'valid'), verdictOf(2, 'unknown'), verdictOf(3, 'invalid')], {});
    list.close();
    const older = new DatabaseSync(path);
    // An older Sift's verdict in the address's row, one reused from the cache, and bad syntax.
    older.exec(`UPDATE addresses SET result = 'catch_all', reason = 'old' WHERE id = 5;
      UPDATE addresses SET result = 'valid', cached_at = 1 WHERE id = 6;
      UPDATE addresses SET result = 'invalid', sendable = 0 WHERE id = 7`);
    older.close();
    const kept = [...checkedVerdicts(path, ['valid', 'invalid', 'catch_all'], 2)].flat();
    expect(kept.map(([key, result, reason]) => [key, result, reason]).sort()).toEqual([
      ['person.1@example.com', 'valid', 'valid_reason'],
      ['person.3@example.com', 'invalid', 'invalid_reason'],
      ['person.5@example.com', 'catch_all', 'old'],
    ]);
  });

  it('finds the stored keys of a dense run of ids and of scattered ids', async () => {
    const list = await listOf(5000);
    const dense = Array.from({ length: 300 }, (_, i) => 1000 + i);
    const scattered = [3, 2500, 4999, 17];
    for (const ids of [dense, scattered, [42]]) {
      const keys = list.keysOf(ids);
      for (const id of ids) expect(keys.get(id)).toBe(`person.${id}@example.com`);
    }
    expect(list.keysOf([]).size).toBe(0);
    list.close();
  });
});
