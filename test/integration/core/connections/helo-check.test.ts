// What "On this computer" says of a HELO name, from the project's DNS test server: it resolves and its
// address points back to it; it resolves to an address with another name; it does not resolve; and a
// DNS that does not answer, which is said as such, not as a finding.
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkHeloName } from '../../../../electron/core/connections/helo-check.ts';
import { startMailWorld, type MailWorld } from '../../../support/mail-world.ts';

let world: MailWorld;
beforeAll(async () => {
  world = await startMailWorld({
    hosts: {
      'probe.sift.test': { ip: '127.0.0.10', greeting: 'closed' },
      'laptop.sift.test': { ip: '127.0.0.11', greeting: 'closed', ptr: 'dsl-11.isp.example' },
    },
    domains: {},
  });
});
afterAll(() => world?.close());

it('says whether the name resolves, and whether its address resolves back to it', async () => {
  expect(await checkHeloName('probe.sift.test', [world.resolver])).toMatchObject({
    state: 'matches',
    addresses: ['127.0.0.10'],
    reverseNames: ['probe.sift.test'],
  });
  expect(await checkHeloName('laptop.sift.test', [world.resolver])).toMatchObject({
    state: 'reverse_differs',
    message: expect.stringContaining('127.0.0.11 resolves back to dsl-11.isp.example'),
  });
  expect(await checkHeloName('nowhere.sift.test', [world.resolver])).toMatchObject({
    state: 'no_address',
    message: expect.stringMatching(/^nowhere\.sift\.test does not resolve to an address/),
  });
});

it('says DNS did not answer when it did not, rather than guessing', async () => {
  const silent = createSocket('udp4');
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  try {
    const check = await checkHeloName('probe.sift.test', [`127.0.0.1:${silent.address().port}`], 300);
    expect(check).toMatchObject({ state: 'not_checked', message: expect.stringMatching(/^DNS did not answer/) });
  } finally {
    silent.close();
  }
});
