// A part's results, read into the list as one download or page by page: rows in the order the part was
// sent are matched by position, and rows a service moved, left out, guarded like a formula or never sent
// still land on the right address (or on none), whatever the order.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAddressIndex } from '../../../../../electron/core/email/address-index.ts';
import { downloadPartResults, pagePartResults } from '../../../../../electron/core/jobs/run/part-results.ts';
import { openListStore } from '../../../../../electron/core/jobs/store/list-store.ts';

const addresses = Array.from({ length: 40 }, (_, i) => (i === 7 ? '=cmd@example.com' : `Person.${i + 1}@example.com`));

/** The rows as a CSV download, or as cursor pages of 7 rows (a page limit the service chose), then `complete`. */
async function readResults(rows: string[], way: 'download' | 'pages') {
  const dir = await mkdtemp(join(tmpdir(), 'sift-part-results-'));
  const list = openListStore(join(dir, 'list.sqlite'));
  const index = createAddressIndex();
  const records = addresses.map((address, i) => ({
    id: i + 1,
    key: address.toLowerCase(),
    address,
    firstRow: i + 1,
    sendable: true,
    role: false,
    disposable: false,
    suggestion: null,
  }));
  list.appendImport(records, 1, new Int32Array(records.map((record) => record.id)));
  for (const record of records) index.add(record.key, record.id);
  const [part] = list.planParts(1000, (number) => `key-${number}`);
  const client = {
    downloadCsv: async (_batch: string, file: string) => {
      await writeFile(file, `email,result,billed,reason\n${rows.join('\n')}\n`);
    },
    getResultsPage: async (_batch: string, { cursor }: { cursor: string | null }) => {
      const from = Number(cursor ?? 0);
      const data = rows.slice(from, from + 7).map((line) => {
        const [email, result, billed, reason] = line.split(',');
        return { email, result, billed: billed === 'true', reason };
      });
      const more = from + 7 < rows.length;
      return { data, has_more: more, next_cursor: more ? String(from + 7) : null };
    },
    getBatch: async () => ({ id: 'batch_1', status: 'complete', submitted: rows.length, unique: rows.length }),
  };
  const sent = { ...part!, batchId: 'batch_1' };
  if (way === 'download')
    await downloadPartResults(list, index, client as never, sent, {
      file: join(dir, 'part.results'),
      endStatus: 'complete',
    });
  else await pagePartResults(list, index, client as never, sent, { pollIntervalMs: 1 });
  return list;
}

const row = (address: string, result: string) => `${address},${result},true,${result}_of_${address.toLowerCase()}`;

describe.each(['download', 'pages'] as const)('reading a part’s results (%s)', (way) => {
  it('lands every row on its address whatever the order, and none on an address never sent', async () => {
    const order = addresses.map((_, i) => i);
    // Rows 3 and 20 swap places, row 12 is left out, and one address the part never had is added.
    [order[3], order[20]] = [order[20]!, order[3]!];
    order.splice(12, 1);
    const rows = order.map((i) =>
      row(i === 7 ? "'=cmd@example.com" : addresses[i]!.toUpperCase(), i % 2 === 0 ? 'valid' : 'invalid'),
    );
    rows.splice(30, 0, row('stranger@example.com', 'valid'));
    const list = await readResults(rows, way);
    for (let i = 0; i < addresses.length; i += 1) {
      const stored = list.address(i + 1)!;
      if (i === 12) expect(stored.result).toBeNull();
      else {
        expect(stored.result).toBe(i % 2 === 0 ? 'valid' : 'invalid');
        expect(stored.reason).toContain(addresses[i]!.toLowerCase());
      }
    }
    expect(list.checkedCount()).toBe(addresses.length - 1);
    expect(list.parts()[0]).toMatchObject({ resultsIn: true, status: 'complete' });
    list.close();
  });
});
