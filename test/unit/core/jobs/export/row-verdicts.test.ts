// Each row's verdict in row order, across many chunks of rows: a repeat is a duplicate wherever its
// first row was, and rows without an address have none.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openJobStore } from '../../../../../electron/core/jobs/store/index.ts';
import { jobSettings } from '../../../../../electron/core/jobs/job-settings.ts';
import { importList } from '../../../../../electron/core/jobs/import/list-import.ts';
import { rowsPerChunk } from '../../../../../electron/core/jobs/store/list-types.ts';
import { column, createRowVerdicts } from '../../../../../electron/core/jobs/export/row-verdicts.ts';
import { seededRandom } from '../../../../support/seeded-random.ts';

const dir = await mkdtemp(join(tmpdir(), 'sift-row-verdicts-'));
const store = openJobStore(join(dir, 'data'));
afterAll(() => store.close());

describe('row verdicts', () => {
  it('mark every repeat of an address as a duplicate, however far from its first row', async () => {
    const random = seededRandom(5);
    const rows = rowsPerChunk * 3 + 17;
    // Addresses written as the same one in other case and spacing, some from chunks back, and empty cells.
    const cells = Array.from({ length: rows }, (_, row) => {
      if (random() < 0.05) return '';
      const n = random() < 0.3 ? Math.floor(random() * (row + 1)) : row;
      return random() < 0.5 ? `Person.${n}@Example.com` : ` person.${n}@example.com `;
    });
    const input = join(dir, 'list.csv');
    await writeFile(input, `name,email\r\n${cells.map((cell, row) => `${row},"${cell}"\r\n`).join('')}`);
    const { job } = await importList(store, store.createJob(input, 'fp', jobSettings()));

    const verdicts = createRowVerdicts(store.listPath(job.id));
    const seen = new Set<string>();
    let duplicates = 0;
    for (let row = 1; row <= rows; row += 1) {
      await verdicts.readyFor(row);
      const verdict = verdicts.next(row)!;
      const key = cells[row - 1]!.trim().toLowerCase();
      expect(verdict.address === null, `row ${row}`).toBe(key === '');
      if (key === '') continue;
      expect(verdict.duplicate, `row ${row}`).toBe(seen.has(key));
      expect(verdict.address![column.result]).toBeNull();
      if (seen.has(key)) duplicates += 1;
      seen.add(key);
    }
    await verdicts.readyFor(rows + 1);
    expect(verdicts.next(rows + 1)).toBeUndefined();
    await verdicts.close();
    expect(duplicates).toBeGreaterThan(rowsPerChunk / 10);
    expect(job.precheck!.duplicates).toBe(duplicates);
  });
});
