// One list saved two ways: as UTF-8, which import and export read as bytes, and as Windows-1252, which
// they read as text through papaparse. A person must get the same rows, verdicts and files from either.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { jobSettings } from '../../../../electron/core/jobs/job-settings.ts';
import { openJobStore, type JobStore } from '../../../../electron/core/jobs/store/index.ts';
import { exportJob } from '../../../../electron/core/jobs/export/list-export.ts';
import { importList } from '../../../../electron/core/jobs/import/list-import.ts';

const listText = [
  'Prénom,E-mail,Société,Téléphone',
  'Zoé,zoe@Example.COM,"Dupont, Frères",+33 1 23 45 67',
  'Éric,  eric@example.com ,"Le ""Bon"" Café",=1+2',
  'Anaïs,not an address,Crème,-5',
  'René,zoe@example.com,,@here',
  'Gaël,"Gaël <gael@example.org>","ligne une',
  'ligne deux",',
  '',
  'Inès,ines@example.com',
].join('\r\n');

let stores: JobStore[] = [];
afterEach(() => {
  for (const store of stores) store.close();
  stores = [];
});

async function cleanedFiles(dir: string, name: string, bytes: Buffer) {
  const input = join(dir, `${name}.csv`);
  await writeFile(input, bytes);
  const store = openJobStore(join(dir, `data-${name}`));
  stores.push(store);
  const { job } = await importList(store, store.createJob(input, name, jobSettings({ bom: false })));
  const list = store.list(job.id);
  const [part] = list.planParts(10, () => 'key');
  list.setPartBatch(part!.part, 'bat_1');
  const addresses = list.addressesBetween(1, 100);
  list.recordResults(
    part!.part,
    addresses.map((address, i) => ({
      id: address.id,
      result: i % 2 ? 'invalid' : 'valid',
      billed: true,
      reason: null,
    })),
    { resultsIn: true },
  );
  store.setPhase(job.id, 'done');
  const out = await mkdtemp(join(dir, 'out-'));
  const result = await exportJob(store, store.getJob(job.id)!, out);
  return {
    rows: store.getJob(job.id)!.rowsTotal,
    cleaned: await readFile(result.cleanedPath, 'utf8'),
    annotated: await readFile(result.annotatedPath, 'utf8'),
  };
}

describe('a list in UTF-8 and in Windows-1252', () => {
  it('gives the same rows and the same files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-encodings-'));
    const utf8 = await cleanedFiles(dir, 'utf8', Buffer.from(listText, 'utf8'));
    const windows = await cleanedFiles(dir, 'windows', Buffer.from(listText, 'latin1'));
    expect(utf8.rows).toBe(6);
    expect(windows).toEqual(utf8);
    expect(utf8.annotated).toContain("'=1+2");
    expect(utf8.annotated).toContain('"ligne une\r\nligne deux"');
    expect(utf8.cleaned).toContain('Zoé,zoe@example.com,"Dupont, Frères",+33 1 23 45 67\r\n');
  });
});
