// Credits: live keys get a free allowance each month, then spend the balance; sandbox keys never spend.
// A batch reserves what it may need when it is submitted, so two batches cannot both count on the same credits.
import { assumedErrors } from '../../wire/assumptions.ts';
import { sql, type Database } from '../../storage/sqlite.ts';
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

export function monthOf(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

/** The account row, with the free allowance renewed when a new month has begun. */
function currentAccount(db: Database, now: number): AccountRow {
  const month = monthOf(now);
  sql(db, 'UPDATE account SET free_month = ?, free_used = 0 WHERE id = 1 AND free_month <> ?').run(month, month);
  return sql(db, 'SELECT * FROM account WHERE id = 1').get() as AccountRow;
}

export function accountState(db: Database, config: ServiceConfig, now: number): AccountState {
  const row = currentAccount(db, now);
  return {
    balance: row.balance,
    freeRemaining: Math.max(0, config.freeChecksPerMonth - row.free_used),
    freeMonth: row.free_month,
    lowThreshold: row.low_threshold,
  };
}

/** Answers 402 when the account cannot pay for `count` checks; takes nothing. */
export function assertCanPay(db: Database, config: ServiceConfig, now: number, count: number): AccountState {
  const state = accountState(db, config, now);
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
export function reserveCredits(db: Database, config: ServiceConfig, now: number, count: number): Reservation {
  const state = assertCanPay(db, config, now, count);
  const free = Math.min(count, state.freeRemaining);
  const paid = count - free;
  if (count > 0) {
    sql(db, 'UPDATE account SET free_used = free_used + ?, balance = balance - ? WHERE id = 1').run(free, paid);
    if (paid > 0) checkLowBalance(db, now);
  }
  return { free, paid, freeMonth: state.freeMonth };
}

/** Gives credits back. Free checks return only within the month they were taken from. */
export function refundCredits(db: Database, now: number, refund: Reservation): void {
  const freeBack = refund.freeMonth === monthOf(now) ? refund.free : 0;
  sql(db, 'UPDATE account SET free_used = MAX(0, free_used - ?), balance = balance + ? WHERE id = 1').run(
    freeBack,
    refund.paid,
  );
  rearmLowBalance(db);
}

export function topUp(db: Database, amount: number): void {
  if (!Number.isInteger(amount) || amount <= 0) throw new Error('A top-up must be a positive whole number of credits.');
  sql(db, 'UPDATE account SET balance = balance + ? WHERE id = 1').run(amount);
  rearmLowBalance(db);
}

export function setLowBalanceThreshold(db: Database, threshold: number | null): void {
  sql(db, 'UPDATE account SET low_threshold = ?, low_armed = 1 WHERE id = 1').run(threshold);
  rearmLowBalance(db);
}

/** `credits.low` fires once as the balance falls below the threshold, and again only after it has risen back. */
function checkLowBalance(db: Database, now: number): void {
  const row = sql(db, 'SELECT balance, low_threshold, low_armed FROM account WHERE id = 1').get() as AccountRow;
  if (row.low_threshold === null || !row.low_armed || row.balance >= row.low_threshold) return;
  sql(db, 'UPDATE account SET low_armed = 0 WHERE id = 1').run();
  recordEvent(db, now, 'credits.low', { balance: row.balance });
}

function rearmLowBalance(db: Database): void {
  sql(
    db,
    'UPDATE account SET low_armed = 1 WHERE id = 1 AND (low_threshold IS NULL OR balance >= low_threshold)',
  ).run();
}
