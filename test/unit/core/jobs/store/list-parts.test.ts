// A list is split into parts of the sendable addresses only, each part a run of ids holding exactly its
// count, the first `limit` addresses when a person chose to send only those; and a part's file lists them.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openListStore } from '../../../../../electron/core/jobs/store/list-store.ts';
import { isActivePart } from '../../../../../electron/core/jobs/store/list-types.ts';
import { cancelJob, planRetry } from '../../../../../electron/core/jobs/run/job-runner.ts';
import { jobSettings } from '../../../../../electron/core/jobs/job-settings.ts';
import { openJobStore } from '../../../../../electron/core/jobs/store/index.ts';

async function listOf(sendable: boolean[]) {
  const list = openListStore(join(await mkdtemp(join(tmpdir(), 'sift-parts-')), 'list.sqlite'));
  const addresses = sendable.map((ok, i) => ({
    id: i + 1,
    key: `a${i + 1}@example.com`,
    address: `a${i + 1}@example.com`,
    firstRow: i + 1,
    sendable: ok,
    role: false,
    disposable: false,
    suggestion: null,
  }));
  list.appendImport(addresses, 1, new Int32Array(addresses.map((a) => a.id)));
  return list;
}

describe('planning parts', () => {
  // ids 1..10; 3 and 7 are bad syntax and never sent.
  const sendable = [true, true, false, true, true, true, false, true, true, true];

  it('splits the sendable addresses into runs of ids of the chosen size', async () => {
    const list = await listOf(sendable);
    const parts = list.planParts(3, (part) => `key-${part}`);
    expect(
      parts.map(({ part, firstId, lastId, addresses, idempotencyKey }) => [
        part,
        firstId,
        lastId,
        addresses,
        idempotencyKey,
      ]),
    ).toEqual([
      [0, 1, 4, 3, 'key-0'],
      [1, 5, 8, 3, 'key-1'],
      [2, 9, 10, 2, 'key-2'],
    ]);
    expect(parts.flatMap((part) => [...list.sendableAddresses(part)].flat())).toEqual(
      [1, 2, 4, 5, 6, 8, 9, 10].map((id) => `a${id}@example.com`),
    );
    // Planned once: asking again changes nothing.
    expect(list.planParts(2, (part) => `other-${part}`)).toEqual(parts);
  });

  it('sends only the first `limit` addresses when asked', async () => {
    const list = await listOf(sendable);
    const parts = list.planParts(3, (part) => `key-${part}`, 5);
    expect(parts.map(({ firstId, lastId, addresses }) => [firstId, lastId, addresses])).toEqual([
      [1, 4, 3],
      [5, 6, 2],
    ]);
  });

  it('splits a part never sent into smaller parts of the same addresses and route, under new keys', async () => {
    const list = await listOf(sendable);
    const [whole] = list.planParts(100, (part) => `key-${part}`);
    list.setPartRoute(whole!.part, 'batches');
    list.splitPart({ ...whole!, via: 'batches' }, 3, (part) => `split-${part}`);
    const parts = list.parts();
    expect(parts[0]).toMatchObject({ status: 'split', idempotencyKey: 'key-0', batchId: null });
    const active = parts.filter(isActivePart);
    expect(active.map(({ part, addresses, via, idempotencyKey }) => [part, addresses, via, idempotencyKey])).toEqual([
      [1, 3, 'batches', 'split-1'],
      [2, 3, 'batches', 'split-2'],
      [3, 2, 'batches', 'split-3'],
    ]);
    // Together they send exactly what the whole part would have, once each.
    expect(active.flatMap((part) => [...list.sendableAddresses(part)].flat())).toEqual(
      [...list.sendableAddresses(whole!)].flat(),
    );
    // A route changed after a shortcut was not there comes with a new key.
    list.setPartRoute(1, 'files', 'fresh-key');
    expect(list.parts()[1]).toMatchObject({ via: 'files', idempotencyKey: 'fresh-key' });
  });
});

describe('canceling while parts are still being sent', () => {
  it('cancels the sent batches, sets the unsent parts aside, and a retry plans their addresses again', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-cancel-parts-'));
    const store = openJobStore(dataDir);
    const job = store.createJob(join(dataDir, 'list.csv'), 'x', jobSettings({ addressesPerBatch: 3 }));
    const list = store.list(job.id);
    list.appendImport(
      [1, 2, 3, 4, 5, 6, 7, 8].map((id) => ({
        id,
        key: `a${id}@example.com`,
        address: `a${id}@example.com`,
        firstRow: id,
        sendable: true,
        role: false,
        disposable: false,
        suggestion: null,
      })),
      1,
      new Int32Array([1, 2, 3, 4, 5, 6, 7, 8]),
    );
    list.planParts(3, (part) => `key-${part}`);
    list.setPartBatch(0, 'bat_sent');
    const canceled: string[] = [];
    await cancelJob(store, store.getJob(job.id)!, {
      cancelBatch: async (id: string) => {
        canceled.push(id);
        return { id, status: 'canceled', submitted: 3, unique: 3 };
      },
    });
    expect(canceled).toEqual(['bat_sent']);
    expect(list.parts().map((part) => [part.part, part.status])).toEqual([
      [0, 'running'],
      [1, 'superseded'],
      [2, 'superseded'],
    ]);
    expect(list.parts().filter(isActivePart)).toHaveLength(1);
    // The canceled batch checked nothing here: a retry sends all eight again, in new parts.
    list.setPartStatus(0, 'canceled');
    list.recordResults(0, [], { resultsIn: true });
    store.setPhase(job.id, 'canceled');
    expect(planRetry(store, store.getJob(job.id)!)).toBe(8);
    store.close();
  });
});
