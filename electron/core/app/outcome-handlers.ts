// What main does for History's "What happened" panel: the accuracy ledger, a bounce export brought in, and
// the bounce mailboxes (connected with their password kept in main's vault, read, removed).
import type { FileRef } from '../../common/contract.ts';
import { AppError } from '../../common/app-error.ts';
import { MailboxError, type MailboxesView, type OutcomesView } from '../outcomes/index.ts';
import type { CallContext, Handlers } from './dispatch.ts';

/** A mailbox's failure as the app's error: a refused password is `unauthorized`, the rest in words. */
async function inWords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof MailboxError)) throw error;
    throw new AppError(error.kind === 'authentication' ? 'unauthorized' : 'service_error', error.message);
  }
}

type OutcomeCall = Exclude<Extract<keyof Handlers, `outcomes:${string}`>, 'outcomes:forList'>;

export function outcomeHandlers(
  outcomes: OutcomesView,
  mailboxes: MailboxesView,
  resolveFile: (ref: FileRef, context: CallContext) => { path: string; fileName: string },
): Pick<Handlers, OutcomeCall> {
  return {
    'outcomes:mailboxes': async () => mailboxes.views(),
    'outcomes:connectMailbox': ({ name, host, port, user, password, folder, plain }) =>
      inWords(async () => {
        const connected = await mailboxes.connect({
          name,
          host,
          ...(port ? { port } : {}),
          user,
          password,
          folder,
          plain,
        });
        return connected.mailboxes;
      }),
    'outcomes:readMailbox': ({ name }) =>
      inWords(async () => {
        const { restarted: _restarted, total: _total, ...read } = await mailboxes.read(name);
        return read;
      }),
    'outcomes:removeMailbox': async ({ name }) => mailboxes.remove(name),
    'outcomes:ledger': () => outcomes.ledger(),
    'outcomes:import': async ({ file, kind }, context) => {
      const { path, fileName } = resolveFile(file, context);
      return outcomes.importFile(path, fileName, kind);
    },
  };
}
