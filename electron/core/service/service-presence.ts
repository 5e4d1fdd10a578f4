// This process's place among the service processes on one database: it says it is alive every few
// seconds, and lets go of what a process that stopped saying so had claimed: an upload or a request
// mid-way, webhook deliveries it was sending, mail host connections it had open (the batch worker's
// chunks are taken over when their holder is gone too, or when their lease ends). On SQLite one process has the file,
// so at start every other process is gone.
import { hostname } from 'node:os';
import type { SqlConnection } from '../storage/sql-connection.ts';
import type { ServiceConfig } from './service-config.ts';
import { discardUnfinishedImports } from './store/batches-store.ts';
import { releaseUnsettledKeys } from './store/idempotency-store.ts';
import { forgetGoneConnections, forgetIdleHosts } from './store/mail-hosts-store.ts';
import { forgetFullBuckets } from './store/host-tokens-store.ts';
import { forgetExpiredDomains } from './store/mail-domains-store.ts';
import { reviveClaimedDeliveries } from './store/webhooks-store.ts';
import { newId } from './store/schema.ts';
import {
  forgetGoneProcesses,
  forgetOtherProcesses,
  markSeen,
  registerProcess,
  unregisterProcess,
  type ProcessRole,
} from './store/service-processes-store.ts';

export type ServicePresence = { id: string; stop(): Promise<void> };

export async function joinService(
  db: SqlConnection,
  config: ServiceConfig,
  role: ProcessRole,
  /**
   * Called if the others took this process for gone (the database was out of reach for longer than
   * `processGoneAfterMs`, say): what it had claimed was let go and may be taken up elsewhere, so it must
   * stop rather than carry on and do it twice.
   */
  onForgotten: () => void,
): Promise<ServicePresence> {
  const self = { id: newId('proc'), role, host: hostname(), pid: process.pid };
  await registerProcess(db, self);
  if (db.dialect.oneProcess) await forgetOtherProcesses(db, self.id);
  await letGoOfGoneProcesses(db, config);

  let beat: Promise<void> | undefined;
  let beats = 0;
  const timer = setInterval(() => {
    if (beat) return;
    beat = (async () => {
      if (!(await markSeen(db, self.id))) {
        clearInterval(timer);
        console.error(
          `sift service: this process was taken for gone (not heard from for ${config.processGoneAfterMs / 1000} s) ` +
            'and what it had claimed was let go; it stops so that nothing is done twice.',
        );
        onForgotten();
        return;
      }
      await letGoOfGoneProcesses(db, config);
      beats += 1;
      if (beats % beatsPerHousekeeping === 0) await forgetWhatOnlyGrows(db, config.now());
    })()
      .catch((error: unknown) =>
        console.error('sift service: could not tell the database this process is alive:', error),
      )
      .finally(() => (beat = undefined));
  }, config.processHeartbeatMs);
  timer.unref();

  return {
    id: self.id,
    async stop() {
      clearInterval(timer);
      await beat;
      await unregisterProcess(db, self.id);
    },
  };
}

/** About a minute at the default heartbeat: tables that only grow are pruned this often. */
const beatsPerHousekeeping = 12;

/**
 * What the engine keeps per host, bucket and domain would otherwise grow with every one ever met; each
 * store forgets what says no more than a missing row would.
 */
export async function forgetWhatOnlyGrows(db: SqlConnection, now: number): Promise<void> {
  await forgetFullBuckets(db, now);
  await forgetIdleHosts(db, now);
  await forgetExpiredDomains(db, now);
}

async function letGoOfGoneProcesses(db: SqlConnection, config: ServiceConfig): Promise<void> {
  await forgetGoneProcesses(db, config.processGoneAfterMs);
  await discardUnfinishedImports(db);
  await releaseUnsettledKeys(db);
  await reviveClaimedDeliveries(db, config.now());
  await forgetGoneConnections(db);
}
