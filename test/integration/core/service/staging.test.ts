// How an upload becomes a batch's rows: duplicates found across its chunks (and never across two uploads
// staged at once), and a store from before schema 5 (a lower-cased copy of each address, with a unique
// index) opened with its batches intact.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stageChunk } from '../../../../electron/core/service/http/batch-handlers.ts';
import { sandboxEngine } from '../../../../electron/core/service/engines/sandbox-engine.ts';
import {
  openServiceStore,
  startVerificationService,
  type VerificationService,
} from '../../../../electron/core/service/verification-service.ts';
import { apiClient, startTestService, testDatabase, waitFor } from '../../../support/service-harness.ts';

const services: VerificationService[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.close();
});

/** A list longer than one staging chunk whose last addresses repeat its first ones, in other case and spacing. */
function listWithLateRepeats(unique: number, repeats: number): string {
  const lines = ['email'];
  for (let i = 0; i < unique; i += 1) lines.push(`person${i}@staging.example`);
  for (let i = 0; i < repeats; i += 1) lines.push(`  PERSON${i}@Staging.Example `);
  return `${lines.join('\n')}\n`;
}

describe('staging an upload', () => {
  it('counts an address repeated chunks later once, and two uploads at once each their own', async () => {
    const service = await startTestService();
    services.push(service);
    const api = apiClient(service, (await service.dashboard.createKey('sandbox', 'staging')).key);
    const unique = stageChunk + 5_000;
    const repeats = 7_000;
    const body = listWithLateRepeats(unique, repeats);
    const upload = (name: string) =>
      api('POST', `/files?name=${name}`, body, { 'Content-Type': 'text/csv' }).then((response) => ({
        status: response.status,
        batch: response.body,
      }));
    // The same addresses in two uploads staged side by side: neither counts the other's as duplicates.
    const [first, second] = await Promise.all([upload('first'), upload('second')]);
    for (const { status, batch } of [first, second]) {
      expect(status).toBe(201);
      expect(batch).toMatchObject({ submitted: unique + repeats, unique });
      await waitFor(async () => (await api('GET', `/batches/${batch.id}`)).body.status === 'complete');
      const done = await api('GET', `/batches/${batch.id}`);
      expect(done.body.summary.duplicates).toBe(repeats);
      const csv = await api('GET', `/batches/${batch.id}/results.csv`);
      expect(csv.text.trim().split('\n').length - 1).toBe(unique);
    }
  });

  it('leaves nothing of a refused upload: no batch and none of its rows', async () => {
    const service = await startTestService({ maxBatchAddresses: stageChunk + 10 });
    services.push(service);
    const api = apiClient(service, (await service.dashboard.createKey('sandbox', 'staging')).key);
    const response = await api('POST', '/files?name=big', listWithLateRepeats(stageChunk + 20, 0), {
      'Content-Type': 'text/csv',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('batch_too_large');
    expect(((await service.db.get('SELECT count(*) AS n FROM batch_rows')) as { n: number }).n).toBe(0);
  });
});

// SQLite's own migrations: a PostgreSQL database is made at its current schema in one step.
describe.skipIf(testDatabase === 'postgres')('a store from before schemas 5 and 6', () => {
  it('keeps its batches and their results, without the lower-cased copy, keyed by one integer', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-schema4-'));
    let service = await startVerificationService({ dataDir }, sandboxEngine);
    const key = (await service.dashboard.createKey('sandbox', 'old')).key;
    let api = apiClient(service, key);
    const created = await api('POST', '/batches', { emails: ['valid1@old.example', 'invalid1@old.example'] });
    await waitFor(async () => (await api('GET', `/batches/${created.body.id}`)).body.status === 'complete');
    const second = await api('POST', '/batches', { emails: ['catchall@two.example', 'valid2@two.example'] });
    await waitFor(async () => (await api('GET', `/batches/${second.body.id}`)).body.status === 'complete');
    const before = (await api('GET', `/batches/${created.body.id}/results`)).body.data;
    const secondBefore = (await api('GET', `/batches/${second.body.id}/results?limit=1`)).body;
    expect(before).toHaveLength(2);
    await service.close();

    // Put the tables back as schema 4 had them: rows keyed by the batch's text id and a seq, a norm column
    // under a unique index, and no row key on batches.
    const old = await openServiceStore({ dataDir });
    await old.db.exec(`
      ALTER TABLE batch_rows RENAME TO batch_rows_now;
      CREATE TABLE batch_rows (
        batch_id TEXT NOT NULL REFERENCES batches(id) ON DELETE CASCADE, seq INTEGER NOT NULL, email TEXT NOT NULL,
        norm TEXT NOT NULL, host TEXT, result TEXT, reason TEXT, role INTEGER NOT NULL DEFAULT 0,
        disposable INTEGER NOT NULL DEFAULT 0, billed INTEGER NOT NULL DEFAULT 0, billed_free INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0, result_seq INTEGER, provider TEXT, free INTEGER, smtp_reply TEXT,
        smtp_tls TEXT, PRIMARY KEY (batch_id, seq), UNIQUE (batch_id, norm));
      INSERT INTO batch_rows SELECT b.id, r.id & 4294967295, email, lower(email), host, result, reason, role, disposable,
        billed, billed_free, attempts, result_key & 4294967295, provider, free, smtp_reply, smtp_tls
        FROM batch_rows_now AS r JOIN batches AS b ON b.row_key = r.id >> 32;
      DROP TABLE batch_rows_now;
      CREATE UNIQUE INDEX batch_rows_by_result ON batch_rows (batch_id, result_seq) WHERE result_seq IS NOT NULL;
      DROP INDEX batches_by_row_key;
      ALTER TABLE batches DROP COLUMN row_key;
      DROP TABLE probe_queue;
      CREATE TABLE probe_queue (batch_id TEXT NOT NULL, seq INTEGER NOT NULL, domain TEXT NOT NULL,
        not_before INTEGER NOT NULL, tries INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (batch_id, seq));
      CREATE INDEX probe_queue_by_domain ON probe_queue (domain, not_before);
      PRAGMA user_version = 4;
    `);
    await old.db.close();

    service = await startVerificationService({ dataDir }, sandboxEngine);
    services.push(service);
    api = apiClient(service, key);
    expect((await api('GET', `/batches/${created.body.id}/results`)).body.data).toEqual(before);
    // A cursor from before the migration still reads on from where it was.
    const rest = await api('GET', `/batches/${second.body.id}/results?limit=5&cursor=${secondBefore.next_cursor}`);
    expect([...secondBefore.data, ...rest.body.data].map((row: { email: string }) => row.email)).toEqual([
      'catchall@two.example',
      'valid2@two.example',
    ]);
    const columns = ((await service.db.all('PRAGMA table_info(batch_rows)')) as { name: string }[]).map(
      (column) => column.name,
    );
    expect(columns).not.toContain('norm');
    expect(columns).not.toContain('batch_id');
    // And new batches still find their duplicates.
    const again = await api('POST', '/batches', { emails: ['a@old.example', 'A@old.example '] });
    expect(again.body).toMatchObject({ submitted: 2, unique: 1 });
  });
});
