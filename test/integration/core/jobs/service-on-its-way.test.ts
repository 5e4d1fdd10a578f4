// `sift clean` reads the list while Sift's own service starts on its thread: the one sequence takes a
// service whose kind of key is known and whose client is on its way. The list is read before the client
// is there; a service that never starts stops the clean before anything is sent, and the job it read
// is kept to resume.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../../../electron/core/client/service-client.ts';
import { createCleaner } from '../../../../electron/core/jobs/list-cleaner.ts';
import { jobSettings } from '../../../../electron/core/jobs/job-settings.ts';
import { openJobStore, type JobStore } from '../../../../electron/core/jobs/store/index.ts';
import { startSpecPeer, type SpecPeer } from '../../../support/spec-peer.ts';

const apiKey = 'svc_test_onitsway0123456789ab';
let root: string;
let store: JobStore;
let peer: SpecPeer;
let input: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sift-on-its-way-'));
  peer = await startSpecPeer({ apiKey });
  store = openJobStore(join(root, 'data'));
  input = join(root, 'list.csv');
  const addresses = Array.from({ length: 300 }, (_, i) => `valid${i}@shop${i % 7}.example`);
  await writeFile(input, `Email\n${addresses.join('\n')}\n`);
});
afterAll(async () => {
  store.close();
  await peer.close();
});

describe('a clean with the service still starting', () => {
  it('reads the list first, then checks it once the service is ready', async () => {
    const seen: string[] = [];
    let started!: (client: ServiceClient) => void;
    const ready = new Promise<ServiceClient>((resolve) => (started = resolve));
    const cleaner = createCleaner(store);
    const cleaning = cleaner.cleanFile(
      { mode: 'sandbox', start: () => ready },
      { inputPath: input, settings: jobSettings(), policy: { restart: true }, outDir: root },
      { onProgress: (progress) => seen.push(progress.phase), pollIntervalMs: 20 },
    );
    // The list is read while the service has not answered yet.
    await expect.poll(() => store.latestJobFor(input)?.phase, { timeout: 5_000 }).toBe('imported');
    expect(seen).not.toContain('verifying');
    started(createServiceClient({ baseUrl: peer.baseUrl, apiKey }));
    const { job, exported } = await cleaning;
    expect(job.phase).toBe('done');
    expect(exported.summary).toMatchObject({ rows: 300, valid: 300 });
    expect(peer.submissions.size).toBe(300);
  });

  it('stops before sending anything when the service never starts, keeping the list read', async () => {
    const before = peer.submissions.size;
    const cleaner = createCleaner(store);
    const start = () => Promise.reject(new Error("Sift's own service could not start: no room"));
    await expect(
      cleaner.cleanFile(
        { mode: 'sandbox', start },
        { inputPath: input, settings: jobSettings(), policy: { restart: true }, outDir: root },
      ),
    ).rejects.toThrow('could not start');
    expect(peer.submissions.size).toBe(before);
    expect(store.latestJobFor(input)).toMatchObject({ phase: 'imported', rowsTotal: 300 });
  });
});
