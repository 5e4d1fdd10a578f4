// The rules a person sets per domain (<data>/rules.sqlite), shared by the app and `sift`: each domain's
// action, when it was set and from where (a file's name, or "by hand"), and how many rows each rule
// decided in the last list read. Lists are read against them (rule-matcher.ts). All of its SQL is here.
import { join } from 'node:path';
import { ruleActions, type RuleAction } from '../../common/domain-rules.ts';
import { openDatabase, sql, transaction, type Database } from '../storage/sqlite.ts';
import { migrateOrRestore } from '../storage/store-versions.ts';

export type DomainRule = { domain: string; action: RuleAction };
type StoredRule = DomainRule & { addedAt: number; source: string };
/** The last list read against the rules: its name, when, and the rows each rule's domain decided. */
export type LastListCounts = { list: string; at: number; rows: Record<string, number> };

export const rulesFile = (dataDir: string) => join(dataDir, 'rules.sqlite');

/** The schema version this Sift writes (store-versions.ts). */
export const rulesVersion = 1;

const schema = `
CREATE TABLE IF NOT EXISTS rules (
  domain TEXT PRIMARY KEY,
  action TEXT NOT NULL CHECK (action IN (${ruleActions.map((action) => `'${action}'`).join(', ')})),
  added_at INTEGER NOT NULL, source TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS changes (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
INSERT INTO changes (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;
CREATE TABLE IF NOT EXISTS last_list (
  id INTEGER PRIMARY KEY CHECK (id = 1), list TEXT NOT NULL, at INTEGER NOT NULL, rows TEXT NOT NULL
);
PRAGMA user_version = ${rulesVersion}`;

export type RuleStore = {
  /** Sets each domain's rule (a domain's earlier rule is replaced); answers how many were new and changed. */
  set(rules: readonly DomainRule[], source: string, now?: number): { added: number; changed: number };
  /** Removes the rules of these domains; answers how many there were. */
  remove(domains: readonly string[]): number;
  /** Every rule, by domain (a person sets tens or thousands, not millions). */
  all(): StoredRule[];
  /** Goes up with every change: a list read before a change is read again. */
  version(): number;
  recordLastList(counts: LastListCounts): void;
  lastList(): LastListCounts | undefined;
  close(): void;
};

export function openRuleStore(dataDir: string): RuleStore {
  const db: Database = openDatabase(rulesFile(dataDir));
  migrateOrRestore(rulesFile(dataDir), db, () => db.exec(schema));
  const changed = () => sql(db, 'UPDATE changes SET version = version + 1 WHERE id = 1').run();
  const actionOf = sql(db, 'SELECT action FROM rules WHERE domain = ?');
  const upsert = sql(
    db,
    `INSERT INTO rules (domain, action, added_at, source) VALUES (?, ?, ?, ?)
     ON CONFLICT (domain) DO UPDATE SET action = excluded.action, added_at = excluded.added_at, source = excluded.source`,
  );
  return {
    set(rules, source, now = Date.now()) {
      return transaction(db, () => {
        let added = 0;
        let changes = 0;
        for (const rule of rules) {
          const before = (actionOf.get(rule.domain) as { action: string } | undefined)?.action;
          if (before === rule.action) continue;
          upsert.run(rule.domain, rule.action, now, source);
          if (before === undefined) added += 1;
          else changes += 1;
        }
        if (added + changes > 0) changed();
        return { added, changed: changes };
      });
    },
    remove(domains) {
      return transaction(db, () => {
        const { changes } = sql(db, 'DELETE FROM rules WHERE domain IN (SELECT value FROM json_each(?))').run(
          JSON.stringify(domains),
        );
        if (Number(changes) > 0) changed();
        return Number(changes);
      });
    },
    all: () =>
      (
        sql(db, 'SELECT domain, action, added_at AS addedAt, source FROM rules ORDER BY domain').all() as StoredRule[]
      ).map((row) => ({ ...row })),
    version: () => (sql(db, 'SELECT version FROM changes WHERE id = 1').get() as { version: number }).version,
    recordLastList({ list, at, rows }) {
      sql(
        db,
        `INSERT INTO last_list (id, list, at, rows) VALUES (1, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET list = excluded.list, at = excluded.at, rows = excluded.rows`,
      ).run(list, at, JSON.stringify(rows));
    },
    lastList() {
      const row = sql(db, 'SELECT list, at, rows FROM last_list WHERE id = 1').get() as
        { list: string; at: number; rows: string } | undefined;
      return row && { list: row.list, at: row.at, rows: JSON.parse(row.rows) as Record<string, number> };
    },
    close: () => db.close(),
  };
}
