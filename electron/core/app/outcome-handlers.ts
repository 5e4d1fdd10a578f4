// What main does for History's "What happened" panel: the accuracy ledger, a bounce export brought in, and
// the bounce mailboxes (connected with their password kept in main's vault, read, removed).
import type { FileRef } from '../../common/contract.ts';
import type { MailboxesView, OutcomesView } from '../outcomes/index.ts';
import type { CallContext, Handlers } from './dispatch.ts';

type OutcomeCall = Exclude<Extract<keyof Handlers, `outcomes:${string}`>, 'outcomes:forList'>;

export function outcomeHandlers(
  outcomes: OutcomesView,
  mailboxes: MailboxesView,
  resolveFile: (ref: FileRef, context: CallContext) => { path: string; fileName: string },
): Pick<Handlers, OutcomeCall> {
  return {
    'outcomes:mailboxes': async () => mailboxes.views(),
    'outcomes:connectMailbox': ({ name, host, port, user, password, folder, plain }) =>
      mailboxes.connect({ name, host, ...(port ? { port } : {}), user, password, folder, plain }),
    'outcomes:readMailbox': ({ name }) => mailboxes.read(name),
    'outcomes:removeMailbox': async ({ name }) => mailboxes.remove(name),
    'outcomes:ledger': () => outcomes.ledger(),
    'outcomes:import': async ({ file, kind }, context) => {
      const { path, fileName } = resolveFile(file, context);
      return outcomes.importFile(path, fileName, kind);
    },
  };
}
