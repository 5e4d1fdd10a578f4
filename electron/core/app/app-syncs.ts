// The app's syncs with mailing tools, as `sift sync` runs them but with the app's own list flow in the
// middle: the members are read into the sync's folder, that file becomes a list like a dropped one (its
// cost shown and agreed on the Clean screen, its progress, History), and once it is cleaned its verdicts are
// planned and, only when the person asks, written back. Every step is kept in the sync store, so a closed
// app goes on where it stopped; secrets stay in main's vault.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import type { ExportFile } from '../../common/job-schemas.ts';
import {
  type ConnectionsPage,
  type ReadChoice,
  type SegmentView,
  type SyncView,
} from '../../common/connector-schemas.ts';
import type { Emit } from './event-hub.ts';
import {
  readChoiceKey,
  subscribedOnly,
  toolNames,
  type ConnectorKind,
  type Connector,
  type PlanChoices,
} from '../connectors/connector.ts';
import { connectorFor, savedConnections, type SavedConnections } from '../connectors/saved-connections.ts';
import { openSyncStore, type SyncRecord, type SyncStore } from '../connectors/sync-store.ts';
import { openedWhenUsed, syncStoreFile } from '../connectors/sync-store-schema.ts';
import { syncFiles } from '../connectors/sync-run.ts';
import { outcomeCounts, writeRefusals } from '../connectors/sync-outcome.ts';
import {
  checkPlanChoices,
  choicesOfPlan,
  planStep,
  readStep,
  SyncStepRefusal,
  unfinishedSync,
  writeStep,
  type SyncContext,
} from '../connectors/sync-steps.ts';
import { exportFolder, exportedFiles } from '../jobs/store/index.ts';
import { syncViews } from './app-sync-views.ts';
import { inWords, refusalWords } from './app-sync-words.ts';
import { readToolBounces, type ToolRead } from '../outcomes/index.ts';
import type { TeamShare } from './team-share.ts';
import type { KeyVault } from '../connections/key-vault.ts';
import type { JobManager } from '../jobs/job-manager-types.ts';

/** The page as this module knows it (app-schedules.ts adds the schedules). */
type SyncsPage = Omit<ConnectionsPage, 'schedules' | 'caughtUp'>;

const syncsShown = 20;

export type AppSyncs = {
  page(): Promise<SyncsPage>;
  /** The tool of the connection of this name, if one is kept. */
  kindOf(name: string): ConnectorKind | undefined;
  add(input: { kind: ConnectorKind; name: string; secret: string; apiUrl: string; user: string }): Promise<SyncsPage>;
  test(name: string): Promise<{ reaches: string }>;
  remove(name: string): Promise<SyncsPage>;
  audiences(name: string): ReturnType<ReturnType<SavedConnections['open']>['audiences']>;
  /** A Mailchimp audience's segments and tags. */
  segments(name: string, audience: string): Promise<SegmentView[]>;
  read(name: string, audience: string, listName?: string, choice?: ReadChoice): Promise<SyncView>;
  plan(syncId: number, choices?: Partial<PlanChoices>): Promise<SyncView>;
  /** Writes the plan waiting; `choices`, when given, must be the ones it was planned with (a schedule's). */
  writeBack(syncId: number, choices?: PlanChoices): Promise<SyncView>;
  /**
   * Why a plan waiting may not be written by a run that made other choices (the step for invalid members,
   * the score fields): a person planned it otherwise; null when it may.
   */
  otherChoiceWords(syncId: number, choices: PlanChoices): string | null;
  /** What happened after the tool's sends to a list, read back (outcomes/): only what is new since. */
  bounces(name: string, audience: string): Promise<Omit<ToolRead, 'pages'>>;
  /** Every refusal of a sync, with the tool's words, in a CSV beside its list's exports. */
  refusals(syncId: number): Promise<ExportFile>;
  discard(syncId: number): Promise<SyncsPage>;
  /** Stops reads and writes under way where they are (each goes on from there next time). */
  stop(): void;
  close(): void;
};

/** A synced list's name in History and on its files: the connection's name and the list's, as a file may be named. */
const listFileName = (connection: string, list: string) =>
  `${connection} · ${list.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').slice(0, 120)}.csv`;

export function createAppSyncs(deps: {
  dataDir: string;
  vault: KeyVault;
  jobs: Pick<JobManager, 'create' | 'get' | 'annotatedCsv'>;
  emit: Emit;
  /** Bounces read back are shared with the team's service, where this folder has shared before. */
  team?: Pick<TeamShare, 'thenShare'>;
}): AppSyncs {
  const connections = savedConnections(deps.dataDir, deps.vault);
  const store: SyncStore = openedWhenUsed(() => openSyncStore(deps.dataDir));
  const stopping = new AbortController();
  /** Syncs being read or written now: a second click waits for the first. */
  const busy = new Set<string>();

  const { viewOf, connectionsOnce } = syncViews({ store, connections, jobs: deps.jobs });
  const page = async (): Promise<SyncsPage> => {
    const lookUp = connectionsOnce();
    const kept = existsSync(syncStoreFile(deps.dataDir)) ? store.recent(syncsShown) : [];
    return {
      connections: connections.list(),
      secretProtection: deps.vault.protection,
      syncs: await Promise.all(kept.map((sync) => viewOf(sync, lookUp))),
    };
  };
  /** The list a sync's members became, while History keeps it. */
  const listOf = async (sync: SyncRecord) =>
    sync.jobId === null ? undefined : await deps.jobs.get(sync.jobId).catch(() => undefined);
  const syncOf = (syncId: number) => {
    const sync = store.get(syncId);
    if (!sync) throw new AppError('not_found', 'That sync is not kept on this computer.');
    return sync;
  };
  const exclusive = async <T>(key: string, work: () => Promise<T>): Promise<T> => {
    if (busy.has(key)) throw new AppError('bad_request', 'That list is being read or written already.');
    busy.add(key);
    try {
      return await inWords(work);
    } finally {
      busy.delete(key);
    }
  };

  /** What a step of a sync needs, its progress told as the app's events. */
  const progressOf =
    (syncId: number): SyncContext['onProgress'] =>
    (step, count) =>
      deps.emit('connectors:didProgress', { syncId, step, count });
  const contextOf = (connector: Connector): SyncContext => ({
    dataDir: deps.dataDir,
    store,
    connector,
    signal: stopping.signal,
  });
  return {
    page,
    kindOf: (name) => connections.get(name)?.kind,
    async add({ kind, name, secret, apiUrl, user }) {
      if (kind === 'mailman' && (!apiUrl || !user))
        throw new AppError('bad_request', 'Mailman needs its REST address and user besides the password.');
      const reaches = await inWords(() => connectorFor(kind, apiUrl, user, secret).check());
      connections.save({ name, kind, apiUrl, ...(user ? { user } : {}), reaches, connectedAt: Date.now() }, secret);
      return page();
    },
    test: (name) => inWords(async () => ({ reaches: await connections.open(name).check() })),
    async remove(name) {
      if (!connections.remove(name)) throw new AppError('not_found', `No connection named "${name}".`);
      return page();
    },
    audiences: (name) => inWords(() => connections.open(name).audiences()),
    bounces: (name, audience) =>
      inWords(async () => {
        const { pages: _pages, ...read } = await readToolBounces(deps.dataDir, name, audience, connections.open(name));
        return deps.team ? deps.team.thenShare(read) : read;
      }),

    segments: (name, audience) =>
      inWords(async () => {
        const connector = connections.open(name);
        if (!connector.segments)
          throw new AppError('bad_request', `${toolNames[connector.kind]} lists have no segments Sift reads.`);
        return connector.segments(audience);
      }),

    read: (name, audience, listName, choice = subscribedOnly) =>
      exclusive(`${name}\n${audience}`, async () => {
        const connector = connections.open(name);
        if (readChoiceKey(choice) !== '' && !connector.segments)
          throw new AppError(
            'bad_request',
            `${toolNames[connector.kind]} lists are read whole (their subscribed members).`,
          );
        const context = contextOf(connector);
        const started =
          unfinishedSync(store, name, audience, choice) ?? store.start(name, audience, Date.now(), choice);
        const files = syncFiles(deps.dataDir, started);
        let sync = await readStep({ ...context, onProgress: progressOf(started.id) }, started);
        if (sync.phase === 'done') return viewOf(sync);
        if (sync.jobId === null) {
          const job = await deps.jobs.create(
            { path: files.members, fileName: listFileName(name, listName ?? audience), isUpload: false },
            'email',
          );
          store.cleaned(sync.id, job.jobId);
          sync = { ...sync, jobId: job.jobId };
        }
        return viewOf(sync);
      }),

    plan: (syncId, choices = {}) =>
      exclusive(`sync ${syncId}`, async () => {
        let sync = syncOf(syncId);
        if (sync.phase === 'cleaning') {
          if (sync.jobId === null) throw new AppError('bad_request', 'This list has not been read to the end yet.');
          const job = await deps.jobs.get(sync.jobId);
          if (job.phase !== 'done')
            throw new AppError('bad_request', 'Clean the list first: the plan comes from its verdicts.');
          const { path, keepAtScore } = await deps.jobs.annotatedCsv(sync.jobId, syncFiles(deps.dataDir, sync).folder);
          const context = contextOf(connections.open(sync.connection));
          sync = (await planStep(context, sync, { job: sync.jobId, annotated: path }, { ...choices, keepAtScore }))
            .sync;
        }
        return viewOf(sync);
      }),

    writeBack: (syncId, choices) =>
      exclusive(`sync ${syncId}`, async () => {
        const sync = syncOf(syncId);
        if (sync.phase !== 'planned') throw new AppError('bad_request', 'There is no plan waiting to be written.');
        const connector = connections.open(sync.connection);
        const cleaned = await listOf(sync);
        if (!cleaned)
          throw new AppError(
            'bad_request',
            'The list this plan came from was removed from History, so Sift cannot stand behind its verdicts: read the list again.',
          );
        const context = { ...contextOf(connector), onProgress: progressOf(syncId) };
        // Written as planned: with the plan's own choices from the screen, a schedule's checked against it.
        const chosen = choices ?? choicesOfPlan(context, sync);
        await writeStep(context, sync, { demo: cleaned.demo, choices: chosen });
        return viewOf(syncOf(syncId));
      }),

    otherChoiceWords(syncId, choices) {
      const sync = syncOf(syncId);
      const connector = connections.open(sync.connection);
      try {
        checkPlanChoices(contextOf(connector), sync, choices);
        return null;
      } catch (error) {
        if (error instanceof SyncStepRefusal) return refusalWords(error);
        throw error;
      }
    },

    async refusals(syncId) {
      const sync = syncOf(syncId);
      if (outcomeCounts(store, syncId).refused === 0)
        throw new AppError('not_found', 'The tool refused none of the changes of that sync.');
      const job = await listOf(sync);
      if (!job)
        throw new AppError('not_found', 'The list of that sync was removed from History, and its files with it.');
      const folder = exportFolder(deps.dataDir, job.jobId);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const path = join(folder, `${syncFiles(deps.dataDir, sync).stem}.refused.csv`);
      await writeRefusals(store, syncId, path);
      const [file] = await exportedFiles(job.jobId, [{ kind: 'refused' as const, path }]);
      return file!;
    },

    async discard(syncId) {
      syncOf(syncId);
      store.finish(syncId);
      return page();
    },
    stop: () => stopping.abort(),
    close() {
      stopping.abort();
      store.close();
    },
  };
}
