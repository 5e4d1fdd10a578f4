// Outcomes: what happened after a send, read back from where it already is (a bounce mailbox, a file of
// bounces), kept in the data folder, acted on (a hard bounce goes on the do-not-mail list and into the
// verdict cache) and set beside Sift's own verdicts (the accuracy ledger). This is its face.

export { accuracyLedger, ledgerSentence } from './ledger.ts';
export { learnedCatchAllDomains } from './catch-all-evidence.ts';
export { importOutcomeFile } from './outcome-file.ts';
export { MailboxError, readMailbox, refusePlainElsewhere } from './mailbox-reader.ts';
export { defaultHandledFolder, type MailboxSettings } from './mailbox-connections.ts';
export { exportOutcomes } from './outcome-export.ts';
export { openOutcomeStore, type OutcomeStore } from './outcome-store.ts';
export { outcomeStoreFile, outcomeStoreVersion } from './outcome-store-schema.ts';
export { forgetSource, undoOutcome } from './record-outcomes.ts';
export { readToolOutcomes, type ToolRead } from './tool-outcomes.ts';
export { mailboxesIn, outcomesIn, readToolBounces, type MailboxesView, type OutcomesView } from './app-outcomes.ts';
export { serviceHost, shareAgainIfShared, shareWithTeam, teamSourceName } from './team-sharing.ts';
