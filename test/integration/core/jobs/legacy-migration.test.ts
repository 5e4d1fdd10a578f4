// A data folder from Sift 0.1 (every job's rows in jobs.sqlite, no user_version) opens in this Sift: each
// job moves to its own list file, finished jobs export the same verdicts, and an unfinished one resumes.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { openJobStore } from '../../../../electron/core/jobs/store/index.ts';
import { exportJob } from '../../../../electron/core/jobs/export/list-export.ts';

/** The 0.1 schema, as it shipped. */
const legacySchema = `
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY, input_path TEXT NOT NULL, fingerprint TEXT NOT NULL, settings TEXT NOT NULL,
    phase TEXT NOT NULL, column_index INTEGER NOT NULL DEFAULT -1, has_header INTEGER NOT NULL DEFAULT 0,
    delimiter TEXT NOT NULL DEFAULT ',', headers TEXT NOT NULL DEFAULT '[]', rows_total INTEGER NOT NULL DEFAULT 0,
    error TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL
  );
  CREATE TABLE job_rows (
    job_id TEXT NOT NULL, row_index INTEGER NOT NULL, address_key TEXT, status TEXT NOT NULL,
    first INTEGER NOT NULL DEFAULT 0, suggestion TEXT, PRIMARY KEY (job_id, row_index)
  ) WITHOUT ROWID;
  CREATE TABLE job_addresses (
    job_id TEXT NOT NULL, key TEXT NOT NULL, address TEXT NOT NULL, seq INTEGER,
    role INTEGER NOT NULL, disposable INTEGER NOT NULL, result TEXT, billed INTEGER NOT NULL DEFAULT 0, reason TEXT,
    PRIMARY KEY (job_id, key)
  ) WITHOUT ROWID;
  CREATE TABLE job_batches (
    job_id TEXT NOT NULL, part INTEGER NOT NULL, idempotency_key TEXT NOT NULL, batch_id TEXT,
    first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL, cursor TEXT, skip INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'pending', PRIMARY KEY (job_id, part)
  );
`;

describe('a Sift 0.1 data folder', () => {
  it('moves each job to its own list and exports the verdicts it had', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sift-legacy-'));
    const input = join(dataDir, 'old.csv');
    await writeFile(
      input,
      'email,name\nann@example.com,Ann\nANN@example.com,Ann again\nbroken@@x.com,B\n,Nobody\ninfo@acme.example,Info\n',
    );
    const db = new DatabaseSync(join(dataDir, 'jobs.sqlite'));
    db.exec(legacySchema);
    const settings = JSON.stringify({ keep: ['valid'], neutraliseFormulas: true, bom: false, maxBatchSize: 50_000 });
    db.prepare(
      `INSERT INTO jobs VALUES ('job_00000000000000aa', ?, 'fp', ?, 'done', 0, 1, ',', '["email","name"]', 5, NULL, 1, 2)`,
    ).run(input, settings);
    db.prepare(
      `INSERT INTO jobs VALUES ('job_00000000000000bb', ?, 'fp', ?, 'reading', 0, 1, ',', '["email","name"]', 5, NULL, 3, 4)`,
    ).run(input, settings);
    for (const [job, verdicts] of [
      ['job_00000000000000aa', true],
      ['job_00000000000000bb', false],
    ] as const) {
      const row = db.prepare('INSERT INTO job_rows VALUES (?, ?, ?, ?, ?, ?)');
      row.run(job, 1, 'ann@example.com', 'ok', 1, null);
      row.run(job, 2, 'ann@example.com', 'ok', 0, null);
      row.run(job, 3, 'broken@@x.com', 'syntax', 1, null);
      row.run(job, 4, null, 'no_address', 0, null);
      row.run(job, 5, 'info@acme.example', 'ok', 1, null);
      const address = db.prepare('INSERT INTO job_addresses VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
      address.run(
        job,
        'ann@example.com',
        'ann@example.com',
        1,
        0,
        0,
        verdicts ? 'valid' : null,
        verdicts ? 1 : 0,
        verdicts ? 'accepted_email' : null,
      );
      address.run(job, 'broken@@x.com', 'broken@@x.com', null, 0, 0, 'invalid', 0, 'syntax');
      address.run(
        job,
        'info@acme.example',
        'info@acme.example',
        2,
        1,
        0,
        verdicts ? 'invalid' : null,
        verdicts ? 1 : 0,
        verdicts ? 'rejected_email' : null,
      );
      db.prepare('INSERT INTO job_batches VALUES (?, 0, ?, ?, 1, 2, ?, 0, ?)').run(
        job,
        `key-${job}`,
        `bat_${job}`,
        verdicts ? null : 'cursor-1',
        verdicts ? 'complete' : 'running',
      );
    }
    db.close();

    const store = openJobStore(dataDir);
    try {
      const done = store.getJob('job_00000000000000aa')!;
      expect(done).toMatchObject({
        phase: 'done',
        rowsTotal: 5,
        settings: { addressesPerBatch: 50_000 },
        precheck: { toCheck: 2, duplicates: 1, badSyntax: 1, noAddress: 1, role: 1, disposable: 0, suggestions: 0 },
        checked: 2,
      });
      const { summary } = await exportJob(store, done, dataDir);
      expect(summary).toMatchObject({
        rows: 5,
        bad_syntax: 1,
        duplicates: 1,
        to_check: 2,
        valid: 1,
        invalid: 1,
        billed: 2,
        no_address: 1,
      });
      const annotated = (await readFile(join(dataDir, 'old.demo.annotated.csv'), 'utf8')).trim().split('\r\n');
      expect(annotated.slice(1).map((line) => line.split(',').slice(2, 5).join(','))).toEqual([
        'valid,true,false',
        'valid,false,true',
        'bad_syntax,false,false',
        'no_address,false,false',
        'invalid,true,false',
      ]);

      const reading = store.list('job_00000000000000bb');
      expect(store.getJob('job_00000000000000bb')).toMatchObject({ phase: 'reading', checked: 0 });
      expect(reading.parts()).toMatchObject([
        {
          part: 0,
          idempotencyKey: 'key-job_00000000000000bb',
          batchId: 'bat_job_00000000000000bb',
          addresses: 2,
          cursor: 'cursor-1',
        },
      ]);
      expect(store.jobsInFlight().map((job) => job.id)).toEqual(['job_00000000000000bb']);
    } finally {
      store.close();
    }
    // Opened again: nothing left to migrate, nothing lost.
    const again = openJobStore(dataDir);
    expect(again.getJob('job_00000000000000aa')?.checked).toBe(2);
    again.close();
  });
});
