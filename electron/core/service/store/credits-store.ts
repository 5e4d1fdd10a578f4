// Credits: live keys get a free allowance each month, then spend the balance; sandbox keys never spend.
// A batch reserves what it may need when it is submitted, so two batches cannot both count on the same credits.
import { assumedErrors } from '../../wire/assumptions.ts';
import type { SqlConnection } from '../../storage/sql-connection.ts';
import type { ServiceConfig } from '../service-config.ts';
import { ServiceError } from '../service-errors.ts';
import { recordEvent } from './webhooks-store.ts';

type AccountRow = {
  balance: number;
  free_month: string;
  free_used: number;
  low_threshold: number | null;
  low_armed: number;
};

export type AccountState = { balance: number; freeRemaining: number; freeMonth: string; lowThreshold: number | null };
export type Reservation = { free: number; paid: number; freeMonth: string };

function monthOf(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

/** The account row, with the free allowance renewed when a new month has begun. */
async function currentAccount(db: SqlConnection, now: number): Promise<AccountRow> {
  const month = monthOf(now);
  await db.run('UPDATE account SET free_month = ?, free_used = 0 WHERE id = 1 AND free_month <> ?', [month, month]);
  return (await db.get('SELECT * FROM account WHERE id = 1')) as AccountRow;
}

export async function accountState(db: SqlConnection, config: ServiceConfig, now: number): Promise<AccountState> {
  const row = await currentAccount(db, now);
  return {
    balance: row.balance,
    freeRemaining: Math.max(0, config.freeChecksPerMonth - row.free_used),
    freeMonth: row.free_month,
    lowThreshold: row.low_threshold,
  };
}

/** Answers 402 when the account cannot pay for `count` checks; takes nothing. */
export async function assertCanPay(
  db: SqlConnection,
  config: ServiceConfig,
  now: number,
  count: number,
): Promise<AccountState> {
  const state = await accountState(db, config, now);
  if (count > state.freeRemaining + state.balance) {
    throw new ServiceError(
      'payment_required',
      assumedErrors.insufficientCredits,
      `This needs ${count} credits; the account has ${state.freeRemaining} free checks left this month and a balance of ${state.balance}.`,
    );
  }
  return state;
}

/** Takes `count` credits, free ones first, or answers 402 taking nothing. Call inside a transaction. */
export async function reserveCredits(
  db: SqlConnection,
  config: ServiceConfig,
  now: number,
  count: number,
): Promise<Reservation> {
  const state = await assertCanPay(db, config, now, count);
  const free = Math.min(count, state.freeRemaining);
  const paid = count - free;
  if (count > 0) {
    await db.run('UPDATE account SET free_used = free_used + ?, balance = balance - ? WHERE id = 1', [free, paid]);
    if (paid > 0) await checkLowBalance(db, now);
  }
  return { free, paid, freeMonth: state.freeMonth };
}

/** Gives credits back. Free checks return only within the month they were taken from. */
export async function refundCredits(db: SqlConnection, now: number, refund: Reservation): Promise<void> {
  const freeBack = refund.freeMonth === monthOf(now) ? refund.free : 0;
  await db.run(
    'UPDATE account SET free_used = CASE WHEN free_used > ? THEN free_used - ? ELSE 0 END, balance = balance + ? WHERE id = 1',
    [freeBack, freeBack, refund.paid],
  );
  await rearmLowBalance(db);
}

export async function topUp(db: SqlConnection, amount: number): Promise<void> {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error('A top-up must be a positive whole number of credits.');
  await db.run('UPDATE account SET balance = balance + ? WHERE id = 1', [amount]);
  await rearmLowBalance(db);
}

export async function setLowBalanceThreshold(db: SqlConnection, threshold: number | null): Promise<void> {
  await db.run('UPDATE account SET low_threshold = ?, low_armed = 1 WHERE id = 1', [threshold]);
  await rearmLowBalance(db);
}

/** `credits.low` fires once as the balance falls below the threshold, and again only after it has risen back. */
async function checkLowBalance(db: SqlConnection, now: number): Promise<void> {
  const row = (await db.get('SELECT balance, low_threshold, low_armed FROM account WHERE id = 1')) as AccountRow;
  if (row.low_threshold === null || !row.low_armed || row.balance >= row.low_threshold) return;
  await db.run('UPDATE account SET low_armed = 0 WHERE id = 1');
  await recordEvent(db, now, 'credits.low', { balance: row.balance });
}

async function rearmLowBalance(db: SqlConnection): Promise<void> {
  await db.run('UPDATE account SET low_armed = 1 WHERE id = 1 AND (low_threshold IS NULL OR balance >= low_threshold)');
}
