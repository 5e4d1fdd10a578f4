// `sift sync`'s first step for a list whose bounces were read back before (`sift outcomes read NAME LIST`):
// what bounced since is read first, so the addresses that are gone are on the do-not-mail list before the
// members are cleaned, and are neither checked nor paid for again. Said in a line before the plan.
import { existsSync } from 'node:fs';
import type { Connector } from '../core/connectors/connector.ts';
import { toolNames } from '../core/connectors/connector.ts';
import { openOutcomeStore, outcomeStoreFile, readToolOutcomes } from '../core/outcomes/index.ts';
import type { CliIo } from './cli-io.ts';

export async function readOutcomesFirst(
  dataDir: string,
  name: string,
  audience: string,
  connector: Connector,
  io: CliIo,
): Promise<void> {
  if (!connector.bounces || !existsSync(outcomeStoreFile(dataDir))) return;
  const store = openOutcomeStore(dataDir);
  try {
    const source = store.source(`${name}:${audience}`);
    if (!source) return;
    const read = await readToolOutcomes(dataDir, store, source, connector, audience, {
      ...(io.signal ? { signal: io.signal } : {}),
    });
    io.out(
      `Outcomes read first from ${toolNames[connector.kind]}: ${read.hard} new hard ${read.hard === 1 ? 'bounce' : 'bounces'}, ` +
        `${read.soft} soft; ${read.suppressed} ${read.suppressed === 1 ? 'address is' : 'addresses are'} new on the do-not-mail list and ${read.suppressed === 1 ? 'is' : 'are'} not checked.\n`,
    );
  } finally {
    store.close();
  }
}
