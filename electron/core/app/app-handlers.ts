// What main does for each contract call. Plain Node: the Electron shell and the web host both call these.
import { basename, isAbsolute } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import type { FileRef } from '../../common/contract.ts';
import type { Emit } from './event-hub.ts';
import type { CallContext, Handlers } from './dispatch.ts';
import type { UploadStore } from './upload-store.ts';
import type { JobManager } from '../jobs/job-manager.ts';
import type { VerdictCacheView } from '../cache/index.ts';
import type { SuppressionStore } from '../suppression/index.ts';
import { suppressionHandlers } from './suppression-handlers.ts';
import { ruleHandlers } from './rule-handlers.ts';
import { outcomeHandlers } from './outcome-handlers.ts';
import { teamShareFor } from './team-share.ts';
import type { MailboxesView, OutcomesView } from '../outcomes/index.ts';
import { connectorHandlers } from './connector-handlers.ts';
import type { AppSyncs } from './app-syncs.ts';
import type { AppSchedules } from './app-schedules.ts';
import type { RuleStore } from '../rules/index.ts';
import { scoreLines, type ScoreWeightsSource } from '../scoring/score-weights-file.ts';
import { previewList } from '../lists/csv-preview.ts';
import type { Connections } from '../connections/connections.ts';
import type { SingleChecks } from '../connections/single-check.ts';
import { settingsHandlers } from './settings-handlers.ts';
import { serviceDashboardHandlers } from './service-dashboard-handlers.ts';
import { exportFileHandlers, type DesktopFiles } from './export-file-handlers.ts';
import type { UpdateChecks } from '../updates/update-check.ts';
import { UpdateError } from '../updates/update-feed.ts';

export type AppDeps = {
  appName: string;
  appVersion: string;
  uploads: UploadStore;
  jobs: JobManager;
  /** The verdict cache lists share, as Settings shows it. */
  verdictCache: VerdictCacheView;
  /** The do-not-mail list lists are read against. */
  suppression: SuppressionStore;
  /** What happened after the sends: the accuracy ledger, bounce exports brought in, bounce mailboxes. */
  outcomes: OutcomesView;
  mailboxes: MailboxesView;
  /** The rules per domain lists are read against. */
  rules: RuleStore;
  /** The score's weights Settings sets (and `sift clean` reads). */
  scoreWeights: ScoreWeightsSource;
  connections: Connections;
  /** The mailing tools connected, and their lists' syncs. */
  syncs: AppSyncs;
  schedules: AppSchedules;
  checks: SingleChecks;
  exportsDir: string;
  /** Ends the app when the page asks: only a browser app that runs until quit (the single executable's). */
  quit?: () => void;
  /** The single file's updates (`sift update`'s checks); the desktop app has its own, in its Help menu. */
  updates?: UpdateChecks;
  /** The desktop app's file dialogs; absent in the browser version. */
  desktop?: DesktopFiles;
  emit: Emit;
};

/** Where a file reference points on disk, refusing what the caller's transport cannot have produced. */
function resolveFileRef(ref: FileRef, context: CallContext, uploads: UploadStore): { path: string; fileName: string } {
  if (ref.kind === 'path') {
    // A browser page never knows real paths, so only Electron's preload may hand one over.
    if (context.transport !== 'ipc') throw new AppError('forbidden', 'Files must be uploaded through the app.');
    if (!isAbsolute(ref.path)) throw new AppError('bad_request', 'The file path must be absolute.');
    return { path: ref.path, fileName: basename(ref.path) };
  }
  const upload = uploads.get(ref.uploadId);
  if (!upload) throw new AppError('not_found', 'That file is no longer available. Please drop it again.');
  return { path: upload.path, fileName: upload.fileName };
}

export function createAppHandlers(deps: AppDeps): Handlers {
  return {
    ...settingsHandlers(deps.connections, deps.checks, deps.emit),
    ...serviceDashboardHandlers(deps.connections),
    ...exportFileHandlers(deps.exportsDir, deps.desktop),
    ...suppressionHandlers(deps.suppression, (ref, context) => resolveFileRef(ref, context, deps.uploads)),
    ...connectorHandlers(deps.syncs, deps.schedules),
    ...ruleHandlers(deps.rules, (ref, context) => resolveFileRef(ref, context, deps.uploads)),
    ...outcomeHandlers(
      deps.outcomes,
      deps.mailboxes,
      (ref, context) => resolveFileRef(ref, context, deps.uploads),
      deps.exportsDir,
      teamShareFor(deps.connections.clients, deps.outcomes),
    ),
    'scores:getWeights': async () => ({ lines: scoreLines(deps.scoreWeights.current()) }),
    'scores:setWeights': async (weights) => ({ lines: scoreLines(deps.scoreWeights.save(weights)) }),
    'app:getInfo': async (_request, context) => ({
      name: deps.appName,
      version: deps.appVersion,
      transport: context.transport,
      ...(deps.quit ? { canQuit: true } : {}),
    }),
    'app:quit': async () => {
      if (!deps.quit) throw new AppError('bad_request', 'This app is quit from its window or its terminal.');
      // After the answer is sent: the page hears that it is quitting before the host goes away.
      setTimeout(deps.quit, 50);
      return {};
    },
    'app:updateStatus': async () =>
      deps.updates
        ? deps.updates.status()
        : {
            state: 'unsupported' as const,
            message:
              'This Sift does not update itself: the desktop app updates from its Help menu, and a checkout with git pull.',
          },
    'app:installUpdate': async () => {
      if (!deps.updates) throw new AppError('bad_request', 'This Sift does not update itself.');
      try {
        return { message: await deps.updates.install() };
      } catch (error) {
        if (error instanceof UpdateError) throw new AppError('bad_request', error.message);
        throw error;
      }
    },
    'lists:preview': async (request, context) => {
      const { path, fileName } = resolveFileRef(request.file, context, deps.uploads);
      const preview = await previewList(path, request.maxRows, fileName, request.sheet);
      deps.emit('lists:didPreview', { fileName, rowsShown: preview.rows.length });
      return preview;
    },
    'jobs:create': async (request, context) => {
      const { path, fileName } = resolveFileRef(request.file, context, deps.uploads);
      return deps.jobs.create(
        { path, fileName, isUpload: request.file.kind === 'upload' },
        request.column,
        request.sheet,
      );
    },
    'jobs:get': async (request) => deps.jobs.get(request.jobId),
    'jobs:list': async () => deps.jobs.list(),
    'jobs:start': async (request) => deps.jobs.start(request.jobId, request.limit),
    'jobs:cancel': async (request) => deps.jobs.cancel(request.jobId),
    'jobs:export': async ({ jobId, ...choices }) => deps.jobs.export(jobId, choices),
    'jobs:report': async ({ jobId }) => deps.jobs.report(jobId),
    'jobs:preview': async ({ jobId, maxRows }) => deps.jobs.preview(jobId, maxRows),
    'jobs:breakdown': async ({ jobId }) => deps.jobs.breakdown(jobId),
    'outcomes:forList': async ({ jobId }) => deps.jobs.outcomes(jobId),
    'jobs:rows': async ({ jobId, ...page }) => deps.jobs.rows(jobId, page),
    'jobs:acceptSuggestions': async ({ jobId, target, accept }) => deps.jobs.acceptSuggestions(jobId, target, accept),
    'jobs:retry': async ({ jobId }) => deps.jobs.retry(jobId),
    'jobs:remap': async ({ jobId, column }) => deps.jobs.remap(jobId, column),
    'jobs:useCache': async ({ jobId, useCache }) => deps.jobs.useCache(jobId, useCache),
    'jobs:chooseSheet': async ({ jobId, sheet }) => deps.jobs.chooseSheet(jobId, sheet),
    'cache:stats': async () => deps.verdictCache.stats(),
    'cache:clear': async () => deps.verdictCache.clear(),
    'jobs:delete': async ({ jobId }) => deps.jobs.delete(jobId),
    'jobs:dataUsage': async () => deps.jobs.dataUsage(),
  };
}
