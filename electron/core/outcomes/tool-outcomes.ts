// Outcomes read back from a connected mailing tool (Mailchimp, Mailman; connectors/*-bounces.ts): a page at
// a time, each kept with how far the read got, so a read stopped part way goes on from there and the next
// read asks only for what is new. A tool's "hard" is its own verdict (Mailchimp cleans after repeated soft
// bounces too, Mailman disables after a bounce score): kept as a hard bounce, with the tool's words.
import type { Connector } from '../connectors/connector.ts';
import { precheckAddress } from '../email/address-precheck.ts';
import type { OutcomeSource, OutcomeStore } from './outcome-store.ts';
import { withRecorder, type ReadOutcome } from './record-outcomes.ts';

export type ToolRead = {
  pages: number;
  hard: number;
  soft: number;
  refused: number;
  sends: number;
  suppressed: number;
};

export async function readToolOutcomes(
  dataDir: string,
  store: OutcomeStore,
  source: OutcomeSource,
  connector: Connector,
  audience: string,
  options: { signal?: AbortSignal; onPage?: (read: ToolRead) => void } = {},
): Promise<ToolRead> {
  const reader = connector.bounces;
  if (!reader) throw new Error(`Sift reads no outcomes from ${connector.kind} yet.`);
  const read: ToolRead = { pages: 0, hard: 0, soft: 0, refused: 0, sends: 0, suppressed: 0 };
  let cursor = source.cursor ?? undefined;
  return withRecorder(dataDir, store, async (recorder) => {
    for (;;) {
      options.signal?.throwIfAborted();
      const page = await reader(audience, cursor);
      const outcomes: ReadOutcome[] = [];
      for (const bounce of page.bounces) {
        const check = precheckAddress(bounce.email);
        if (!check.ok) continue;
        // A tool that keeps no date for a bounce (Mailman without last_bounce_received): dated when first read.
        if (bounce.at === 0 && store.hasOutcome(source.id, check.key, bounce.kind)) continue;
        outcomes.push({
          address: check.key,
          kind: bounce.kind,
          reason: bounce.kind === 'hard' ? 'bounced' : bounce.kind === 'soft' ? 'soft_bounce' : 'not_the_mailbox',
          words: bounce.words,
          at: bounce.at === 0 ? Date.now() : bounce.at,
        });
      }
      const sends = page.sends.flatMap((send) => {
        const check = precheckAddress(send.email);
        return check.ok ? [{ address: check.key, at: send.at }] : [];
      });
      // Sends first: a page stopped between the two is read again, and neither is kept twice.
      read.sends += recorder.sends(sends);
      const recorded = recorder.record(source, { outcomes, cursor: page.next });
      read.pages += 1;
      read.hard += recorded.hard;
      read.soft += recorded.soft;
      read.refused += recorded.refused;
      read.suppressed += recorded.suppressed;
      options.onPage?.({ ...read });
      if (page.done) return read;
      cursor = page.next;
    }
  });
}
