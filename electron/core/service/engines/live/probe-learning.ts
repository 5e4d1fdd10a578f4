// What one conversation teaches beyond its verdicts: whether port 25 is open from here (a failure
// before any greeting, at enough unrelated hosts, is what a blocked port looks like), whether the server
// refused us ourselves (enough unrelated ones doing so is a refused sender), and whether the domain
// accepts every address.
import type { SqlConnection } from '../../../storage/sql-connection.ts';
import { storeCatchAll } from '../../store/mail-domains-store.ts';
import { notePort25Failure, notePort25Open, port25Finding } from '../../store/port25-store.ts';
import { makeAllDueNow } from '../../store/probe-queue-store.ts';
import { noteSenderAccepted, noteSenderRefused } from '../../store/sender-refusals-store.ts';
import type { DomainProbe } from './domain-prober.ts';
import type { SmtpSettings } from './smtp-settings.ts';

/**
 * Port-25 bookkeeping and the catch-all finding, after a conversation: in one transaction, so no other
 * conversation's findings land between reading the port-25 finding and writing it. `busyDomains` are
 * worked by this process now: their leases stand when everything else is made due.
 */
export async function learnFromProbe(
  db: SqlConnection,
  settings: SmtpSettings,
  domain: string,
  probe: DomainProbe,
  now: number,
  busyDomains: ReadonlySet<string>,
  /** The way out the conversation took (`direct` or a proxy's label). */
  egress: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const attempt of probe.attempts) {
      if (!attempt.failure || attempt.failure.greeted) {
        await notePort25Open(tx, now);
        continue;
      }
      const before = (await port25Finding(tx)).state;
      const after = await notePort25Failure(
        tx,
        { host: attempt.host, domain },
        now,
        settings.blockedAfterHosts,
        settings.connectRetryMs,
      );
      // Just found blocked: no queued address can be checked, so none waits for its retry to be told so.
      if (before !== 'blocked' && after.state === 'blocked') await makeAllDueNow(tx, now, [...busyDomains]);
    }
    const answered = probe.attempts.find((attempt) => !attempt.failure);
    if (answered && probe.senderRefused) {
      await noteSenderRefused(tx, { domain, host: answered.host, egress, reply: probe.senderRefused, at: now });
    } else if (answered && probe.end === 'ok') await noteSenderAccepted(tx, domain, egress);
    if (probe.catchAll !== undefined && answered) {
      await storeCatchAll(tx, domain, probe.catchAll, now + settings.catchAllCacheMs);
    }
  });
}
