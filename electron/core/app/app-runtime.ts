// The main-process side of Sift as plain Node: the handlers, their events and staged uploads,
// assembled once and handed to whichever transport serves the renderer.
import { join } from 'node:path';
import { createAppHandlers } from './app-handlers.ts';
import type { DesktopFiles } from './export-file-handlers.ts';
import { createDispatch, type Dispatch } from './dispatch.ts';
import { createEventHub, type EventHub } from './event-hub.ts';
import { keepHeapNearLive } from './heap-tuning.ts';
import { createUploadStore, type UploadStore } from './upload-store.ts';
import { teamShareFor } from './team-share.ts';
import { createAppSyncs } from './app-syncs.ts';
import { createAppSchedules } from './app-schedules.ts';
import { appName } from '../app-paths.ts';
import { appJobFolders } from '../jobs/store/index.ts';
import { createJobManager } from '../jobs/job-manager.ts';
import Conf from 'conf';
import { settingsStorage, type SettingsFile } from '../connections/app-settings.ts';
import { createConnections } from '../connections/connections.ts';
import { createSingleCheck } from '../connections/single-check.ts';
import { fileVault, type KeyVault } from '../connections/key-vault.ts';
import type { ServiceOverrides } from '../service/service-config.ts';
import { verdictCacheIn } from '../cache/index.ts';
import { mailboxesIn, outcomesIn } from '../outcomes/index.ts';
import { openSuppressionStore } from '../suppression/index.ts';
import { openRuleStore } from '../rules/index.ts';
import { scoreWeightsSource } from '../scoring/score-weights-file.ts';
import { createUpdateChecks } from '../updates/update-check.ts';

export type AppRuntime = {
  dispatch: Dispatch;
  events: EventHub;
  uploads: UploadStore;
  dataDir: string;
  /** Where exported files are kept, one folder per job. */
  exportsDir: string;
  /** Whether a list is being checked now. */
  busy(): boolean;
  close(): Promise<void>;
};

const maxUploadBytes = 4 * 1024 ** 3;

export async function createAppRuntime(options: {
  dataDir: string;
  appVersion: string;
  /** Settings for the embedded service (tests slow its pacing down). */
  service?: ServiceOverrides;
  /** Where settings are kept: electron-store under Electron; a settings file in the data folder otherwise. */
  settingsFile?: SettingsFile;
  /** Where a hosted service's key is kept: safeStorage under Electron; a 0600 file in the data folder otherwise. */
  vault?: KeyVault;
  /** The desktop app's Save dialog and file manager; absent in the browser version. */
  desktop?: DesktopFiles;
  /** How the page may end the app, where it may (the single executable's browser app). */
  quit?: () => void;
  /** Whether this run can update itself (the single file) and how: `sift update`'s checks. */
  updates?: { env: NodeJS.ProcessEnv; file: { path?: string; publicKey?: string } };
}): Promise<AppRuntime> {
  keepHeapNearLive();
  const events = createEventHub();
  const uploads = createUploadStore(join(options.dataDir, 'uploads'), maxUploadBytes);
  await uploads.clear(); // uploads live for one run only
  const settings = settingsStorage(options.settingsFile ?? new Conf({ cwd: options.dataDir, configName: 'settings' }));
  const vault = options.vault ?? fileVault(join(options.dataDir, 'keys'));
  const connections = createConnections({ dataDir: options.dataDir, settings, vault, service: options.service });
  const clients = connections.clients;
  const jobs = createJobManager({
    dataDir: options.dataDir,
    clients,
    emitProgress: (payload) => events.emit('jobs:didProgress', payload),
  });
  jobs.resumeUnfinished();
  const suppression = openSuppressionStore(options.dataDir);
  const rules = openRuleStore(options.dataDir);
  const outcomes = outcomesIn(options.dataDir);
  const syncs = createAppSyncs({
    dataDir: options.dataDir,
    vault,
    jobs,
    emit: events.emit,
    team: teamShareFor(clients, outcomes),
  });
  const schedules = createAppSchedules({
    dataDir: options.dataDir,
    syncs,
    jobs,
    log: (line) => console.error(line),
  });
  schedules.start();
  const handlers = createAppHandlers({
    appName,
    appVersion: options.appVersion,
    uploads,
    jobs,
    verdictCache: verdictCacheIn(options.dataDir),
    suppression,
    outcomes,
    mailboxes: mailboxesIn(options.dataDir, vault),
    rules,
    scoreWeights: scoreWeightsSource(options.dataDir),
    connections,
    syncs,
    schedules,
    checks: createSingleCheck(connections.clients, settings),
    exportsDir: join(options.dataDir, appJobFolders.exports),
    ...(options.desktop ? { desktop: options.desktop } : {}),
    ...(options.quit ? { quit: options.quit } : {}),
    ...(options.updates
      ? {
          updates: createUpdateChecks({
            dataDir: options.dataDir,
            currentVersion: options.appVersion,
            busy: () => jobs.busy(),
            ...options.updates,
          }),
        }
      : {}),
    emit: events.emit,
  });
  return {
    dispatch: createDispatch(handlers),
    events,
    uploads,
    dataDir: options.dataDir,
    exportsDir: join(options.dataDir, appJobFolders.exports),
    busy: () => jobs.busy(),
    async close() {
      syncs.stop();
      await schedules.close();
      syncs.close();
      await jobs.close();
      suppression.close();
      rules.close();
      await clients.close();
      await uploads.clear();
    },
  };
}
