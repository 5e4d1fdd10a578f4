// A store whose first start was killed while it was being made opens at the next start. The soak's kills
// at random moments once landed between a list file's tables being made and its version being stamped:
// the file said version 0 and had version 3's column, and every later start failed ("duplicate column name:
// pending_only"). Here the kill lands at that moment every time: the child stops itself (SIGKILL) just as it
// is about to stamp the version.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { listStoreVersion } from '../../../../electron/core/jobs/store/list-store-schema.ts';
import { openListStore } from '../../../../electron/core/jobs/store/list-store.ts';
import { migrate, serviceSchemaVersion } from '../../../../electron/core/service/store/schema.ts';

const folder = mkdtempSync(join(tmpdir(), 'sift-killed-migration-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const moduleUrl = (path: string) => pathToFileURL(resolve(path)).href;

/** Runs `opening` in a child that is killed as it stamps the schema's version; answers its signal. */
function killedWhileStamping(opening: string): NodeJS.Signals | null {
  const script = `
    import { DatabaseSync } from 'node:sqlite';
    const exec = DatabaseSync.prototype.exec;
    DatabaseSync.prototype.exec = function (text) {
      if (/PRAGMA user_version = [1-9]/.test(text)) process.kill(process.pid, 'SIGKILL');
      return exec.call(this, text);
    };
    ${opening}
  `;
  const child = spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return child.signal;
}

const versionOf = (path: string) => {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  } finally {
    db.close();
  }
};

describe('a store killed while it was being made', () => {
  it("opens next time: a job's list file", () => {
    const path = join(folder, 'job_killed.sqlite');
    const url = moduleUrl('electron/core/jobs/store/list-store.ts');
    expect(killedWhileStamping(`(await import('${url}')).openListStore(${JSON.stringify(path)});`)).toBe('SIGKILL');
    expect(versionOf(path)).toBe(0);
    const store = openListStore(path);
    store.close();
    expect(versionOf(path)).toBe(listStoreVersion);
  });

  it("opens next time: the embedded service's file", () => {
    const path = join(folder, 'service.sqlite');
    const url = moduleUrl('electron/core/service/store/schema.ts');
    const opening = `
      const { DatabaseSync: Db } = await import('node:sqlite');
      (await import('${url}')).migrate(new Db(${JSON.stringify(path)}));
    `;
    expect(killedWhileStamping(opening)).toBe('SIGKILL');
    expect(versionOf(path)).toBe(0);
    const db = new DatabaseSync(path);
    try {
      migrate(db);
      expect((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version).toBe(
        serviceSchemaVersion,
      );
    } finally {
      db.close();
    }
  });
});
