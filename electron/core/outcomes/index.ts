// Outcomes: what happened after a send, read back from where it already is (a bounce mailbox, a file of
// bounces), kept in the data folder, acted on (a hard bounce goes on the do-not-mail list and into the
// verdict cache) and set beside Sift's own verdicts (the accuracy ledger). This is its face.
export { accuracyLedger, ledgerSentence, type Ledger, type LedgerRow } from './ledger.ts';
export { readMessage, type MessageRead } from './bounce-message.ts';
export { importOutcomeFile, type FileImport } from './outcome-file.ts';
export { checkMailbox, MailboxError, readMailbox, refusePlainElsewhere, type MailboxRead } from './mailbox-reader.ts';
export {
  defaultHandledFolder,
  mailboxConnections,
  type MailboxConnections,
  type MailboxSettings,
} from './mailbox-connections.ts';
export { openOutcomeStore, type OutcomeStore, type StoredOutcome } from './outcome-store.ts';
export { outcomeStoreFile, outcomeStoreVersion } from './outcome-store-schema.ts';
export { forgetBounced, softDaysToHard, sourceWords, undoOutcome } from './record-outcomes.ts';
