// Writing a round's verdicts into a batch's rows. SQLite runs one prepared statement per row in-process;
// PostgreSQL is a round trip per statement, so there a round's rows go in a few statements of many rows.
import type { SqlConnection } from '../../storage/sql-connection.ts';
import type { Verdict } from '../engines/engine.ts';
import { rowIdSql, seqMask } from './row-ids.ts';

export type VerdictWrite = { seq: number; verdict: Verdict; billed: boolean; fromFree: boolean; resultSeq: number };

/** Which of these seqs of the batch (by its row key) have no verdict yet. */
export async function stillPending(db: SqlConnection, rowKey: number, seqs: readonly number[]): Promise<Set<number>> {
  if (seqs.length === 0) return new Set();
  const rows = await db.arrays<[number]>(
    `SELECT id & ${seqMask} FROM batch_rows
     WHERE id IN (SELECT ${rowIdSql('?', 'list.value')} FROM (${db.dialect.jsonList}) AS list)
     AND result IS NULL`,
    [rowKey, JSON.stringify(seqs)],
  );
  return new Set(rows.map(([seq]) => seq));
}

const columns = (write: VerdictWrite) => {
  const { verdict } = write;
  return [
    verdict.result,
    verdict.reason,
    verdict.role ? 1 : 0,
    verdict.disposable ? 1 : 0,
    write.billed ? 1 : 0,
    write.fromFree ? 1 : 0,
    verdict.provider ?? null,
    verdict.free === undefined ? null : verdict.free ? 1 : 0,
    verdict.smtpReply ?? null,
    verdict.smtpTls ?? null,
  ];
};

/** Rows per statement on PostgreSQL: 12 parameters each, well under its 65,535. */
const rowsPerStatement = 1000;
/** Each value's type, in the order of `v`'s columns below: seq, result_seq, then `columns`. */
const valueTypes = [
  'BIGINT',
  'BIGINT',
  'TEXT',
  'TEXT',
  'INTEGER',
  'INTEGER',
  'INTEGER',
  'INTEGER',
  'TEXT',
  'INTEGER',
  'TEXT',
  'TEXT',
];
const valueRow = `(${valueTypes.map((type) => `CAST(? AS ${type})`).join(', ')})`;

/**
 * Writes verdicts to rows the caller found pending, with the batch locked (so they still are); answers
 * how many rows it wrote, which the caller checks.
 */
export async function writeVerdicts(db: SqlConnection, rowKey: number, writes: readonly VerdictWrite[]) {
  let written = 0;
  if (db.dialect.statementPerRow) {
    const write = `UPDATE batch_rows SET result = ?, reason = ?, role = ?, disposable = ?, billed = ?, billed_free = ?,
       provider = ?, free = ?, smtp_reply = ?, smtp_tls = ?, result_key = ${rowIdSql('?', '?')}
       WHERE id = ${rowIdSql('?', '?')} AND result IS NULL`;
    for (const row of writes) {
      written += (await db.run(write, [...columns(row), rowKey, row.resultSeq, rowKey, row.seq])).changes;
    }
    return written;
  }
  for (let from = 0; from < writes.length; from += rowsPerStatement) {
    const part = writes.slice(from, from + rowsPerStatement);
    const { changes } = await db.run(
      `UPDATE batch_rows AS r SET result = v.result, reason = v.reason, role = v.role, disposable = v.disposable,
         billed = v.billed, billed_free = v.billed_free, provider = v.provider, free = v.free,
         smtp_reply = v.smtp_reply, smtp_tls = v.smtp_tls, result_key = ${rowIdSql('?', 'v.result_seq')}
       FROM (VALUES ${part.map(() => valueRow).join(', ')}) AS v (seq, result_seq, result, reason, role, disposable,
         billed, billed_free, provider, free, smtp_reply, smtp_tls)
       WHERE r.id = ${rowIdSql('?', 'v.seq')} AND r.result IS NULL`,
      [rowKey, ...part.flatMap((row) => [row.seq, row.resultSeq, ...columns(row)]), rowKey],
    );
    written += changes;
  }
  return written;
}
