// The import corpus: each spreadsheet export imports right, or gets its clear error with nothing written.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openJobStore } from '../../../../../electron/core/jobs/store/index.ts';
import { jobSettings } from '../../../../../electron/core/jobs/job-settings.ts';
import { importList } from '../../../../../electron/core/jobs/import/list-import.ts';

const dataDir = await mkdtemp(join(tmpdir(), 'sift-import-'));
const store = openJobStore(dataDir);
afterAll(() => store.close());
const fixture = (name: string) => new URL(`../../../../fixtures/import/${name}`, import.meta.url).pathname;

/** What the list store holds for a job: the addresses to send, in order, and each row's status. */
function listed(jobId: string) {
  const list = store.list(jobId);
  const addresses = list.addressesBetween(1, Number.MAX_SAFE_INTEGER);
  const byId = new Map(addresses.map((address) => [address.id, address]));
  const statuses = [...list.rowChunks()].flatMap(({ addressIds }) =>
    [...addressIds].map((id) => (id === 0 ? 'no_address' : byId.get(id)!.sendable ? 'ok' : 'syntax')),
  );
  return { addresses: addresses.filter((address) => address.sendable).map((address) => address.address), statuses };
}

async function imported(name: string, column?: string) {
  const { job } = await importList(store, store.createJob(fixture(name), 'fp', jobSettings({ column })));
  return { job, ...listed(job.id) };
}

describe('importing the corpus', () => {
  it('reads Excel "CSV UTF-8" with its BOM and an "E-mail Address" header', async () => {
    const { job, addresses } = await imported('excel-csv-utf8.csv');
    expect(job).toMatchObject({
      hasHeader: true,
      columnIndex: 2,
      delimiter: ',',
      rowsTotal: 3,
      headers: ['First name', 'Last name', 'E-mail Address'],
    });
    expect(addresses).toEqual(['valid.zoe@example.com', 'invalid.jose@example.es', 'catchall.m@example.de']);
  });

  it('reads Excel "Unicode Text" (UTF-16 LE, tabs)', async () => {
    const { job, addresses } = await imported('excel-unicode-text.txt');
    expect(job).toMatchObject({ delimiter: '\t', columnIndex: 1, headers: ['Name', 'Email', 'City'] });
    expect(addresses).toEqual(['valid.renee@example.fr', 'valid.li@example.cn']);
  });

  it('reads Windows-1252 with accented names and a French header', async () => {
    const { job, addresses } = await imported('windows-1252.csv');
    expect(job).toMatchObject({ delimiter: ';', columnIndex: 1, headers: ['Nom', 'Courriel'] });
    expect(addresses).toHaveLength(3);
  });

  it('reads semicolons even when the cells hold decimal commas', async () => {
    const { job, addresses } = await imported('semicolon.csv');
    expect(job).toMatchObject({ delimiter: ';', columnIndex: 0 });
    expect(addresses).toEqual(['valid.a@example.com', 'invalid.b@example.com']);
  });

  it('reads quoted fields holding commas, quotes and newlines', async () => {
    const { job, addresses } = await imported('quoted-multiline.csv');
    expect(job.rowsTotal).toBe(2);
    expect(addresses).toEqual(['valid.q@example.com', 'valid.r@example.com']);
  });

  it('reads ragged rows', async () => {
    const { job, addresses } = await imported('ragged.csv');
    expect(job.rowsTotal).toBe(3);
    expect(addresses).toEqual(['valid.short@example.com', 'valid.full@example.com', 'valid.long@example.com']);
  });

  it('sees that there is no header row', async () => {
    const { job, addresses, statuses } = await imported('no-header.csv');
    expect(job).toMatchObject({ hasHeader: false, columnIndex: 0, rowsTotal: 3 });
    expect(addresses).toEqual(['valid.one@example.com', 'valid.two@example.com']);
    expect(statuses).toEqual(['ok', 'ok', 'syntax']);
  });

  it('picks the "Email" column over "Manager Email", and takes a column named by hand', async () => {
    expect((await imported('two-email-columns.csv')).job.columnIndex).toBe(1);
    const byHand = await imported('two-email-columns.csv', 'Manager Email');
    expect(byHand.job.columnIndex).toBe(0);
    expect(byHand.addresses).toEqual(['boss@example.com']);
    expect((await imported('two-email-columns.csv', '2')).job.columnIndex).toBe(1);
    await expect(imported('two-email-columns.csv', 'Phone')).rejects.toMatchObject({
      message: expect.stringContaining('has no column "Phone"'),
    });
  });

  it.each([
    ['empty.csv', /is empty/],
    ['binary.csv', /binary data/],
    ['no-email-column.csv', /no column of email addresses/],
    ['missing.csv', /cannot open/],
  ])('refuses %s with a clear error and stores no rows', async (name, message) => {
    const job = store.createJob(fixture(name), 'fp', jobSettings());
    await expect(importList(store, job)).rejects.toMatchObject({
      code: expect.any(String),
      message: expect.stringMatching(message),
    });
    expect(listed(job.id)).toEqual({ addresses: [], statuses: [] });
  });
});

describe('telling the caller the list needs a service', () => {
  const told = async (lines: string[]) => {
    const path = join(dataDir, `told-${lines.length}.csv`);
    await writeFile(path, `Email\n${lines.join('\n')}\n`);
    let times = 0;
    await importList(store, store.createJob(path, 'fp', jobSettings({ column: 'Email' })), {
      onToSend: () => (times += 1),
    });
    return times;
  };

  it('tells once, however many chunks hold addresses to send', async () => {
    expect(await told(Array.from({ length: 10_000 }, (_, i) => `valid.${i}@example.com`))).toBe(1);
  });

  it('never tells for a list the pre-check settles wholly', async () => {
    expect(await told(['not an address', 'two@@example.com', '', 'x@'])).toBe(0);
  });
});
