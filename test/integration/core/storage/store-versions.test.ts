// Data from other versions: a store a newer Sift wrote is refused with the folder byte for byte as it was;
// an older one is copied beside itself before its migration; a migration that fails halfway puts the file
// back as it was, the copy kept.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { folderSnapshot } from '../../../support/folder-snapshot.ts';
import { appStoreFiles } from '../../../../electron/core/app/data-stores.ts';
import { openListStore } from '../../../../electron/core/jobs/store/list-store.ts';
import { listStoreVersion } from '../../../../electron/core/jobs/store/list-store-schema.ts';
import { openSuppressionStore } from '../../../../electron/core/suppression/index.ts';
import {
  MigrationFailedError,
  NewerDataError,
  openDataFolder,
  userVersionOnDisk,
} from '../../../../electron/core/storage/store-versions.ts';

function setUserVersion(path: string, version: number, more = '') {
  const db = new DatabaseSync(path);
  db.exec(`${more}; PRAGMA user_version = ${version}`);
  db.close();
}

/** A data folder as this version leaves it: a do-not-mail list and one list file. */
function folderWithStores(): { dir: string; list: string } {
  const dir = mkdtempSync(join(tmpdir(), 'sift-versions-'));
  openDataFolder(dir, appStoreFiles, '0.2.0', () => {});
  const suppression = openSuppressionStore(dir);
  suppression.add([{ kind: 'address', value: 'gone@example.com' }], 'by hand');
  suppression.close();
  const list = join(dir, 'jobs', 'job_1.sqlite');
  openListStore(list).close();
  return { dir, list };
}

const say = () => {};

describe('a folder a newer Sift wrote', () => {
  it('is refused in words naming the version that last opened it, with not a byte changed', () => {
    const { dir } = folderWithStores();
    setUserVersion(join(dir, 'suppression.sqlite'), 7);
    writeFileSync(join(dir, 'sift-data.json'), '{ "version": "0.4.0" }\n');
    const before = folderSnapshot(dir);
    expect(() => openDataFolder(dir, appStoreFiles, '0.2.0', say)).toThrow(NewerDataError);
    expect(() => openDataFolder(dir, appStoreFiles, '0.2.0', say)).toThrow(
      /suppression\.sqlite was written by a newer Sift \(0\.4\.0 last opened this folder\): its schema is version 7, and Sift 0\.2\.0 reads up to 2\. Sift 0\.2\.0 leaves the folder as it is/,
    );
    expect(folderSnapshot(dir)).toEqual(before);
  });
});

describe('a store an older Sift wrote', () => {
  it('is copied beside itself, byte for byte, before its migration, and only the last copy is kept', () => {
    const { dir, list } = folderWithStores();
    setUserVersion(list, 8);
    const asItWas = readFileSync(list);
    const said: string[] = [];
    openDataFolder(dir, appStoreFiles, '0.2.0', (line) => said.push(line));
    expect(readFileSync(`${list}.before-0.2.0`)).toEqual(asItWas);
    expect(said.filter((line) => line.includes('brings'))).toEqual([
      `Sift 0.2.0 brings job_1.sqlite up to date; a copy of each as it was is beside it: ${list}.before-0.2.0`,
    ]);
    openListStore(list).close();
    expect(userVersionOnDisk(list)).toBe(listStoreVersion);

    setUserVersion(list, 8);
    openDataFolder(dir, appStoreFiles, '0.3.0', say);
    expect(readdirSync(join(dir, 'jobs')).filter((name) => name.includes('.before-'))).toEqual([
      'job_1.sqlite.before-0.3.0',
    ]);
  });

  it('whose migration fails halfway is put back as it was, and the copy stays', () => {
    const { dir, list } = folderWithStores();
    // Version 6 without step 7's column: step 7 adds it, then step 8 meets a column already there and fails.
    setUserVersion(list, 6, 'ALTER TABLE parts DROP COLUMN via');
    const asItWas = readFileSync(list);
    openDataFolder(dir, appStoreFiles, '0.2.0', say);
    expect(() => openListStore(list)).toThrow(MigrationFailedError);
    expect(() => openListStore(list)).toThrow(
      /could not bring .*job_1\.sqlite up to date \(duplicate column name: cached_at\)\. It is back as it was/,
    );
    expect(readFileSync(list)).toEqual(asItWas);
    expect(readFileSync(`${list}.before-0.2.0`)).toEqual(asItWas);
  });
});
