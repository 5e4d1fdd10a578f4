// A sync's reading and writing, stopped part way and run again, against a tool that keeps its members in
// memory and fails when told: every member read once into the members file, every planned change written
// once, and a refusal kept with the tool's words. (A real Mailman: the list-servers tier.)
import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { expect, it } from 'vitest';
import { subscribedOnly, type ChangeOutcome, type Connector } from '../../../../electron/core/connectors/connector.ts';
import { openSyncStore } from '../../../../electron/core/connectors/sync-store.ts';
import {
  memberColumns,
  planChanges,
  readMembers,
  writeChanges,
} from '../../../../electron/core/connectors/sync-run.ts';
import { toolBaseUrl } from '../../../../electron/core/connectors/tool-http.ts';
import { writeFile } from 'node:fs/promises';

/** 250 members over three pages; `failOnce` names a call that fails the first time it is made. */
function memoryTool(failOnce: { readPage?: number; applyAfter?: number }) {
  const members = Array.from({ length: 250 }, (_, i) => ({
    id: `m${i}`,
    email: `person${i}@example.com`,
    name: `P ${i}`,
  }));
  const applied: string[] = [];
  let readFails = failOnce.readPage;
  let applyFails = failOnce.applyAfter;
  const tool: Connector = {
    kind: 'mailman',
    check: async () => 'memory',
    audiences: async () => [{ id: 'news', name: 'news', size: members.length }],
    async readPage(_audience, cursor) {
      const page = Number(cursor ?? 0);
      if (page === readFails) {
        readFails = undefined;
        throw new Error('connection reset');
      }
      const next = page + 1;
      return {
        members: members.slice(page * 100, next * 100),
        ...(next * 100 < members.length ? { next: String(next) } : {}),
      };
    },
    scoreKept: () => [],
    offersScoreFields: false,
    async apply(_audience, _change, members, onOutcome: (outcome: ChangeOutcome) => void) {
      for (const { memberId: id } of members) {
        if (applied.length === applyFails) {
          applyFails = undefined;
          throw new Error('connection reset');
        }
        applied.push(id);
        onOutcome(
          id === 'm7' ? { memberId: id, done: false, words: 'Member not found (404)' } : { memberId: id, done: true },
        );
      }
    },
    changesFor: ({ result }) => (result === 'invalid' ? ['delivery_off'] : []),
    invalidStep: 'unsubscribe',
    describe: () => 'delivery off',
  };
  return { tool, applied };
}

it('reads every member once and writes every change once, across stops', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'sift-sync-'));
  const store = openSyncStore(dir);
  const { tool, applied } = memoryTool({ readPage: 1, applyAfter: 20 });
  const file = join(dir, 'news.csv');
  let sync = store.start('lists', 'news', 1, subscribedOnly);
  await expect(readMembers(store, tool, sync, file, () => undefined)).rejects.toThrow('connection reset');
  // The first page is kept; the second is read again, from the store's record of where it stopped.
  sync = store.unfinished('lists', 'news')!;
  expect(sync).toMatchObject({ phase: 'reading', members: 100, nextCursor: '1' });
  sync = await readMembers(store, tool, sync, file, () => undefined);
  const rows = Papa.parse<string[]>(await readFile(file, 'utf8'), { skipEmptyLines: true }).data;
  expect(rows[0]).toEqual([...memberColumns]);
  expect(rows.slice(1).map((row) => row[2])).toEqual(Array.from({ length: 250 }, (_, i) => `m${i}`));

  // Every seventh member invalid, as a clean would annotate it.
  const annotated = join(dir, 'news.annotated.csv');
  const lines = rows
    .slice(1)
    .map((row, i) => `${row[0]},${row[2]},${i % 7 === 0 ? 'invalid,0,invalid=0' : 'valid,90,valid=90'}`);
  await writeFile(annotated, ['email,member_id,sift_result,sift_score,sift_score_reasons', ...lines].join('\n'));
  await planChanges(store, tool, sync, annotated);
  const invalid = Array.from({ length: 250 }, (_, i) => i)
    .filter((i) => i % 7 === 0)
    .map((i) => `m${i}`);
  expect(store.counts(sync.id)).toEqual([{ change: 'delivery_off', state: 'planned', count: invalid.length }]);

  await expect(writeChanges(store, tool, sync, () => undefined)).rejects.toThrow('connection reset');
  await writeChanges(store, tool, sync, () => undefined);
  expect(applied).toEqual(invalid);
  expect(store.refused(sync.id, 0, 10)).toMatchObject([{ memberId: 'm7', words: 'Member not found (404)' }]);
  store.close();
});

it("refuses a tool's address where its password would travel in clear", () => {
  expect(() => toolBaseUrl('Mailman', 'http://lists.example.com:8001')).toThrow(
    'must use https: over http its secret would travel in clear',
  );
  expect(() => toolBaseUrl('Mailman', 'https://user:pw@lists.example.com')).toThrow('no user, password');
  expect(toolBaseUrl('Mailman', 'http://127.0.0.1:8001').host).toBe('127.0.0.1:8001');
});
