// The do-not-mail list in the app, through the real dispatch and Sift's own service: entries typed and
// from a file, searched and removed; a list dropped after is read against it, and a list waiting to be
// sent when the list changes is read again at Start, shown with its new numbers, not sent.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobOverview, SuppressionAdded, SuppressionPage } from '../../../../electron/common/contract.ts';
import { createAppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { appCaller } from '../../../support/app-call.ts';
import { waitFor } from '../../../support/service-harness.ts';

const ipc = { transport: 'ipc' as const };

const call = appCaller('ipc');

describe('the do-not-mail list in the app', () => {
  it('is added to, searched and emptied, and lists are read against it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-app-suppression-'));
    const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
    try {
      const typed = await call<SuppressionAdded>(runtime, 'suppression:add', {
        entries: ['Gone@Shop.example', 'rival.example', 'not one', 'gone@shop.example'],
      });
      expect(typed).toMatchObject({ added: 2, already: 1, refused: 1, refusedExamples: [{ entry: 'not one' }] });
      const file = join(dataDir, 'unsubscribes.csv');
      await writeFile(file, 'Email,When\nlate@shop.example,2026-11-01\ngone@shop.example,2026-11-02\n');
      expect(
        await call<SuppressionAdded>(runtime, 'suppression:import', { file: { kind: 'path', path: file } }),
      ).toMatchObject({ added: 1, already: 1, refused: 0 });
      const page = await call<SuppressionPage>(runtime, 'suppression:list', { search: 'SHOP' });
      expect(page).toMatchObject({ total: 2, addresses: 2, domains: 1 });
      expect(page.entries.map((entry) => [entry.value, entry.source])).toEqual([
        ['late@shop.example', 'unsubscribes.csv'],
        ['gone@shop.example', 'by hand'],
      ]);
      // A browser page never hands over a path.
      const refused = await runtime.dispatch(
        'suppression:import',
        { file: { kind: 'path', path: file } },
        { transport: 'web' },
      );
      expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });

      const list = join(dataDir, 'members.csv');
      await writeFile(
        list,
        'Email\nvalid.a@shop.example\ngone@shop.example\nvalid.b@rival.example\nvalid.c@mall.example\n',
      );
      const created = await call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'path', path: list } });
      expect(created).toMatchObject({ precheck: { toCheck: 2, suppressed: 2 }, cost: { checks: 2 } });

      // The list changes while this one waits: Start reads it again and shows it, sending nothing.
      expect(await call(runtime, 'suppression:remove', { values: ['rival.example'] })).toEqual({ removed: 1 });
      const notSent = await runtime.dispatch('jobs:start', { jobId: created.jobId }, ipc);
      expect(notSent).toMatchObject({
        ok: false,
        error: { code: 'bad_request', message: /read again before sending/ },
      });
      const reread = await call<JobOverview>(runtime, 'jobs:get', { jobId: created.jobId });
      expect(reread).toMatchObject({ phase: 'imported', precheck: { toCheck: 3, suppressed: 1 }, cost: { checks: 3 } });
      await call(runtime, 'jobs:start', { jobId: created.jobId });
      const done = await waitFor(async () => {
        const job = await call<JobOverview>(runtime, 'jobs:get', { jobId: created.jobId });
        return job.phase === 'done' && job;
      });
      expect(done.summary).toMatchObject({ rows: 4, suppressed: 1, to_check: 3 });

      expect(await call(runtime, 'suppression:clear', {})).toEqual({ removed: 2 });
      expect(await call<SuppressionPage>(runtime, 'suppression:list', {})).toMatchObject({ total: 0, entries: [] });
    } finally {
      await runtime.close();
    }
  }, 60_000);
});
