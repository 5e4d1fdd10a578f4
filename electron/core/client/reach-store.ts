// What Sift learned of each service it talks to (service-reach.ts), kept in one small SQLite file in the
// data folder that the app and the CLI share. Keyed by the service's API root, never by a key.
import { join } from 'node:path';
import { openDatabase, sql, type Database } from '../storage/sqlite.ts';
import { unlearnedReach, type ServiceReach, type Shortcut } from './service-reach.ts';

type ReachRow = { files: number; results_csv: number; batch_size: number };

export type ReachMemory = {
  get(serviceUrl: string): ServiceReach;
  /** The shortcuts the service's account names now (they replace what was known: a service may change). */
  learnShortcuts(serviceUrl: string, shortcuts: Pick<ServiceReach, Shortcut>): void;
  /** A shortcut answered "not here". */
  forgetShortcut(serviceUrl: string, shortcut: Shortcut): void;
  /** A part of `refused` addresses was too large: the next ones are at most half that. */
  refusedSize(serviceUrl: string, refused: number): number;
  close(): void;
};

export function openReachMemory(dataDir: string): ReachMemory {
  const db: Database = openDatabase(join(dataDir, 'service-reach.sqlite'));
  db.exec(`CREATE TABLE IF NOT EXISTS reach (
    service_url TEXT PRIMARY KEY, files INTEGER NOT NULL, results_csv INTEGER NOT NULL,
    batch_size INTEGER NOT NULL, updated_at INTEGER NOT NULL
  )`);
  const get = (serviceUrl: string): ServiceReach => {
    const row = sql(db, 'SELECT files, results_csv, batch_size FROM reach WHERE service_url = ?').get(serviceUrl) as
      ReachRow | undefined;
    return row
      ? { files: row.files === 1, resultsCsv: row.results_csv === 1, batchSize: row.batch_size }
      : unlearnedReach;
  };
  const put = (serviceUrl: string, reach: ServiceReach) =>
    sql(
      db,
      `INSERT INTO reach (service_url, files, results_csv, batch_size, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (service_url) DO UPDATE SET files = excluded.files, results_csv = excluded.results_csv,
         batch_size = excluded.batch_size, updated_at = excluded.updated_at`,
    ).run(serviceUrl, reach.files ? 1 : 0, reach.resultsCsv ? 1 : 0, reach.batchSize, Date.now());
  return {
    get,
    learnShortcuts(serviceUrl, shortcuts) {
      put(serviceUrl, { ...get(serviceUrl), ...shortcuts });
    },
    forgetShortcut(serviceUrl, shortcut) {
      put(serviceUrl, { ...get(serviceUrl), [shortcut]: false });
    },
    refusedSize(serviceUrl, refused) {
      const reach = get(serviceUrl);
      const batchSize = Math.max(1, Math.min(reach.batchSize, Math.floor(refused / 2)));
      put(serviceUrl, { ...reach, batchSize });
      return batchSize;
    },
    close: () => db.close(),
  };
}

/** One service's reach, as a job uses it while it runs. */
export type Reach = {
  current(): ServiceReach;
  learnShortcuts(shortcuts: Pick<ServiceReach, Shortcut>): void;
  forgetShortcut(shortcut: Shortcut): void;
  refusedSize(refused: number): number;
};

export const reachOf = (memory: ReachMemory, serviceUrl: string): Reach => ({
  current: () => memory.get(serviceUrl),
  learnShortcuts: (shortcuts) => memory.learnShortcuts(serviceUrl, shortcuts),
  forgetShortcut: (shortcut) => memory.forgetShortcut(serviceUrl, shortcut),
  refusedSize: (refused) => memory.refusedSize(serviceUrl, refused),
});
