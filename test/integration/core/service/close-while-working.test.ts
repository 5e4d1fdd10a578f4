// A service asked to close while it still works a call (a client that went away mid-upload: Ctrl-C on
// `sift clean`) lets that call end its writes before it closes its database: no call fails on a closed
// database, and what it wrote is whole.
import { request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sandboxEngine } from '../../../../electron/core/service/engines/sandbox-engine.ts';
import { openServiceStore, startVerificationService } from '../../../../electron/core/service/verification-service.ts';
import { addresses, testServicePlace, waitFor } from '../../../support/service-harness.ts';

afterEach(() => vi.restoreAllMocks());

describe('closing while a call is worked', () => {
  it('waits for the call to end its writes, then closes', async () => {
    const place = await testServicePlace();
    const service = await startVerificationService(place, sandboxEngine);
    const { key, record } = await service.dashboard.createKey('sandbox', 'close');
    await service.dashboard.setKeyRateLimits(record.id, { uploadFile: { limit: 100, windowSeconds: 60 } });
    const errors = vi.spyOn(console, 'error');
    // A list uploaded as a file (Sift's own shortcut), as `sift clean` sends it.
    const body = `email\r\n${addresses(300_000).join('\r\n')}\r\n`;
    const url = new URL(`${service.baseUrl}/files?name=big`);
    // The whole body goes out, and the client then goes away before the answer, as a killed `sift clean` does:
    // the service is asked to close once it has begun writing the batch.
    const sent = request(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'text/csv', 'Idempotency-Key': 'close-1' },
    });
    sent.on('error', () => {});
    sent.end(body);
    const watcher = await openServiceStore(place);
    try {
      await waitFor(async () => ((await watcher.db.all('SELECT id FROM batches')) as unknown[]).length > 0, 20_000, 2);
    } finally {
      await watcher.db.close();
    }
    await service.close();
    expect(errors.mock.calls.filter((call) => String(call[0]).includes('request failed'))).toEqual([]);
    // What the call wrote is whole: the batch it made holds every address, or there is none.
    const store = await openServiceStore(place);
    try {
      const batches = (await store.db.all('SELECT submitted, status FROM batches')) as { submitted: number }[];
      expect(batches.every((batch) => batch.submitted === 300_000)).toBe(true);
    } finally {
      await store.db.close();
    }
  }, 60_000);
});

describe('closing twice', () => {
  it('closes once: a second close, at once or later, waits for the first and fails nothing', async () => {
    const service = await startVerificationService(await testServicePlace(), sandboxEngine);
    await expect(Promise.all([service.close(), service.close()])).resolves.toBeDefined();
    await expect(service.close()).resolves.toBeUndefined();
  });
});
