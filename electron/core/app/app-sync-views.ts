// The Mailing tools screen's view of a sync: its plan in the tool's words, whether its verdicts are demo
// ones (never written), its outcome and its first refusals; each connection a page names looked up once.
import type { SyncView } from '../../common/connector-schemas.ts';
import type { Connector, ConnectorKind } from '../connectors/connector.ts';
import type { SavedConnections } from '../connectors/saved-connections.ts';
import { choicesWaiting, outcomeCounts, planLines } from '../connectors/sync-outcome.ts';
import type { SyncRecord, SyncStore } from '../connectors/sync-store.ts';
import type { JobManager } from '../jobs/job-manager-types.ts';

const refusalsShown = 10;

export function syncViews(deps: { store: SyncStore; connections: SavedConnections; jobs: Pick<JobManager, 'get'> }) {
  const { store, connections } = deps;
  /**
   * Each connection a view names, looked up once per answer (each lookup reads connectors.json, and opening
   * one reads its secret from the vault): its kind, and its adapter for the plan's words while its secret is
   * kept (a removed connection's counts are still there, the tool's words are not).
   */
  const connectionsOnce = () => {
    const found = new Map<string, { kind: ConnectorKind | null; connector: Connector | null }>();
    return (name: string) => {
      if (!found.has(name)) {
        let connector: Connector | null;
        try {
          connector = connections.open(name);
        } catch {
          connector = null;
        }
        found.set(name, { kind: connections.get(name)?.kind ?? null, connector });
      }
      return found.get(name)!;
    };
  };
  // A list removed from History since: no verdicts to call demo, and none to write either.
  const isDemo = async (sync: SyncRecord) =>
    sync.jobId !== null &&
    (await deps.jobs.get(sync.jobId).then(
      (job) => job.demo,
      () => false,
    ));
  /** A sync as the screen shows it; a plan says whether its verdicts are demo ones, which are never written. */
  const viewOf = async (sync: SyncRecord, lookUp = connectionsOnce()): Promise<SyncView> => {
    const { kind, connector } = lookUp(sync.connection);
    const demo = sync.phase === 'planned' && (await isDemo(sync));
    const planned = kind && connector && sync.phase !== 'reading' && sync.phase !== 'cleaning';
    const lines = planned ? planLines(store, sync.id, connector) : [];
    return {
      id: sync.id,
      connection: sync.connection,
      kind,
      audience: sync.audience,
      startedAt: sync.startedAt,
      readChoice: { include: [...sync.readChoice.include], segment: sync.readChoice.segment },
      phase: sync.phase,
      members: sync.members,
      jobId: sync.jobId,
      plan: lines,
      withInvalidStep: planned ? choicesWaiting(store, sync.id, connector).withInvalidStep !== null : false,
      demo,
      ...outcomeCounts(store, sync.id),
      refusedExamples: store.refused(sync.id, 0, refusalsShown).map(({ email, words }) => ({ email, words })),
    };
  };
  return { viewOf, connectionsOnce };
}
