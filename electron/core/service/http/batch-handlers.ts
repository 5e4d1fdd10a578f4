// POST /batches, GET /batches/{id}, POST /batches/{id}/cancel, and the staging both ways of creating a
// batch share (a JSON list here, a file in files-handler.ts).
import { batchStatuses, createBatchRequestSchema, createdStatus } from '../../wire/assumptions.ts';
import { batchObject } from '../batch-objects.ts';
import { invalidRequest } from '../service-errors.ts';
import { cancelBatch, openBatch } from '../store/batch-lifecycle-store.ts';
import {
  beginBatch,
  beginStaging,
  discardBatch,
  getBatchFor,
  stageAddresses,
  type AnswerNow,
  type Staging,
} from '../store/batches-store.ts';
import { requestHash, type StoredResponse } from '../store/idempotency-store.ts';
import { sendJson } from './error-responses.ts';
import { idempotent, readJson, type Settle } from './idempotent.ts';
import type { Call, ServiceContext } from './service-context.ts';

/** Addresses staged per transaction: a huge batch is never one giant write. */
export const stageChunk = 20_000;

export async function createBatch(context: ServiceContext, call: Call): Promise<void> {
  const { db, config } = context;
  const { text, value } = await readJson(call.request, config.maxJsonBytes);
  const parsed = createBatchRequestSchema.safeParse(value);
  if (!parsed.success) {
    throw invalidRequest('invalid_batch', 'The body must be JSON `{ "name": string, "emails": [string, ...] }`.');
  }
  const { emails, name = '' } = parsed.data;
  if (emails.length === 0) throw invalidRequest('empty_batch', 'A batch needs at least one address.');
  if (emails.length > config.maxBatchAddresses) {
    throw invalidRequest('batch_too_large', `A batch holds at most ${config.maxBatchAddresses} addresses.`);
  }
  await idempotent(context, call, requestHash('batches', text), (settle) =>
    createStagedBatch(
      context,
      call,
      name,
      settle,
      async (batchId, staging) => {
        for (let i = 0; i < emails.length; i += stageChunk)
          await stageAddresses(db, config, batchId, emails.slice(i, i + stageChunk), staging);
      },
      emails.length,
    ),
  );
}

/**
 * Sandbox verdicts are scripted and open no connection: with no pacing asked for, each address gets its
 * verdict as it is staged, in the same write, rather than a second write per address from the worker.
 * Live keys' verdicts always come from the worker (it also spends the credits they reserve).
 */
function answerNow(context: ServiceContext, mode: 'live' | 'sandbox'): AnswerNow | undefined {
  const engine = context.engines[mode];
  const unpaced = context.config.sandboxProbesPerSecondPerHost === Number.POSITIVE_INFINITY;
  return mode === 'sandbox' && unpaced ? engine.verifyNow : undefined;
}

/** Stages a new batch's addresses and opens it; the answer is stored for replays in the same transaction. */
export async function createStagedBatch(
  context: ServiceContext,
  call: Call,
  name: string,
  settle: Settle,
  stage: (batchId: string, staging: Staging) => void | Promise<void>,
  /** How many addresses are coming, when known. */
  expected?: number,
): Promise<StoredResponse> {
  const { db, config } = context;
  const batchId = await beginBatch(db, config.now(), call.key, name, context.processId);
  try {
    await stage(batchId, beginStaging(answerNow(context, call.key.mode), expected));
  } catch (error) {
    await discardBatch(db, batchId);
    throw error;
  }
  let stored: StoredResponse | undefined;
  await openBatch(db, config, config.now(), batchId, async (tx, batch) => {
    stored = { status: createdStatus, body: JSON.stringify(batchObject(batch)) };
    await settle(tx, stored);
  });
  return stored!;
}

export async function batchStatus(context: ServiceContext, call: Call): Promise<void> {
  const batch = await getBatchFor(context.db, call.params[0]!, call.key.mode);
  // A running batch whose engine paces itself says how long it has left at that pace.
  const running = batch.status === batchStatuses.running;
  // An estimate is a courtesy: a store that cannot give one leaves it out, never fails the status call.
  const estimate = running
    ? await context.engines[batch.mode].estimate?.(batch.row_key).catch(() => undefined)
    : undefined;
  sendJson(call.response, 200, batchObject(batch, estimate));
}

export async function cancel(context: ServiceContext, call: Call): Promise<void> {
  const { db, config } = context;
  const batch = await getBatchFor(db, call.params[0]!, call.key.mode);
  await idempotent(context, call, requestHash('cancel', batch.id), async (settle) => {
    let stored: StoredResponse | undefined;
    await cancelBatch(db, config.now(), batch, async (tx, canceled) => {
      stored = { status: 200, body: JSON.stringify(batchObject(canceled)) };
      await settle(tx, stored);
    });
    return stored!;
  });
}
