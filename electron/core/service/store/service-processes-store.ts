// The service processes working on this database, each seen every few seconds. What a process claims
// while it works (an upload mid-way, a request mid-way) names it, so that when it stops being seen (a
// crash, a killed machine) another process can let its claims go, and never those of a living one.
import type { SqlConnection } from '../../storage/sql-connection.ts';

export type ProcessRole = 'api' | 'worker' | 'all';

/** SQL: the ids of the processes still alive (gone ones are forgotten before their claims are let go). */
export const livingProcessesSql = 'SELECT id FROM service_processes';

export async function registerProcess(
  db: SqlConnection,
  process: { id: string; role: ProcessRole; host: string; pid: number },
): Promise<void> {
  const now = db.dialect.nowMs;
  await db.run(
    `INSERT INTO service_processes (id, role, host, pid, started_at, seen_at) VALUES (?, ?, ?, ?, ${now}, ${now})`,
    [process.id, process.role, process.host, process.pid],
  );
}

/** Says the process is alive; false when it had been taken for gone (and what it claimed let go). */
export async function markSeen(db: SqlConnection, id: string): Promise<boolean> {
  const { changes } = await db.run(`UPDATE service_processes SET seen_at = ${db.dialect.nowMs} WHERE id = ?`, [id]);
  return changes > 0;
}

/** Forgets every other process: SQLite's file is one process's at a time, so any other has gone. */
export async function forgetOtherProcesses(db: SqlConnection, id: string): Promise<void> {
  await db.run('DELETE FROM service_processes WHERE id <> ?', [id]);
}

/** Forgets the processes not seen for `goneAfterMs`; answers how many. */
export async function forgetGoneProcesses(db: SqlConnection, goneAfterMs: number): Promise<number> {
  const cutoff = `${db.dialect.nowMs} - CAST(? AS DOUBLE PRECISION)`;
  return (await db.run(`DELETE FROM service_processes WHERE seen_at < ${cutoff}`, [goneAfterMs])).changes;
}

export async function unregisterProcess(db: SqlConnection, id: string): Promise<void> {
  await db.run('DELETE FROM service_processes WHERE id = ?', [id]);
}
