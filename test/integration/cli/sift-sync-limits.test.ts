// A sync a marketer can leave running: each tool's limits read as it documents them (HubSpot's window paced
// by its headers, its daily allowance a stop in words that the next run goes on from), and a tool's answer
// that would make Sift write somewhere else refused before anything is written (an id that is a path step or
// a formula, an id that is not the address's own).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHubspot } from '../../support/hubspot-server.ts';
import { subscriberHash } from '../../support/mailchimp-server.ts';
import { startMailchimpSync, type MailchimpSync } from '../../support/mailchimp-sync.ts';
import { runSiftHere } from '../../support/run-sift-here.ts';

let shop: MailchimpSync;

beforeAll(async () => {
  shop = await startMailchimpSync(100);
});
afterAll(() => shop?.close());

/** Starts a HubSpot test server with `contacts` contacts and connects Sift to it as `name`. */
async function hubspotWith(name: string, contacts: number, options: Parameters<typeof startHubspot>[0]) {
  const hub = await startHubspot(options);
  for (let id = 1; id <= contacts; id += 1) hub.contacts.set(String(id), { email: `valid.l${id}@l.example.com` });
  const connected = await runSiftHere(['connect', 'hubspot', '--name', name, '--api-url', hub.url], {
    ...shop.env,
    SIFT_HUBSPOT_TOKEN: hub.token,
  });
  expect(connected.code, connected.stderr).toBe(0);
  return hub;
}

it("reads past HubSpot's window without meeting its limit, paced by its headers", async () => {
  // Ten calls a second (HubSpot's rule, in a shorter window): 30 pages of contacts need three windows.
  const hub = await hubspotWith('paced', 3000, { perTenSeconds: 10, windowMs: 1000 });
  try {
    const read = await runSiftHere(['sync', 'paced', 'all', '--base-url', shop.service.baseUrl, '--plan'], shop.env);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toContain('Read 3000 members of all.');
    expect(hub.limitedCalls()).toBe(0);
  } finally {
    await hub.close();
  }
});

it("stops at HubSpot's daily limit at once, in words, and goes on from there the next day", async () => {
  // The connection's check, then two pages of a list of five: the day's allowance ends mid-read.
  const hub = await hubspotWith('daily', 500, { perDay: 3 });
  try {
    const stopped = await runSiftHere(['sync', 'daily', 'all', '--base-url', shop.service.baseUrl, '--plan'], shop.env);
    expect(stopped.code).not.toBe(0);
    expect(stopped.stderr).toContain("HubSpot's daily allowance of API calls is used up");
    expect(stopped.stderr).toContain('goes on from where it stopped when run again tomorrow');
    // Asked once: a daily limit is not tried again as if it would pass.
    expect(hub.limitedCalls()).toBe(1);
    hub.newDay();
    const resumed = await runSiftHere(['sync', 'daily', 'all', '--base-url', shop.service.baseUrl, '--plan'], shop.env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('Going on with the sync of all');
    expect(resumed.stderr).toContain('Read 500 members of all.');
  } finally {
    await hub.close();
  }
});

it('refuses a member id that is a path step, a formula or not the address its own, and writes nothing', async () => {
  const add = (id: string, email: string) =>
    [id, { email, name: '', status: 'subscribed', tags: new Set<string>() }] as const;
  const sync = (audience: string) =>
    runSiftHere(
      ['sync', 'shop', audience, '--base-url', shop.service.baseUrl, '--archive-invalid', '--write-back'],
      shop.env,
    );
  const cases = [
    // `..` once made an archive DELETE /3.0/lists/{list}/, the call that deletes an audience.
    ['dots', '..', '(".." for invalid.x1@x.example.com)'],
    ['formula', `=${subscriberHash('invalid.x1@x.example.com').slice(1)}`, '("='],
    ['other', subscriberHash('valid.someone@x.example.com'), `("${subscriberHash('valid.someone@x.example.com')}"`],
  ] as const;
  for (const [audience, id, shown] of cases) {
    shop.chimp.audiences.set(audience, {
      name: audience,
      members: new Map([
        add(subscriberHash('valid.x0@x.example.com'), 'valid.x0@x.example.com'),
        add(id, 'invalid.x1@x.example.com'),
      ]),
    });
    const writesBefore = shop.chimp.writes.length;
    const refused = await sync(audience);
    expect(refused.code, audience).not.toBe(0);
    expect(refused.stderr, audience).toContain('Mailchimp at ');
    expect(refused.stderr, audience).toContain(`answered a member id Sift will not write by ${shown}`);
    expect(refused.stderr, audience).toContain("Mailchimp's ids are the MD5 of the lower-cased address");
    expect(shop.chimp.writes.length, audience).toBe(writesBefore);
    expect(shop.chimp.audiences.has(audience), audience).toBe(true);
  }
});

it("names every HubSpot list, past the 500 a page of HubSpot's lists search holds", async () => {
  const hub = await hubspotWith('many', 1, {});
  try {
    for (let id = 1; id <= 620; id += 1) hub.lists.set(String(id), { name: `List ${id}`, members: [] });
    const listed = await runSiftHere(['audiences', 'many', '--json'], shop.env);
    expect(listed.code, listed.stderr).toBe(0);
    const names = (JSON.parse(listed.stdout) as { name: string }[]).map((list) => list.name);
    expect(names).toHaveLength(621);
    expect(names.at(-1)).toBe('List 620');
  } finally {
    await hub.close();
  }
});
