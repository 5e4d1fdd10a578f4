// What main does for History's "What happened" panel: the accuracy ledger, a bounce export brought in, every
// outcome saved as a CSV (under exports/outcomes/), a source forgotten, the outcomes shared with the team's
// service, and the bounce mailboxes (connected with their password kept in main's vault, read, removed).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileRef } from '../../common/contract.ts';
import { AppError } from '../../common/app-error.ts';
import { exportedFiles, outcomesExportFolder } from '../jobs/store/index.ts';
import { explainClientError, ServiceClientError } from '../client/client-errors.ts';
import { MailboxError, serviceHost, teamSourceName, type MailboxesView, type OutcomesView } from '../outcomes/index.ts';
import type { CallContext, Handlers } from './dispatch.ts';
import type { TeamShare } from './team-share.ts';

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
  exportsDir: string,
  team: TeamShare,
): Pick<Handlers, OutcomeCall> {
  const { teamClient, thenShare } = team;
  return {
    'outcomes:export': async () => {
      const folder = join(exportsDir, outcomesExportFolder);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const path = join(folder, `sift-outcomes-${new Date().toISOString().slice(0, 10)}.csv`);
      await outcomes.exportTo(path);
      const [file] = await exportedFiles(outcomesExportFolder, [{ kind: 'outcomes' as const, path }]);
      return file!;
    },
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
        return thenShare(read);
      }),
    'outcomes:removeMailbox': async ({ name }) => mailboxes.remove(name),
    'outcomes:ledger': async () => {
      const [team, ledger] = await Promise.all([teamClient(), outcomes.ledger()]);
      if (!team) return ledger;
      // The team's source is among the ledger's: when it was last read is when this folder last shared.
      const sharedAt = ledger.sources.find((source) => source.name === teamSourceName(team))?.readAt;
      return { ...ledger, team: serviceHost(team), ...(sharedAt ? { teamSharedAt: sharedAt } : {}) };
    },
    'outcomes:share': async () => {
      const team = await teamClient();
      if (!team)
        throw new AppError(
          'bad_request',
          "Sharing needs the team's service: in Settings, choose the hosted service your team runs, with your key.",
        );
      try {
        const shared = await outcomes.share(team);
        if (!shared.offered)
          throw new AppError('bad_request', `The service at ${serviceHost(team)} keeps no outcomes: nothing was sent.`);
        const { offered: _offered, ...counts } = shared;
        return counts;
      } catch (error) {
        if (error instanceof ServiceClientError) throw new AppError('service_error', explainClientError(error));
        throw error;
      }
    },
    'outcomes:forget': async ({ name }) => thenShare(await outcomes.forget(name)),
    'outcomes:import': async ({ file, kind }, context) => {
      const { path, fileName } = resolveFile(file, context);
      return thenShare(await outcomes.importFile(path, fileName, kind));
    },
  };
}
