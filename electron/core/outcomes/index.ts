// Outcomes: what happened after a send, read back from where it already is (a bounce mailbox, a file of
// bounces), kept in the data folder, acted on (a hard bounce goes on the do-not-mail list and into the
// verdict cache) and set beside Sift's own verdicts (the accuracy ledger). This is its face.
import { accuracyLedger, ledgerSentence } from './ledger.ts';
import { importOutcomeFile } from './outcome-file.ts';
import { openOutcomeStore, type OutcomeStore } from './outcome-store.ts';
import { readToolOutcomes } from './tool-outcomes.ts';
import type { Connector } from '../connectors/connector.ts';

export { accuracyLedger, ledgerSentence } from './ledger.ts';
export { importOutcomeFile } from './outcome-file.ts';
export { checkMailbox, MailboxError, readMailbox, refusePlainElsewhere } from './mailbox-reader.ts';
export { defaultHandledFolder, mailboxConnections, type MailboxSettings } from './mailbox-connections.ts';
export { openOutcomeStore, type OutcomeStore } from './outcome-store.ts';
export { outcomeStoreFile, outcomeStoreVersion } from './outcome-store-schema.ts';
export { forgetBounced, undoOutcome } from './record-outcomes.ts';
export { readToolOutcomes, type ToolRead } from './tool-outcomes.ts';

/** The outcomes as History's panel sees them; each call opens the store, so nothing is held between calls. */
export function outcomesIn(dataDir: string) {
  const using = async <T>(use: (store: OutcomeStore) => T | Promise<T>): Promise<T> => {
    const store = openOutcomeStore(dataDir);
    try {
      return await use(store);
    } finally {
      store.close();
    }
  };
  return {
    ledger: () =>
      using((store) => {
        const ledger = accuracyLedger(dataDir, store);
        const sources = store.sources().map(({ name, kind, readAt }) => ({ name, kind, readAt }));
        return { ...ledger, sentence: ledgerSentence(ledger.byVerdict), sources };
      }),
    importFile: (path: string, fileName: string, kind?: 'hard' | 'soft') =>
      using((store) =>
        importOutcomeFile(dataDir, store, `file:${fileName}`, path, fileName, {
          ...(kind ? { kind } : {}),
        }),
      ),
  };
}
export type OutcomesView = ReturnType<typeof outcomesIn>;

/**
 * A connected tool's list read back (`name:audience` is its source, as `sift outcomes read NAME LIST`
 * names it): what happened since the last read.
 */
export async function readToolBounces(
  dataDir: string,
  name: string,
  audience: string,
  connector: Connector,
  options: Parameters<typeof readToolOutcomes>[5] = {},
) {
  const store = openOutcomeStore(dataDir);
  try {
    const source = store.ensureSource(`${name}:${audience}`, connector.kind);
    return await readToolOutcomes(dataDir, store, source, connector, audience, options);
  } finally {
    store.close();
  }
}
