// A batch's verdicts read back in result order: a cursor is a position that stays valid while rows are
// still being added behind it (row-ids.ts says how a position is joined to a batch's key).
import type { SqlConnection } from '../../storage/sql-connection.ts';
import type { ResultRow } from '../../wire/spec.ts';
import { verdictExtras } from '../batch-objects.ts';
import type { ServiceConfig } from '../service-config.ts';
import type { BatchRecord } from './batches-store.ts';
import type { Verdict } from '../engines/engine.ts';
import { afterSeqInBatchSql, withBatchBaseSql } from './row-ids.ts';

export function resultsExpired(config: ServiceConfig, batch: BatchRecord, now: number): boolean {
  return batch.ended_at !== null && now > batch.ended_at + config.retentionMs;
}

type StoredRow = {
  email: string;
  provider: string | null;
  free: number | null;
  smtp_reply: string | null;
  smtp_tls: string | null;
  result: string;
  billed: number;
  role: number;
  disposable: number;
  reason: string | null;
  result_seq: number;
};

export function toResultRow(row: StoredRow): ResultRow {
  // role, disposable and reason are Sift's extras (see wire assumptions); readers must not need them.
  return {
    email: row.email,
    result: row.result,
    billed: row.billed === 1,
    role: row.role === 1,
    disposable: row.disposable === 1,
    ...(row.reason ? { reason: row.reason } : {}),
    ...verdictExtras({
      ...(row.provider ? { provider: row.provider } : {}),
      ...(row.free === null ? {} : { free: row.free === 1 }),
      ...(row.smtp_reply ? { smtpReply: row.smtp_reply } : {}),
      ...(row.smtp_tls ? { smtpTls: row.smtp_tls as NonNullable<Verdict['smtpTls']> } : {}),
    }),
  };
}

/** Rows after `position` in result order, optionally one verdict only. */
export async function readResults(
  db: SqlConnection,
  batchId: string,
  position: number,
  limit: number,
  filter?: string,
): Promise<StoredRow[]> {
  const filterClause = filter === undefined ? '' : 'AND result = ?';
  const params: (string | number)[] = [batchId, position, ...(filter === undefined ? [] : [filter]), limit];
  return (await db.all(
    `${withBatchBaseSql}
     SELECT email, result, billed, role, disposable, reason, provider, free, smtp_reply, smtp_tls,
       result_key - base AS result_seq
     FROM batch, batch_rows WHERE ${afterSeqInBatchSql('result_key')} ${filterClause}
     ORDER BY result_key LIMIT ?`,
    [...params],
  )) as StoredRow[];
}

/** What the CSV download needs of a row, as an array: a million named objects cost more than the query. */
export type ResultCells = [
  email: string,
  result: string,
  billed: number,
  reason: string | null,
  provider: string | null,
];

/** Rows after `position` in result order, as `ResultCells` and the position of the last. */
export async function readResultCells(
  db: SqlConnection,
  batchId: string,
  position: number,
  limit: number,
): Promise<{ cells: ResultCells[]; last: number }> {
  const rows = await db.arrays<[...ResultCells, number]>(
    `${withBatchBaseSql}
     SELECT email, result, billed, reason, provider, result_key - base FROM batch, batch_rows
     WHERE ${afterSeqInBatchSql('result_key')} ORDER BY result_key LIMIT ?`,
    [batchId, position, limit],
  );
  return { cells: rows as unknown as ResultCells[], last: rows.at(-1)?.[5] ?? position };
}
