// History in the app, through the real dispatch and embedded service: the same list dropped twice is one
// entry, a list not yet cleaned changes column from its own copy, and deleting a job removes its files.
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { JobListItem, JobOverview, ListPreview } from '../../../../electron/common/contract.ts';
import { createAppRuntime, type AppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { appCaller } from '../../../support/app-call.ts';
import { waitFor } from '../../../support/service-harness.ts';

const web = { transport: 'web' as const };

const call = appCaller('web');

async function dropped(runtime: AppRuntime, path: string, name: string) {
  const { uploadId } = await runtime.uploads.save(createReadStream(path), name);
  return { kind: 'upload', uploadId };
}

describe('history', () => {
  it('keeps one entry per list and column, changes column from its own copy, and deletes a job whole', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-history-'));
    const source = join(dataDir, 'people.csv');
    const lines = ['Company,Email', ...Array.from({ length: 30 }, (_, i) => `Firm ${i},valid.p${i}@example.com`)];
    await writeFile(source, `${lines.join('\n')}\n`);
    const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
    // The first list is dropped for the second while its row text is being kept: nothing complains of it.
    const logged = vi.spyOn(console, 'error');
    try {
      const first = await call<JobOverview>(runtime, 'jobs:create', { file: await dropped(runtime, source, 'a.csv') });
      const again = await call<JobOverview>(runtime, 'jobs:create', { file: await dropped(runtime, source, 'a.csv') });
      expect(again.jobId).not.toBe(first.jobId);
      expect((await call<JobListItem[]>(runtime, 'jobs:list', {})).map((job) => job.jobId)).toEqual([again.jobId]);

      // A reopened job shows its list and changes column without the dropped file.
      const preview = await call<ListPreview>(runtime, 'jobs:preview', { jobId: again.jobId, maxRows: 5 });
      expect(preview.headers).toEqual(['Company', 'Email']);
      const company = await call<JobOverview>(runtime, 'jobs:remap', { jobId: again.jobId, column: 'Company' });
      expect(company).toMatchObject({ jobId: again.jobId, columnIndex: 0, precheck: { toCheck: 0, badSyntax: 30 } });
      const email = await call<JobOverview>(runtime, 'jobs:remap', { jobId: again.jobId, column: '2' });
      expect(email).toMatchObject({ columnIndex: 1, precheck: { toCheck: 30 }, cost: { checks: 30 } });
      const missing = await runtime.dispatch('jobs:remap', { jobId: again.jobId, column: 'Phone' }, web);
      expect(missing.ok).toBe(false);
      expect(await call<JobOverview>(runtime, 'jobs:get', { jobId: again.jobId })).toMatchObject({
        phase: 'imported',
        columnIndex: 1,
        precheck: { toCheck: 30 },
      });

      await call(runtime, 'jobs:start', { jobId: again.jobId });
      await waitFor(
        async () => (await call<JobOverview>(runtime, 'jobs:get', { jobId: again.jobId })).phase === 'done',
        15_000,
      );
      await call(runtime, 'jobs:export', { jobId: again.jobId, keep: ['valid'], perStatusFiles: true });
      const [listed] = await call<JobListItem[]>(runtime, 'jobs:list', {});
      expect(listed).toMatchObject({
        phase: 'done',
        rows: 30,
        service: "Sift's own service (sandbox)",
        summary: { to_check: 30, valid: 30 },
      });
      expect((await runtime.dispatch('jobs:remap', { jobId: again.jobId, column: '1' }, web)).ok).toBe(false);
      expect(await call(runtime, 'jobs:breakdown', { jobId: again.jobId })).toEqual({
        providers: [{ provider: 'Other', count: 30 }],
        topDomains: [{ domain: 'example.com', count: 30 }],
        unknownReasons: [],
        // Every address valid, with nothing to move its score: one group of 30.
        scoreGroups: [expect.objectContaining({ result: 'valid', role: false, suggested: false, count: 30 })],
        scoreWeights: {},
      });

      // The browser version has no Save dialog: it says so (downloads work instead).
      expect(await runtime.dispatch('exports:showInFolder', { downloadPath: 'downloads/x' }, web)).toMatchObject({
        ok: false,
        error: { code: 'bad_request' },
      });
      const files = [
        join(dataDir, 'inputs', `${again.jobId}.csv`),
        join(dataDir, 'exports', again.jobId),
        join(dataDir, 'jobs', `${again.jobId}.sqlite`),
      ];
      for (const path of files) expect(await stat(path)).toBeTruthy();
      const before = (await call<{ bytes: number }>(runtime, 'jobs:dataUsage', {})).bytes;
      const { freedBytes } = await call<{ freedBytes: number }>(runtime, 'jobs:delete', { jobId: again.jobId });
      expect(freedBytes).toBeGreaterThan((await stat(source)).size);
      for (const path of files) await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await readdir(join(dataDir, 'exports'))).toEqual([]);
      expect(await call<JobListItem[]>(runtime, 'jobs:list', {})).toEqual([]);
      expect((await call<{ bytes: number }>(runtime, 'jobs:dataUsage', {})).bytes).toBeLessThan(before);
      expect(await runtime.dispatch('jobs:get', { jobId: again.jobId }, web)).toMatchObject({
        ok: false,
        error: { code: 'not_found' },
      });
      expect(logged.mock.calls.filter(([line]) => String(line).includes('ENOENT'))).toEqual([]);
    } finally {
      logged.mockRestore();
      await runtime.close();
    }
  });
});
