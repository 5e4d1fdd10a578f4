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
  now: number,
): Promise<void> {
  await db.run(
    `INSERT INTO service_processes (id, role, host, pid, started_at, seen_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at`,
    [process.id, process.role, process.host, process.pid, now, now],
  );
}

/** Forgets every other process: SQLite's file is one process's at a time, so any other has gone. */
export async function forgetOtherProcesses(db: SqlConnection, id: string): Promise<void> {
  await db.run('DELETE FROM service_processes WHERE id <> ?', [id]);
}

/** Forgets the processes not seen since `seenSince`; answers how many. */
export async function forgetGoneProcesses(db: SqlConnection, seenSince: number): Promise<number> {
  return (await db.run('DELETE FROM service_processes WHERE seen_at < ?', [seenSince])).changes;
}

export async function unregisterProcess(db: SqlConnection, id: string): Promise<void> {
  await db.run('DELETE FROM service_processes WHERE id = ?', [id]);
}

export type ServiceProcess = { id: string; role: ProcessRole; host: string; pid: number; seenAt: number };

export async function listProcesses(db: SqlConnection): Promise<ServiceProcess[]> {
  return db.all<ServiceProcess>(
    'SELECT id, role, host, pid, seen_at AS "seenAt" FROM service_processes ORDER BY started_at',
  );
}
