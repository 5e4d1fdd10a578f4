// A data folder a newer Sift wrote, met by this one from the terminal: `sift clean`, the app and
// `sift service` each say which version made it and that they leave it alone, exit 7, and not a byte of
// the folder (or beside the list) changes.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { folderSnapshot } from '../../support/folder-snapshot.ts';
import { runSift } from '../../support/run-sift.ts';

function raiseVersion(path: string, version: number) {
  const db = new DatabaseSync(path);
  db.exec(`PRAGMA user_version = ${version}`);
  db.close();
}

describe('a data folder a newer Sift wrote', () => {
  it('is left byte for byte as it was by sift clean and the app, which say which Sift made it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sift-newer-'));
    const data = join(root, 'data');
    const list = join(root, 'people.csv');
    writeFileSync(list, 'email\nvalid1@firm.example\ninvalid2@firm.example\n');
    const first = await runSift(['clean', list], { SIFT_DATA_DIR: data });
    expect(first.code, first.stderr).toBe(0);

    raiseVersion(join(data, 'jobs.sqlite'), 40);
    writeFileSync(join(data, 'sift-data.json'), '{ "version": "0.9.0" }\n');
    const before = folderSnapshot(root);
    const again = await runSift(['clean', list, '--restart'], { SIFT_DATA_DIR: data });
    expect(again.code).toBe(7);
    expect(again.stderr).toContain(
      `${join(data, 'jobs.sqlite')} was written by a newer Sift (0.9.0 last opened this folder)`,
    );
    expect(again.stderr).toContain('leaves the folder as it is');
    const app = await runSift(['app', '--no-open', '--data', data], {});
    expect(app.code).toBe(7);
    expect(app.stderr).toContain('was written by a newer Sift');
    expect(folderSnapshot(root)).toEqual(before);
  }, 60_000);

  it('is left as it was by sift service', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'sift-newer-')), 'service');
    expect((await runSift(['service', 'keys', 'create', '--data', data], {})).code).toBe(0);
    raiseVersion(join(data, 'service.sqlite'), 90);
    const before = folderSnapshot(data);
    const refused = await runSift(['service', 'keys', '--data', data], {});
    expect(refused.code).toBe(7);
    expect(refused.stderr).toContain('its schema is version 90');
    expect(folderSnapshot(data)).toEqual(before);
  }, 60_000);
});
