// A HubSpot list cleaned and its verdicts written to Sift's own contact properties through `sift connect
// hubspot`, `sift audiences` and `sift sync`, against the project's HubSpot test server (hubspot-server.ts,
// with HubSpot's documented rules): the property group and properties made once and found again, batches
// of at most 100, a 429 with its policyName waited out, a 207's refused contact listed with HubSpot's words,
// and every contact outside the list, and every other property, exactly as it was.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { VerificationService } from '../../../electron/core/service/verification-service.ts';
import { startHubspot, type HubspotServer } from '../../support/hubspot-server.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { startTestService, syncTestEnv } from '../../support/service-harness.ts';

let hub: HubspotServer;
let service: VerificationService;
let env: Record<string, string>;

const kinds = ['valid', 'invalid', 'catchall', 'unknown'] as const;
const resultOf = { valid: 'valid', invalid: 'invalid', catchall: 'catch_all', unknown: 'unknown' } as const;

beforeAll(async () => {
  // A window of a second in place of HubSpot's ten: the 429 below is waited out as HubSpot says, in a second.
  [hub, service] = await Promise.all([startHubspot({ windowMs: 1000 }), startTestService()]);
  // 230 contacts; the list "Newsletter" holds the 150 with an even id, and one contact without an address.
  for (let id = 1; id <= 230; id += 1) {
    const kind = kinds[id % 4]!;
    hub.contacts.set(String(id), {
      email: id === 2 ? '' : `${kind}.c${id}@h${id % 30}.example.com`,
      firstname: `C${id}`,
      lifecyclestage: 'lead',
    });
  }
  const members = [...hub.contacts.keys()].filter((id) => Number(id) % 2 === 0 || Number(id) > 200);
  hub.lists.set('7', { name: 'Newsletter', members });
  hub.lists.set('8', { name: 'Nobody yet', members: ['2'] });
  env = await syncTestEnv(service, 1000, { SIFT_HUBSPOT_TOKEN: hub.token });
});
afterAll(async () => {
  await Promise.all([hub?.close(), service?.close()]);
});

it('connects with a token checked there and then, and names the lists', async () => {
  const connect = (token: string) =>
    runSiftHere(['connect', 'hubspot', '--name', 'crm', '--api-url', hub.url], { ...env, SIFT_HUBSPOT_TOKEN: token });
  const refused = await connect('pat-na1-not-the-token');
  expect(refused.code).toBe(3);
  expect(refused.stderr).toContain('refused the credentials (401)');
  expect(refused.stderr).not.toContain('pat-na1-not-the-token');
  const connected = await connect(hub.token);
  expect(connected.code, connected.stderr).toBe(0);
  const audiences = await runSiftHere(['audiences', 'crm', '--json'], env);
  expect(JSON.parse(audiences.stdout)).toEqual([
    { id: 'all', name: 'All contacts', size: 230 },
    { id: '7', name: 'Newsletter', size: 130 },
    { id: '8', name: 'Nobody yet', size: 1 },
  ]);
  // A list whose one contact has no address: nothing to clean, said in words.
  const empty = await runSiftHere(['sync', 'crm', '8', '--write-back'], env);
  expect(empty.code, empty.stderr).toBe(0);
  expect(empty.stdout).toBe('8 has no members Sift would check: nothing is cleaned or written.\n');
});

it("writes each list member's verdict to Sift's own properties, once, and nothing else", async () => {
  const before = structuredClone(Object.fromEntries(hub.contacts));
  const sync = (...flags: string[]) => runSiftHere(['sync', 'crm', '7', '--base-url', service.baseUrl, ...flags], env);
  const planned = await sync();
  expect(planned.code, planned.stderr).toBe(0);
  // 130 members, one without an address (left out of the read: there is nothing to check).
  expect(planned.stderr).toContain('Read 129 members of 7.');
  expect(planned.stdout).toContain('sift_result set to invalid');
  expect(hub.updates).toEqual([]);
  expect(hub.properties.has('sift_result')).toBe(false);

  // A contact deleted between the plan and the writing, and a 429 on the first batch.
  hub.contacts.delete('4');
  hub.failNext('/crm/v3/objects/contacts/batch/update', 429, 1);
  const written = await sync('--write-back');
  expect(written.code).toBe(5);
  expect(written.stdout).toContain('Written: 128 changes.');
  expect(written.stdout).toContain('Refused by the tool: 1');
  expect(hub.failedCalls()).toBe(1);
  expect([...hub.groups]).toEqual(['sift']);
  for (const name of ['sift_result', 'sift_score', 'sift_reasons', 'sift_checked_at'])
    expect(hub.properties.has(name), name).toBe(true);
  // Every batch update Sift sent, the ones the server refused too, held at most HubSpot's 100.
  expect(hub.updateSizes.length).toBeGreaterThan(0);
  expect(Math.max(...hub.updateSizes)).toBeLessThanOrEqual(100);
  const refused = await readFile(/with its words: (\S+)\)/.exec(written.stdout)![1]!, 'utf8');
  expect(refused).toContain('Could not get some CONTACT objects');

  const today = new Date().toISOString().slice(0, 10);
  // Each verdict's score and reasons as the score's table gives them for these addresses (no move besides the
  // verdict's own points: docs/score-and-rules.md), fixed here rather than read back from Sift's own files.
  const scoreOf = {
    valid: ['90', 'valid=90'],
    catchall: ['55', 'catch_all=55'],
    invalid: ['0', 'invalid=0'],
    unknown: ['40', 'unknown=40'],
  } as const;
  const expected = structuredClone(before);
  delete expected['4'];
  for (const id of hub.lists.get('7')!.members) {
    const contact = expected[id];
    if (!contact?.email) continue;
    const kind = kinds.find((each) => contact.email!.startsWith(`${each}.`))!;
    Object.assign(contact, {
      sift_result: resultOf[kind],
      sift_score: scoreOf[kind][0],
      sift_reasons: scoreOf[kind][1],
      sift_checked_at: today,
    });
  }
  expect(Object.fromEntries(hub.contacts)).toEqual(expected);

  // Again, with a newcomer on the list: the newcomer is written, and of the rest only contacts whose verdict,
  // score or reasons moved (a verdict reused from the cache scores a little lower: its `reused` move). The
  // group and properties are found again, not made twice.
  hub.contacts.set('231', { email: 'invalid.new@h1.example.com', firstname: 'New' });
  hub.lists.get('7')!.members.push('231');
  const previous = structuredClone(Object.fromEntries(hub.contacts));
  const updatesBefore = hub.updates.length;
  const again = await sync('--write-back');
  expect(again.code, again.stdout + again.stderr).toBe(0);
  expect(again.stdout).toMatch(/\d+ members have what the verdict calls for from an earlier sync: left as they are/);
  const rewritten = hub.updates.slice(updatesBefore).flat();
  expect(rewritten.map((input) => input.id)).toContain('231');
  for (const { id, properties } of rewritten) {
    if (id === '231') continue;
    const was = previous[id]!;
    const moved = (['sift_result', 'sift_score', 'sift_reasons'] as const).some(
      (name) => was[name] !== properties[name],
    );
    expect(moved, `contact ${id} written with nothing new`).toBe(true);
  }
  expect([...hub.groups]).toEqual(['sift']);
});

it('puts invalid contacts in its static list "Sift: invalid" only when asked, and never unsubscribes one', async () => {
  const refused = await runSiftHere(['sync', 'crm', 'all', '--archive-invalid'], env);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain("HubSpot's unsubscribe cannot be undone by the sender, so Sift never makes it");
  expect(refused.stderr).toContain("HubSpot's step for invalid members is --list-invalid.");

  // A list of its own: five contacts, two of them invalid (201 and 205: the kind is the id modulo 4).
  hub.lists.set('9', { name: 'Small', members: ['201', '202', '203', '204', '205'] });
  const sync = (...flags: string[]) => runSiftHere(['sync', 'crm', '9', '--base-url', service.baseUrl, ...flags], env);
  const planned = await sync('--list-invalid');
  expect(planned.code, planned.stderr).toBe(0);
  expect(planned.stdout).toContain('2 members: added to the static list "Sift: invalid"');
  expect([...hub.lists.values()].map((list) => list.name)).not.toContain('Sift: invalid');
  const written = await sync('--write-back', '--list-invalid');
  expect(written.code, written.stderr).toBe(0);
  const made = [...hub.lists.values()].filter((list) => list.name === 'Sift: invalid');
  expect(made).toEqual([{ name: 'Sift: invalid', members: ['201', '205'], manual: true }]);
  expect(hub.contacts.get('205')).toMatchObject({ sift_result: 'invalid', email: 'invalid.c205@h25.example.com' });
  expect([...hub.contacts.values()].every((contact) => contact.hs_email_optout === undefined)).toBe(true);

  // Found again by its name the next time, never made twice.
  hub.contacts.set('231', { email: 'invalid.c231@h1.example.com', firstname: 'C231' });
  hub.lists.get('9')!.members.push('231');
  const again = await sync('--write-back', '--list-invalid');
  expect(again.code, again.stderr).toBe(0);
  expect([...hub.lists.values()].filter((list) => list.name === 'Sift: invalid')).toEqual([
    { name: 'Sift: invalid', members: ['201', '205', '231'], manual: true },
  ]);
});

it("reads every contact of a portal past search's cap of 10,000, within a professional tier's rate", async () => {
  const big = await startHubspot({ perTenSeconds: 190 });
  try {
    for (let id = 1; id <= 10_050; id += 1)
      big.contacts.set(String(id), { email: `valid.b${id}@big${id % 50}.example.com` });
    const connected = await runSiftHere(['connect', 'hubspot', '--name', 'big', '--api-url', big.url], {
      ...env,
      SIFT_HUBSPOT_TOKEN: big.token,
    });
    expect(connected.code, connected.stderr).toBe(0);
    const read = await runSiftHere(['sync', 'big', 'all', '--base-url', service.baseUrl, '--plan'], env);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toContain('Read 10050 members of all.');
  } finally {
    await big.close();
  }
});
