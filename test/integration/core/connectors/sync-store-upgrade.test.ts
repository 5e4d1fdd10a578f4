// A sync store of the first version (before a sync kept which members it reads), as Sift 0.2's first
// connectors left it with a read stopped part way: opened by this version, the read goes on where it was,
// of the list's subscribed members, and the schedules are kept.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { subscribedOnly } from '../../../../electron/core/connectors/connector.ts';
import { openScheduleStore } from '../../../../electron/core/connectors/schedule-store.ts';
import { openSyncStore } from '../../../../electron/core/connectors/sync-store.ts';
import { syncStoreFile } from '../../../../electron/core/connectors/sync-store-schema.ts';

it('opens a first-version sync store and goes on with its read as it began', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'sift-sync-upgrade-'));
  try {
    await mkdir(join(dataDir, 'connectors'));
    // The first version's tables, as it made them.
    const old = new DatabaseSync(syncStoreFile(dataDir));
    old.exec(`
      CREATE TABLE syncs (id INTEGER PRIMARY KEY, connection TEXT NOT NULL, audience TEXT NOT NULL, started_at INTEGER NOT NULL,
        phase TEXT NOT NULL, next_cursor TEXT, read_done INTEGER NOT NULL DEFAULT 0, file_bytes INTEGER NOT NULL DEFAULT 0,
        members INTEGER NOT NULL DEFAULT 0, job_id TEXT);
      CREATE TABLE planned_changes (sync_id INTEGER NOT NULL REFERENCES syncs (id), member_id TEXT NOT NULL, email TEXT NOT NULL,
        change TEXT NOT NULL, verdict TEXT NOT NULL, score INTEGER, reasons TEXT NOT NULL DEFAULT '',
        state TEXT NOT NULL DEFAULT 'planned', words TEXT, PRIMARY KEY (sync_id, member_id, change));
      CREATE TABLE schedules (connection TEXT NOT NULL, audience TEXT NOT NULL, every_days INTEGER NOT NULL,
        write_back INTEGER NOT NULL, next_due INTEGER NOT NULL, last_run INTEGER, last_outcome TEXT,
        clean_flags TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (connection, audience));
      INSERT INTO syncs (connection, audience, started_at, phase, next_cursor, file_bytes, members)
        VALUES ('shop', 'aud1', 1, 'reading', '1000', 40123, 1000);
      INSERT INTO schedules VALUES ('shop', 'aud1', 7, 1, 5, NULL, NULL, '["--archive-invalid"]');
      PRAGMA user_version = 1;`);
    old.close();

    const store = openSyncStore(dataDir);
    expect(store.unfinished('shop', 'aud1')).toMatchObject({
      phase: 'reading',
      nextCursor: '1000',
      fileBytes: 40123,
      members: 1000,
      readChoice: subscribedOnly,
    });
    const started = store.start('shop', 'aud2', 2, { include: ['pending'], segment: '301' });
    expect(store.get(started.id)!.readChoice).toEqual({ include: ['pending'], segment: '301' });
    store.close();
    const schedules = openScheduleStore(dataDir);
    expect(schedules.schedules()).toMatchObject([{ connection: 'shop', everyDays: 7, withInvalidStep: true }]);
    schedules.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
