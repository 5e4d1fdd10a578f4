// Export when things go wrong: a folder Sift may not write to, a disk that is full, an input that
// changed since it was checked. Each gets its own clear error, leaves no partial file, and the job can
// be exported later, with nothing sent again.
import { chmod, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { jobSettings } from '../../../../electron/core/jobs/job-settings.ts';
import { openJobStore, type JobRecord, type JobStore } from '../../../../electron/core/jobs/store/index.ts';
import { exportJob } from '../../../../electron/core/jobs/export/list-export.ts';
import { importList } from '../../../../electron/core/jobs/import/list-import.ts';

const listText = 'email,name\nvalid.a@example.com,A\nvalid.b@example.com,B\ninvalid.c@example.com,C\n';

let dir: string;
let store: JobStore;
let job: JobRecord;

/** A job whose verdicts are in, made without a service: the list store is filled as the runner would. */
async function finishedJob(): Promise<JobRecord> {
  const input = join(dir, 'people.csv');
  await writeFile(input, listText);
  const { job: imported } = await importList(store, store.createJob(input, 'fp', jobSettings({ bom: false })));
  const list = store.list(imported.id);
  const [part] = list.planParts(10, () => 'key');
  list.setPartBatch(part!.part, 'bat_1');
  list.recordResults(
    part!.part,
    list.addressesBetween(1, 3).map((address) => ({
      id: address.id,
      result: address.address.startsWith('valid') ? 'valid' : 'invalid',
      billed: true,
      reason: null,
    })),
    { resultsIn: true },
  );
  store.setPhase(imported.id, 'done');
  return store.getJob(imported.id)!;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sift-export-'));
  store?.close();
  store = openJobStore(join(dir, 'data'));
  job = await finishedJob();
});

const outputsIn = async (folder: string) => (await readdir(folder)).filter((name) => name.startsWith('people.')).sort();

describe('export', () => {
  it('refuses a folder it may not write to, then writes to one it may', async () => {
    let folder = '/sys'; // read-only even for root, who may write into any chmod-ed folder
    if (process.getuid?.() !== 0) {
      folder = join(dir, 'locked');
      await mkdir(folder);
      await chmod(folder, 0o500);
    }
    await expect(exportJob(store, job, folder)).rejects.toMatchObject({
      code: 'unwritable',
      message: expect.stringContaining(`may not write to ${folder}`),
    });
    await expect(exportJob(store, job, join(dir, 'missing'))).rejects.toMatchObject({
      code: 'unwritable',
      message: expect.stringContaining('does not exist'),
    });
    const out = join(dir, 'out');
    await mkdir(out);
    await exportJob(store, job, out);
    expect(await outputsIn(out)).toEqual([
      'people.demo.annotated.csv',
      'people.demo.cleaned.csv',
      'people.demo.summary.json',
    ]);
  });

  it('says the disk is full, leaves nothing half-written, and exports once there is room', async () => {
    const out = join(dir, 'out');
    await mkdir(out);
    // Every write to /dev/full fails with ENOSPC, as on a full disk.
    await symlink('/dev/full', join(out, 'people.demo.annotated.csv.partial'));
    await expect(exportJob(store, job, out)).rejects.toMatchObject({
      code: 'unwritable',
      message: expect.stringContaining('is full'),
    });
    expect(await readdir(out)).toEqual([]);
    const { summary } = await exportJob(store, job, out);
    expect(summary).toMatchObject({ valid: 2, invalid: 1, billed: 3 });
    expect((await readFile(join(out, 'people.demo.cleaned.csv'), 'utf8')).split('\r\n')).toEqual([
      'email,name',
      'valid.a@example.com,A',
      'valid.b@example.com,B',
      '',
    ]);
  });

  it.each([
    [
      'sorted',
      'email,name\nvalid.b@example.com,B\nvalid.a@example.com,A\ninvalid.c@example.com,C\n',
      'its contents differ',
    ],
    ['edited', listText.replace('B\n', 'Bea\n'), 'its contents differ'],
    ['grown', `${listText}valid.d@example.com,D\n`, 'more than the 3 rows'],
    ['shrunk', 'email,name\nvalid.a@example.com,A\n', 'has 1 rows now'],
  ])('refuses an input that was %s since it was checked', async (_how, text, detail) => {
    await writeFile(job.inputPath, text);
    const out = join(dir, 'out');
    await mkdir(out);
    await expect(exportJob(store, job, out)).rejects.toMatchObject({
      code: 'input_changed',
      message: expect.stringContaining(detail),
    });
    expect(await readdir(out)).toEqual([]);
    await writeFile(job.inputPath, listText);
    await exportJob(store, job, out);
    expect(await outputsIn(out)).toHaveLength(3);
  });
});
