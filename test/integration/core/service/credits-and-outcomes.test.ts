// Billing rules, 402, credits.low, failure with refund, cancel with a partial summary, and idempotent writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { addresses, apiClient, startTestService, waitFor } from '../../../support/service-harness.ts';

let service: VerificationService;

beforeAll(async () => {
  service = await startTestService({ sandboxProbesPerSecondPerHost: 2000, probesPerSecondPerHost: 2000 });
});
afterAll(() => service.close());

async function liveKey(label: string) {
  const { key, record } = await service.dashboard.createKey('live', label);
  await service.dashboard.setKeyRateLimits(record.id, {
    batchStatus: { limit: 100_000, windowSeconds: 60 },
    createBatch: { limit: 1000, windowSeconds: 60 },
  });
  return apiClient(service, key);
}

async function finished(api: ReturnType<typeof apiClient>, id: string) {
  return waitFor(async () => {
    const status = await api('GET', `/batches/${id}`);
    return status.body.status !== 'running' && status.body;
  });
}

async function allRows(api: ReturnType<typeof apiClient>, id: string) {
  return (await api('GET', `/batches/${id}/results?limit=1000`)).body.data as {
    email: string;
    result: string;
    billed: boolean;
  }[];
}

const events = async (type: string) =>
  (
    (await service.db.all('SELECT body FROM events WHERE type = ? ORDER BY created_at', [type])) as { body: string }[]
  ).map((row) => JSON.parse(row.body));

describe('credits', () => {
  it('spends the free allowance first, then the balance, billing only unique well-formed addresses with a definitive verdict', async () => {
    const api = await liveKey('billing');
    await service.dashboard.topUp(10);
    await service.dashboard.setLowBalanceThreshold(8);
    const emails = [
      ...addresses(105, 'bill.example', 'valid'),
      ...addresses(3, 'bill.example', 'unknown'),
      'valid1@bill.example',
      'VALID2@bill.example',
      'no-at-sign',
      'two@@bill.example',
    ];
    const created = await api('POST', '/batches', { name: 'billing', emails });
    expect(created.status).toBe(201);
    const done = await finished(api, created.body.id);
    expect(done).toMatchObject({
      status: 'complete',
      submitted: 112,
      unique: 110,
      summary: { billed: 105, unknown: 3, duplicates: 2 },
    });
    const rows = await allRows(api, created.body.id);
    expect(rows).toHaveLength(110);
    expect(rows.filter((row) => row.billed)).toHaveLength(105);
    // Neither a bad address nor an `unknown` verdict costs a credit.
    const unbilled = rows.filter((row) => !row.billed);
    expect(unbilled.map((row) => `${row.email} ${row.result}`).sort()).toEqual([
      'no-at-sign invalid',
      'two@@bill.example invalid',
      'unknown0@bill.example unknown',
      'unknown1@bill.example unknown',
      'unknown2@bill.example unknown',
    ]);
    expect(await service.dashboard.account()).toMatchObject({ freeRemaining: 0, balance: 5 });
    expect((await api('GET', '/account')).body).toMatchObject({ mode: 'live', balance: 5, free_remaining: 0 });
    // credits.low fired when the batch reserved what it might spend (108 checks: 100 free, 8 paid, leaving 2);
    // the 3 reserved for the unknown verdicts came back at the end.
    expect(await events('credits.low')).toEqual([
      expect.objectContaining({ type: 'credits.low', data: { balance: 2 } }),
    ]);
  });

  it('answers 402 when the balance cannot cover a batch, creating nothing and spending nothing', async () => {
    const api = await liveKey('broke');
    const before = ((await service.db.get('SELECT COUNT(*) AS n FROM batches')) as { n: number }).n;
    const refused = await api('POST', '/batches', { emails: addresses(6, 'more.example') });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ type: 'payment_required', code: 'insufficient_credits' });
    expect(((await service.db.get('SELECT COUNT(*) AS n FROM batches')) as { n: number }).n).toBe(before);
    expect((await service.dashboard.account()).balance).toBe(5);
  });

  it('bills a single live verification, never a bad address, and fires credits.low only once', async () => {
    const api = await liveKey('single');
    const verdict = await api('POST', '/verify', { email: 'valid.person@example.com' });
    expect(verdict.body).toMatchObject({ email: 'valid.person@example.com', result: 'valid', billed: true });
    const bad = await api('POST', '/verify', { email: 'nobody' });
    expect(bad.body).toMatchObject({ result: 'invalid', billed: false, reason: 'invalid_syntax' });
    expect((await service.dashboard.account()).balance).toBe(4);
    expect(await events('credits.low')).toHaveLength(1);
    expect((await api('POST', '/verify', {})).body.error.code).toBe('missing_email');
  });

  it('never spends credits for sandbox keys', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'sandbox');
    const api = apiClient(service, key);
    const before = await service.dashboard.account();
    const created = await api('POST', '/batches', { emails: addresses(300, 'sand.example') });
    expect(created.status).toBe(201);
    const done = await finished(api, created.body.id);
    expect(done.summary.billed).toBe(0);
    expect((await allRows(api, created.body.id)).some((row) => row.billed)).toBe(false);
    expect((await api('POST', '/verify', { email: 'valid@example.com' })).body.billed).toBe(false);
    expect(await service.dashboard.account()).toEqual(before);
  });
});

describe('batch outcomes', () => {
  it('refunds every credit when the service gives a batch up', async () => {
    await service.dashboard.topUp(20);
    const api = await liveKey('failing');
    const before = await service.dashboard.account();
    const created = await api('POST', '/batches', {
      name: 'doomed',
      emails: [...addresses(8, 'fail.example'), 'giveup@fail.example'],
    });
    const done = await finished(api, created.body.id);
    expect(done.status).toBe('failed');
    expect(done.summary.billed).toBe(0);
    expect((await allRows(api, created.body.id)).some((row) => row.billed)).toBe(false);
    expect(await service.dashboard.account()).toEqual(before);
    expect((await events('batch.failed')).at(-1)).toMatchObject({
      data: {
        batch_id: created.body.id,
        name: 'doomed',
        error: { type: expect.any(String), code: 'verification_failed', message: expect.any(String) },
      },
    });
  });

  it('cancels with a partial summary, keeps what was verified and refunds the rest', async () => {
    const slow = await startTestService({ probesPerSecondPerHost: 20 });
    try {
      const { key, record } = await slow.dashboard.createKey('live', 'cancel');
      await slow.dashboard.setKeyRateLimits(record.id, { batchStatus: { limit: 100_000, windowSeconds: 60 } });
      await slow.dashboard.topUp(500);
      const api = apiClient(slow, key);
      const created = await api('POST', '/batches', { name: 'long', emails: addresses(200, 'cancel.example') });
      await waitFor(async () => (await api('GET', `/batches/${created.body.id}`)).body.summary.billed >= 25);
      const canceled = await api('POST', `/batches/${created.body.id}/cancel`);
      expect(canceled.status).toBe(200);
      expect(canceled.body.status).toBe('canceled');
      const billed = canceled.body.summary.billed as number;
      expect(billed).toBeGreaterThanOrEqual(25);
      expect(billed).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const rows = (await api('GET', `/batches/${created.body.id}/results?limit=1000`)).body.data as {
        billed: boolean;
      }[];
      // Every verified address is a row; only definitive verdicts (not `unknown`) were billed.
      const { valid, invalid, catch_all: catchAll, unknown } = canceled.body.summary as Record<string, number>;
      expect(rows).toHaveLength(valid! + invalid! + catchAll! + unknown!);
      expect(rows.filter((row) => row.billed)).toHaveLength(billed);
      expect((await api('GET', `/batches/${created.body.id}`)).body.summary.billed).toBe(billed);
      // 100 free checks first, then the balance: only what was verified is spent.
      const account = await slow.dashboard.account();
      expect(account.freeRemaining + account.balance).toBe(100 + 500 - billed);
      const event = ((await slow.db.get("SELECT body FROM events WHERE type = 'batch.canceled'")) as { body: string })
        .body;
      expect(JSON.parse(event).data).toMatchObject({ batch_id: created.body.id, name: 'long', summary: { billed } });
      const again = await api('POST', `/batches/${created.body.id}/cancel`);
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('batch_not_running');
    } finally {
      await slow.close();
    }
  });
});

describe('Idempotency-Key', () => {
  it('creates one batch for the same key and body, and refuses the key with another body', async () => {
    const api = await liveKey('idempotent');
    const body = { name: 'once', emails: ['valid1@once.example', 'valid2@once.example'] };
    const first = await api('POST', '/batches', body, { 'Idempotency-Key': 'job-1-batch-0' });
    const second = await api('POST', '/batches', body, { 'Idempotency-Key': 'job-1-batch-0' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(((await service.db.get("SELECT COUNT(*) AS n FROM batches WHERE name = 'once'")) as { n: number }).n).toBe(
      1,
    );
    const other = await api('POST', '/batches', { ...body, name: 'twice' }, { 'Idempotency-Key': 'job-1-batch-0' });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_key_reused');
  });
});
