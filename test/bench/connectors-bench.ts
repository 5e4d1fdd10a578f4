// Connectors in the bench (docs/speed.md): an audience of `members` read and its verdicts written back, by
// the sync's own steps (sync-run.ts) against the project's Mailchimp and HubSpot test servers answering each
// call after 60 ms, as over a network. The floor beside each figure is what the tool's documented limits
// allow: Mailchimp, one call per member at its 10 connections (batches have no documented pace: the test
// server runs a batch's operations as fast as it can, so a batch's figure is Sift's side of it); HubSpot,
// 100 calls per 10 seconds (its free and starter tier), 100 contacts a call. Figures only, never asserted.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hubspotConnector } from '../../electron/core/connectors/hubspot-connector.ts';
import { mailchimpConnector } from '../../electron/core/connectors/mailchimp-connector.ts';
import { subscribedOnly, type Connector, type MemberChange } from '../../electron/core/connectors/connector.ts';
import { readMembers, writeChanges } from '../../electron/core/connectors/sync-run.ts';
import { openSyncStore, type PlannedChange } from '../../electron/core/connectors/sync-store.ts';
import { readCsvRows } from '../../electron/core/lists/csv-reader.ts';
import { startHubspot } from '../support/hubspot-server.ts';
import { startMailchimp, subscriberHash } from '../support/mailchimp-server.ts';

const callMs = 60;
const verdicts = ['valid', 'invalid', 'catch_all', 'unknown'] as const;

/** Reads `audience` whole, then writes each member the change `changeOf` gives: the seconds of each. */
async function readAndWrite(
  connector: Connector,
  audience: string,
  changeOf: (verdict: (typeof verdicts)[number]) => MemberChange,
): Promise<{ readS: number; writeS: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sift-connectors-bench-'));
  const store = openSyncStore(dataDir);
  try {
    let sync = store.start('bench', audience, Date.now(), subscribedOnly);
    const readStarted = performance.now();
    sync = await readMembers(store, connector, sync, join(dataDir, 'members.csv'), () => undefined);
    const readS = (performance.now() - readStarted) / 1000;
    // The plan as a clean would make it from the members file: a quarter of each verdict.
    const planned: PlannedChange[] = [];
    let rows = 0;
    await readCsvRows(join(dataDir, 'members.csv'), 'the members', (row) => {
      rows += 1;
      if (rows === 1) return;
      const verdict = verdicts[rows % 4]!;
      planned.push({ memberId: row[2]!, email: row[0]!, change: changeOf(verdict), verdict, score: 80, reasons: '' });
      if (planned.length === 1000) store.addPlanned(sync.id, planned.splice(0));
    });
    store.addPlanned(sync.id, planned);
    store.planned(sync.id);
    const writeStarted = performance.now();
    await writeChanges(store, connector, { ...sync, phase: 'planned' }, () => undefined);
    const writeS = (performance.now() - writeStarted) / 1000;
    const { refused } = store
      .counts(sync.id)
      .reduce((sum, each) => ({ refused: sum.refused + (each.state === 'refused' ? each.count : 0) }), { refused: 0 });
    if (refused > 0) throw new Error(`${refused} changes were refused in the bench.`);
    return { readS, writeS };
  } finally {
    store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const fmt = (seconds: number) => `${seconds.toFixed(1)} s`;

export async function runConnectorsBench(members = 100_000): Promise<void> {
  console.log(
    `\nConnectors: ${members.toLocaleString('en')} members read and written back, each call answered after ${callMs} ms`,
  );
  const chimp = await startMailchimp({ delayMs: callMs });
  try {
    const audience = new Map();
    for (let i = 0; i < members; i += 1) {
      const email = `m${i}@bench${i % 500}.example.com`;
      audience.set(subscriberHash(email), { email, name: '', status: 'subscribed', tags: new Set<string>() });
    }
    chimp.audiences.set('bench', { name: 'bench', members: audience });
    const connector = mailchimpConnector(chimp.url, chimp.key);
    const run = await readAndWrite(
      connector,
      'bench',
      (verdict) =>
        `tag:${{ valid: 'sift-valid', invalid: 'sift-invalid', catch_all: 'sift-catch-all', unknown: 'sift-unknown' }[verdict]}` as MemberChange,
    );
    const floor = (members * callMs) / 1000 / 10;
    console.log(
      `  Mailchimp  read ${fmt(run.readS)}; tags written ${fmt(run.writeS)} in ${chimp.batchesRun()} batches ` +
        `(one call per member at 10 connections: ${fmt(floor)}; goal: 5 min)`,
    );
  } finally {
    await chimp.close();
  }
  const hub = await startHubspot({ delayMs: callMs });
  try {
    for (let id = 1; id <= members; id += 1)
      hub.contacts.set(String(id), { email: `c${id}@bench${id % 500}.example.com` });
    const connector = hubspotConnector(hub.url, hub.token);
    const run = await readAndWrite(connector, 'all', (verdict) => `result:${verdict}` as MemberChange);
    const floor = ((members / 100) * 10) / 100;
    console.log(
      `  HubSpot    read ${fmt(run.readS)} (floor ${fmt(floor)}, ${(run.readS / floor).toFixed(2)}×); ` +
        `written ${fmt(run.writeS)} (floor ${fmt(floor)}, ${(run.writeS / floor).toFixed(2)}×; goal 1.5×); ` +
        `${hub.limitedCalls()} calls met the limit`,
    );
  } finally {
    await hub.close();
  }
}
