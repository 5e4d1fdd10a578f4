// When the service cannot be reached, `unavailable` says what failed in words (refused, no answer, TLS),
// where, and after how many tries; never with the key. Real sockets on loopback, waits on a fake clock.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateBudget } from '../../../../electron/core/client/rate-budget.ts';
import { createServiceClient } from '../../../../electron/core/client/service-client.ts';
import type { VerificationService } from '../../../../electron/core/service/verification-service.ts';
import { fakeClock, startFaultProxy } from '../../../support/fault-proxy.ts';
import { startTestService } from '../../../support/service-harness.ts';

let service: VerificationService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const key = 'svc_test_connectionfailures000000';

function clientAt(baseUrl: string, options: { requestTimeoutMs?: number } = {}) {
  const clock = fakeClock();
  const client = createServiceClient({
    baseUrl,
    apiKey: key,
    clock,
    random: () => 1,
    maxTransientRetries: 2,
    budget: createRateBudget(),
    ...options,
  });
  return { client, clock };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).not.toContain(key);
  return error as Error;
}

describe('unavailable', () => {
  it('says the connection was refused, and where, when nothing listens there', async () => {
    const probe = createServer();
    const host = await listen(probe);
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const { client, clock } = clientAt(`http://${host}`);
    const error = await failureOf(client.getAccount());
    expect(error).toMatchObject({ kind: 'unavailable' });
    expect(error.message).toBe(
      `GET /account could not reach the service at ${host} (tried 3 times): the connection was refused (ECONNREFUSED). ` +
        'Nothing is listening there: is the service running, and is the base URL right?',
    );
    expect(clock.waits).toEqual([500, 1000]);
  });

  it('says the service did not answer in time', async () => {
    // Accepts the request and never answers.
    const silent = createServer(() => {});
    const host = await listen(silent);
    try {
      const { client } = clientAt(`http://${host}/v1`, { requestTimeoutMs: 200 });
      const error = await failureOf(client.getBatch('bat_1'));
      expect(error).toMatchObject({ kind: 'unavailable' });
      expect(error.message).toBe(
        `GET /batches/{id} got no answer from the service at ${host} within 0.2 s (tried 3 times).`,
      );
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('says the secure connection failed when https meets a server that speaks plain http, after one try', async () => {
    const host = new URL(service.baseUrl).host;
    const { client } = clientAt(`https://${host}`);
    const error = await failureOf(client.verify('valid@example.com'));
    expect(error).toMatchObject({ kind: 'unavailable' });
    expect(error.message).toMatch(
      new RegExp(
        `^POST /verify could not reach the service at ${host} \\(tried 1 time\\): the secure \\(TLS\\) connection failed`,
      ),
    );
    expect(error.message).toContain('The server did not answer in TLS: is it an http:// address?');
  });

  it('says it will not follow a redirect, which would carry the key elsewhere, after one try', async () => {
    const proxy = await startFaultProxy(service.baseUrl, () => ({
      kind: 'respond',
      status: 301,
      headers: { Location: 'https://elsewhere.example.com/v1/account' },
    }));
    try {
      const { client } = clientAt(proxy.baseUrl);
      const error = await failureOf(client.getAccount());
      expect(error).toMatchObject({ kind: 'unavailable' });
      expect(error.message).toContain('the service answered with a redirect, which Sift does not follow');
      // Every try would meet the same redirect: none is made again.
      expect(proxy.seen).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});
