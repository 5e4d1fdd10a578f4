// The base URL as people write it, against the real service on loopback: with or without /v1, a trailing
// slash or a path prefix, every call lands on {base_url}/v1/... exactly once; `sift` takes the bare origin too.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateBudget } from '../../../../electron/core/client/rate-budget.ts';
import { createServiceClient } from '../../../../electron/core/client/service-client.ts';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { startFaultProxy } from '../../../support/fault-proxy.ts';
import { runSift } from '../../../support/run-sift.ts';
import { startTestService } from '../../../support/service-harness.ts';

let service: VerificationService;
let origin: string;
beforeAll(async () => {
  service = await startTestService();
  origin = new URL(service.baseUrl).origin;
});
afterAll(() => service.close());

describe('base URL', () => {
  it('reaches /v1 once, whether the URL has /v1, a trailing slash, both or neither', async () => {
    const { key } = await service.dashboard.createKey('live', 'base-url');
    const proxy = await startFaultProxy(service.baseUrl, () => ({ kind: 'forward' }));
    try {
      const proxyOrigin = new URL(proxy.baseUrl).origin;
      for (const suffix of ['', '/', '/v1', '/v1/']) {
        const client = createServiceClient({
          baseUrl: `${proxyOrigin}${suffix}`,
          apiKey: key,
          budget: createRateBudget(),
        });
        await expect(client.getAccount(), suffix).resolves.toMatchObject({ mode: 'live' });
        const batch = await client.createBatch({ name: `suffix${suffix}`, emails: ['valid@example.com'] });
        await expect(client.getBatch(batch.id)).resolves.toMatchObject({ id: batch.id });
      }
      expect(new Set(proxy.seen.map((request) => request.url.replace(/bat_\w+/, 'bat_1')))).toEqual(
        new Set(['/v1/account', '/v1/batches', '/v1/batches/bat_1']),
      );
    } finally {
      await proxy.close();
    }
  });

  it('keeps a path prefix in front of /v1', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'prefix');
    // A gateway that serves the service under /verifier and nothing else.
    const proxy = await startFaultProxy(service.baseUrl, (request) =>
      request.url.startsWith('/verifier/v1/')
        ? { kind: 'forward-as', url: request.url.slice('/verifier'.length) }
        : { kind: 'respond', status: 404 },
    );
    try {
      const proxyOrigin = new URL(proxy.baseUrl).origin;
      for (const baseUrl of [`${proxyOrigin}/verifier`, `${proxyOrigin}/verifier/v1/`]) {
        const client = createServiceClient({ baseUrl, apiKey: key, budget: createRateBudget() });
        await expect(client.verify('valid.prefix@example.com'), baseUrl).resolves.toMatchObject({ result: 'valid' });
      }
      expect(proxy.seen.map((request) => request.url)).toEqual(['/verifier/v1/verify', '/verifier/v1/verify']);
    } finally {
      await proxy.close();
    }
  });

  it('refuses a live key over plain http to another host before sending anything', async () => {
    const { key } = await service.dashboard.createKey('live', 'in-clear');
    let sent = 0;
    const counting: typeof fetch = (input, init) => {
      sent += 1;
      return fetch(input, init);
    };
    expect(() => createServiceClient({ baseUrl: 'http://api.example.com/v1', apiKey: key, fetch: counting })).toThrow(
      expect.objectContaining({
        kind: 'configuration',
        message: expect.stringContaining('the key would travel in clear'),
      }),
    );
    expect(sent).toBe(0);
    // Loopback is this computer: a live key may use plain http there.
    await expect(
      createServiceClient({ baseUrl: origin, apiKey: key, fetch: counting, budget: createRateBudget() }).getAccount(),
    ).resolves.toMatchObject({ mode: 'live' });
    expect(sent).toBe(1);
  });
});

describe('sift with --base-url', () => {
  it('cleans a list against the bare origin (no /v1, no trailing slash)', async () => {
    const { key } = await service.dashboard.createKey('sandbox', 'cli-origin');
    const dir = await mkdtemp(join(tmpdir(), 'sift-base-url-'));
    const input = join(dir, 'list.csv');
    await writeFile(input, 'email\nvalid.one@example.com\ninvalid.two@example.com\n');
    const run = await runSift(['clean', input, '--base-url', origin, '--json'], {
      SIFT_API_KEY: key,
      SIFT_DATA_DIR: join(dir, 'data'),
    });
    expect(run.stderr).not.toContain('could not reach');
    expect(run.code, run.stderr).toBe(0);
    const batches = await service.db.all("SELECT submitted FROM batches WHERE name = 'list.csv'");
    expect(batches).toEqual([{ submitted: 2 }]);
  });

  it('says why it will not send a live key over plain http to another host', async () => {
    const { key } = await service.dashboard.createKey('live', 'cli-in-clear');
    const run = await runSift(['verify', 'valid@example.com', '--base-url', 'http://api.example.com'], {
      SIFT_API_KEY: key,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('must use https with a live key: over http the key would travel in clear');
    expect(run.stderr).not.toContain(key);
  });
});
