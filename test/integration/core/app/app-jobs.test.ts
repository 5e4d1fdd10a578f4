// The app's job calls through the real dispatch, the embedded service, and the web host's downloads;
// a job interrupted by closing the app carries on when the app starts again.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { JobOverview } from '../../../../electron/common/contract.ts';
import { createAppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { appCaller } from '../../../support/app-call.ts';
import { resolveDownloadPath } from '../../../../electron/core/app/static-files.ts';
import { startWebHost } from '../../../../electron/core/web-host/web-host.ts';
import { waitFor } from '../../../support/service-harness.ts';

const ipc = { transport: 'ipc' as const };

const call = appCaller('ipc');

async function listFile(dir: string, count: number): Promise<string> {
  const path = join(dir, 'members.csv');
  const lines = [
    'Member,E-mail',
    ...Array.from({ length: count }, (_, i) => `M${i},person${i}@host${i % 40}.example`),
    'Dup,PERSON1@host1.example',
    'Bad,not-an-email',
  ];
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

describe('jobs in the app', () => {
  it('creates, runs and exports a job, and serves the files to a link with a ticket only', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-app-jobs-'));
    const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
    const progress: unknown[] = [];
    runtime.events.subscribe((name, payload) => name === 'jobs:didProgress' && progress.push(payload));
    try {
      const path = await listFile(dataDir, 50);
      const created = await call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'path', path } });
      expect(created).toMatchObject({
        fileName: 'members.csv',
        phase: 'imported',
        rows: 52,
        columnIndex: 1,
        precheck: { toCheck: 50, duplicates: 1, badSyntax: 1, noAddress: 0 },
        cost: { checks: 50, mode: 'sandbox', covered: true },
      });
      await call(runtime, 'jobs:start', { jobId: created.jobId });
      const done = await waitFor(async () => {
        const job = await call<JobOverview>(runtime, 'jobs:get', { jobId: created.jobId });
        return job.phase === 'done' && job;
      }, 15_000);
      expect(done.summary).toMatchObject({
        rows: 52,
        bad_syntax: 1,
        duplicates: 1,
        to_check: 50,
        invalid: expect.any(Number),
        billed: 0,
        unverified: 0,
      });
      expect(progress.at(-1)).toMatchObject({ jobId: created.jobId, phase: 'done', checked: 50, total: 50 });

      const exported = await call<{ files: { kind: string; name: string; downloadPath: string }[] }>(
        runtime,
        'jobs:export',
        { jobId: created.jobId, keep: ['valid', 'catch_all'] },
      );
      expect(exported.files.map((file) => file.name)).toEqual([
        'members.demo.cleaned.csv',
        'members.demo.annotated.csv',
        'members.demo.summary.json',
      ]);
      const host = await startWebHost({ ...runtime, rendererDir: dataDir });
      try {
        const annotated = exported.files[1]!;
        // A download link carries a ticket the page asks for with the token: for that file, once.
        const ticket = async (path: string) => {
          const response = await fetch(`${host.origin}/api/download-tickets`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-sift-token': host.token },
            body: JSON.stringify({ path }),
          });
          return ((await response.json()) as { value: { ticket: string } }).value.ticket;
        };
        const withTicket = await fetch(
          `${host.origin}/${annotated.downloadPath}?ticket=${await ticket(annotated.downloadPath)}`,
        );
        expect(withTicket.status).toBe(200);
        expect(withTicket.headers.get('content-disposition')).toContain(
          'attachment; filename="members.demo.annotated.csv"',
        );
        expect((await withTicket.text()).split('\r\n')).toHaveLength(54); // header, 52 rows, final newline
        expect((await fetch(`${host.origin}/${annotated.downloadPath}`)).status).toBe(401);
        expect((await fetch(`${host.origin}/${annotated.downloadPath}?token=${host.token}`)).status).toBe(401);
        const outside = `downloads/${created.jobId}/..%2f..%2fjobs.sqlite`;
        expect((await fetch(`${host.origin}/${outside}?ticket=${await ticket(outside)}`)).status).toBe(404);
      } finally {
        await host.close();
      }
      expect((await runtime.dispatch('jobs:export', { jobId: created.jobId, keep: [] }, ipc)).ok).toBe(false);
      expect(await runtime.dispatch('jobs:get', { jobId: 'job_0123456789abcdef' }, ipc)).toMatchObject({
        ok: false,
        error: { code: 'not_found' },
      });
    } finally {
      await runtime.close();
    }
  });

  it('carries on with an interrupted job when the app starts again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-app-resume-'));
    // Paced so the job is surely still reading when the app closes.
    const first = await createAppRuntime({
      dataDir,
      appVersion: '1.0.0',
      service: { sandboxProbesPerSecondPerHost: 20 },
    });
    const path = await listFile(dataDir, 3000);
    const created = await call<JobOverview>(first, 'jobs:create', { file: { kind: 'path', path } });
    await call(first, 'jobs:start', { jobId: created.jobId });
    await waitFor(
      async () => (await call<JobOverview>(first, 'jobs:get', { jobId: created.jobId })).phase === 'reading',
      15_000,
      5,
    );
    await first.close();
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(join(dataDir, 'jobs.sqlite'), { readOnly: true });
    const stopped = db.prepare('SELECT phase, checked FROM jobs WHERE id = ?').get(created.jobId) as {
      phase: string;
      checked: number;
    };
    db.close();
    expect(stopped.phase).toBe('reading'); // closed mid-way, not after the end
    expect(stopped.checked).toBeLessThan(3000);

    const second = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
    try {
      const done = await waitFor(async () => {
        const job = await call<JobOverview>(second, 'jobs:get', { jobId: created.jobId });
        return job.phase === 'done' && job;
      }, 15_000);
      expect(done.summary).toMatchObject({ rows: 3002, to_check: 3000, unverified: 0 });
      expect(done.progress).toEqual({ checked: 3000, total: 3000 });
    } finally {
      await second.close();
    }
  }, 40_000);
});

describe('several jobs at once', () => {
  it('runs two lists side by side to the end, each with its own results', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-app-two-'));
    const runtime = await createAppRuntime({ dataDir, appVersion: '1.0.0' });
    try {
      const paths = [join(dataDir, 'first.csv'), join(dataDir, 'second.csv')];
      await writeFile(
        paths[0]!,
        `email\n${Array.from({ length: 800 }, (_, i) => `valid${i}@a${i % 9}.example`).join('\n')}\n`,
      );
      await writeFile(
        paths[1]!,
        `email\n${Array.from({ length: 600 }, (_, i) => `invalid${i}@b${i % 7}.example`).join('\n')}\n`,
      );
      const jobs = await Promise.all(
        paths.map((path) => call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'path', path } })),
      );
      await Promise.all(jobs.map((job) => call(runtime, 'jobs:start', { jobId: job.jobId })));
      const done = await Promise.all(
        jobs.map((job) =>
          waitFor(async () => {
            const current = await call<JobOverview>(runtime, 'jobs:get', { jobId: job.jobId });
            return current.phase === 'done' && current;
          }, 15_000),
        ),
      );
      expect(done[0]!.summary).toMatchObject({ to_check: 800, valid: 800, invalid: 0 });
      expect(done[1]!.summary).toMatchObject({ to_check: 600, valid: 0, invalid: 600 });
    } finally {
      await runtime.close();
    }
  });
});

describe('canceling a job', () => {
  it('cancels at the service, keeps what was verified, and still exports every row', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-app-cancel-'));
    // One mail host, probed slowly: the job is still running when it is canceled.
    const runtime = await createAppRuntime({
      dataDir,
      appVersion: '1.0.0',
      service: { sandboxProbesPerSecondPerHost: 100 },
    });
    try {
      // Enough that the first batch is still running at the cancel; few, so the retry at this pace is short.
      const total = 600;
      const path = join(dataDir, 'slow.csv');
      await writeFile(
        path,
        `email\n${Array.from({ length: total }, (_, i) => `valid${i}@one-host.example`).join('\n')}\n`,
      );
      const created = await call<JobOverview>(runtime, 'jobs:create', { file: { kind: 'path', path } });
      await call(runtime, 'jobs:start', { jobId: created.jobId });
      await waitFor(
        async () => (await call<JobOverview>(runtime, 'jobs:get', { jobId: created.jobId })).progress.checked >= 150,
        20_000,
      );
      const canceled = await call<JobOverview>(runtime, 'jobs:cancel', { jobId: created.jobId });
      expect(canceled.phase).toBe('canceled');
      expect(canceled.progress.checked).toBeGreaterThanOrEqual(150);
      expect(canceled.progress.checked).toBeLessThan(total);
      expect(canceled.summary).toMatchObject({
        valid: canceled.progress.checked,
        unverified: total - canceled.progress.checked,
      });
      const exported = await call<{ summary: { unverified: number } }>(runtime, 'jobs:export', {
        jobId: created.jobId,
        keep: ['valid'],
      });
      expect(exported.summary.unverified).toBe(total - canceled.progress.checked);
      const annotated = await readFile(join(dataDir, 'exports', created.jobId, 'slow.demo.annotated.csv'), 'utf8');
      expect(annotated.trim().split('\r\n')).toHaveLength(total + 1);
      expect(annotated).toContain(',unverified,false,');

      // Checking the rest again: only the unchecked addresses are sent, in a new batch; the list ends done.
      const unchecked = total - canceled.progress.checked;
      await call(runtime, 'jobs:retry', { jobId: created.jobId });
      const done = await waitFor(async () => {
        const job = await call<JobOverview>(runtime, 'jobs:get', { jobId: created.jobId });
        return job.phase === 'done' && job;
      }, 30_000);
      expect(done.summary).toMatchObject({ to_check: total, valid: total, unverified: 0 });
      const list = new DatabaseSync(join(dataDir, 'jobs', `${created.jobId}.sqlite`), { readOnly: true });
      try {
        const parts = list.prepare('SELECT status, addresses, pending_only FROM parts ORDER BY part').all();
        expect(parts).toEqual([
          { status: 'superseded', addresses: total, pending_only: 0 },
          { status: 'complete', addresses: unchecked, pending_only: 1 },
        ]);
      } finally {
        list.close();
      }
      expect((await runtime.dispatch('jobs:retry', { jobId: created.jobId }, ipc)).ok).toBe(false);
    } finally {
      await runtime.close();
    }
  }, 60_000);
});

describe('resolveDownloadPath', () => {
  it('serves only exported files of a job, and the outcomes exported from History', () => {
    expect(resolveDownloadPath('/data/exports', 'downloads/job_0123456789abcdef/list.cleaned.csv')).toBe(
      '/data/exports/job_0123456789abcdef/list.cleaned.csv',
    );
    expect(resolveDownloadPath('/data/exports', '/downloads/job_0123456789abcdef/l%C3%A9.summary.json')).toBe(
      '/data/exports/job_0123456789abcdef/lé.summary.json',
    );
    expect(resolveDownloadPath('/data/exports', '/downloads/outcomes/sift-outcomes-2026-11-29.csv')).toBe(
      '/data/exports/outcomes/sift-outcomes-2026-11-29.csv',
    );
    for (const bad of [
      '/downloads/job_x/list.csv',
      '/downloads/job_0123456789abcdef/..%2fjobs.sqlite',
      '/downloads/job_0123456789abcdef/.hidden.csv',
      '/downloads/job_0123456789abcdef/a.exe',
      '/other/job_0123456789abcdef/a.csv',
      '/downloads/outcomesx/sift-outcomes.csv',
      '/downloads/outcomes/../jobs.sqlite',
      '/downloads/outcomes/sub/sift-outcomes.csv',
    ]) {
      expect(resolveDownloadPath('/data/exports', bad)).toBeNull();
    }
  });
});
