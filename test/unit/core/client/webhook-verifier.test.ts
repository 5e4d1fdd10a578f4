// Vectors computed here with node:crypto directly, not with the verifier's own code.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createEventDeduplicator, verifyWebhook } from '../../../../electron/core/client/webhook-verifier.ts';

const secret = 'whsec_test_secret_one';
const rotated = 'whsec_test_secret_two';
const t = 1_795_000_000;
const body =
  '{"id":"evt_1","type":"batch.completed","created_at":"2026-11-21T12:00:00.000Z","data":{"batch_id":"bat_1","name":"n"}}';
const sign = (key: string, timestamp: number, payload: string) =>
  createHmac('sha256', key).update(`${timestamp}.${payload}`).digest('hex');
const header = (key = secret, timestamp = t, payload = body) => `t=${timestamp},v1=${sign(key, timestamp, payload)}`;

describe('verifyWebhook', () => {
  it('accepts a valid signature over the raw bytes', () => {
    expect(
      verifyWebhook({ payload: Buffer.from(body), header: header(), secrets: [secret], nowSeconds: t + 10 }),
    ).toMatchObject({
      id: 'evt_1',
      type: 'batch.completed',
    });
  });

  it('rejects a tampered body', () => {
    const tampered = body.replace('bat_1', 'bat_2');
    expect(() => verifyWebhook({ payload: tampered, header: header(), secrets: [secret], nowSeconds: t })).toThrow(
      expect.objectContaining({ reason: 'no_matching_signature' }),
    );
  });

  it('rejects the same JSON re-serialised', () => {
    const reserialised = JSON.stringify(JSON.parse(body), null, 1);
    expect(() => verifyWebhook({ payload: reserialised, header: header(), secrets: [secret], nowSeconds: t })).toThrow(
      expect.objectContaining({ reason: 'no_matching_signature' }),
    );
  });

  it('rejects a wrong secret, and a missing or malformed header', () => {
    expect(() =>
      verifyWebhook({ payload: body, header: header('whsec_other'), secrets: [secret], nowSeconds: t }),
    ).toThrow(expect.objectContaining({ reason: 'no_matching_signature' }));
    expect(() => verifyWebhook({ payload: body, header: undefined, secrets: [secret], nowSeconds: t })).toThrow(
      expect.objectContaining({ reason: 'missing_header' }),
    );
    expect(() => verifyWebhook({ payload: body, header: 'v1=abc', secrets: [secret], nowSeconds: t })).toThrow(
      expect.objectContaining({ reason: 'malformed_header' }),
    );
  });

  it('rejects timestamps more than 300 s away in either direction, and the tolerance can be set', () => {
    expect(() => verifyWebhook({ payload: body, header: header(), secrets: [secret], nowSeconds: t + 301 })).toThrow(
      expect.objectContaining({ reason: 'timestamp_out_of_tolerance' }),
    );
    expect(() => verifyWebhook({ payload: body, header: header(), secrets: [secret], nowSeconds: t - 301 })).toThrow(
      expect.objectContaining({ reason: 'timestamp_out_of_tolerance' }),
    );
    expect(verifyWebhook({ payload: body, header: header(), secrets: [secret], nowSeconds: t + 300 }).id).toBe('evt_1');
    expect(
      verifyWebhook({
        payload: body,
        header: header(),
        secrets: [secret],
        nowSeconds: t + 3000,
        toleranceSeconds: 3600,
      }).id,
    ).toBe('evt_1');
  });

  it('accepts either secret during a rotation, and any matching v1 in the header', () => {
    expect(
      verifyWebhook({ payload: body, header: header(rotated), secrets: [secret, rotated], nowSeconds: t }).id,
    ).toBe('evt_1');
    const twoSignatures = `t=${t},v1=${sign('whsec_old', t, body)},v1=${sign(secret, t, body)}`;
    expect(verifyWebhook({ payload: body, header: twoSignatures, secrets: [secret], nowSeconds: t }).id).toBe('evt_1');
  });
});

describe('createEventDeduplicator', () => {
  it('says yes once per event id', () => {
    const dedupe = createEventDeduplicator(2);
    expect(dedupe.firstSighting('evt_1')).toBe(true);
    expect(dedupe.firstSighting('evt_1')).toBe(false);
    expect(dedupe.firstSighting('evt_2')).toBe(true);
    expect(dedupe.firstSighting('evt_3')).toBe(true);
    expect(dedupe.firstSighting('evt_1')).toBe(true); // forgotten beyond the size bound
  });
});
