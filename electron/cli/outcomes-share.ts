// `sift outcomes share`: what this Sift read back goes to the team's service (Sift's own, run for a team
// with `sift service`), and what teammates read comes back and is acted on here: their hard bounces keep
// addresses out of this folder's lists too. The service is the one --base-url (or SIFT_BASE_URL) names,
// with the key in SIFT_API_KEY.
import { createServiceClient } from '../core/client/service-client.ts';
import { sharedBudgetFor } from '../core/client/rate-budget.ts';
import { existsSync } from 'node:fs';
import {
  openOutcomeStore,
  outcomeStoreFile,
  serviceHost,
  shareAgainIfShared,
  shareWithTeam,
} from '../core/outcomes/index.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';
import { count, counted } from './cli-format.ts';

/** What the catch-all counts came to, when there were any either way. */
function catchAllLine(shared: { catchAllSent: number; catchAllDomains: number }): string {
  const domains = (n: number) => counted(n, 'catch-all domain');
  const parts = [
    ...(shared.catchAllSent > 0
      ? [`Sent counts of your sends to ${domains(shared.catchAllSent)} (never who was sent to)`]
      : []),
    ...(shared.catchAllDomains > 0
      ? [`teammates' sends to ${domains(shared.catchAllDomains)} are weighed with yours in the next clean's scores`]
      : []),
  ];
  if (parts.length === 0) return '';
  const line = parts.join('; ');
  return `${line[0]!.toUpperCase()}${line.slice(1)}.\n`;
}

/**
 * After a read, an import, an undo or a forgetting, and before a new `sift sync`: shared again, once this
 * data folder has shared with that service (`sift outcomes share`, asked for once: a person's bounces never
 * leave for a service unasked), so teammates' bounces keep addresses out of the next clean. Quiet when
 * nothing moved; a sharing that fails is said, and what was asked goes on without it.
 */
export async function shareAgainIfAsked(dataDir: string, baseUrl: string | undefined, io: CliIo): Promise<void> {
  const url = baseUrl ?? io.env.SIFT_BASE_URL;
  const apiKey = io.env.SIFT_API_KEY;
  if (url === undefined || !apiKey || !existsSync(outcomeStoreFile(dataDir))) return;
  const store = openOutcomeStore(dataDir);
  try {
    const client = createServiceClient({ baseUrl: url, apiKey, budget: sharedBudgetFor(apiKey, dataDir) });
    const shared = await shareAgainIfShared(dataDir, store, client, io.signal ? { signal: io.signal } : {});
    if (shared?.offered && shared.sent + shared.received + shared.undone + shared.letGo > 0)
      io.out(
        `Shared with the team at ${serviceHost(client)}: sent ${counted(shared.sent, 'outcome')}, received ${count(shared.received)}; ` +
          `${counted(shared.suppressed, 'address is', 'addresses are')} new on the do-not-mail list and not checked.\n`,
      );
  } catch (error) {
    if (io.signal?.aborted) throw error;
    io.err(
      `Outcomes were not shared with the team this time (${(error as Error).message}): sift outcomes share tries again.\n`,
    );
  } finally {
    store.close();
  }
}

export async function shareOutcomes(dataDir: string, baseUrl: string | undefined, io: CliIo): Promise<number> {
  const url = baseUrl ?? io.env.SIFT_BASE_URL;
  const apiKey = io.env.SIFT_API_KEY;
  if (url === undefined || !apiKey)
    throw new CliExit(
      exitCodes.usage,
      "Sharing needs the team's service: give --base-url (or SIFT_BASE_URL) and its key in SIFT_API_KEY.",
    );
  const client = createServiceClient({ baseUrl: url, apiKey, budget: sharedBudgetFor(apiKey, dataDir) });
  const store = openOutcomeStore(dataDir);
  try {
    const shared = await shareWithTeam(dataDir, store, client, {
      ...(io.signal ? { signal: io.signal } : {}),
      onProgress: (step) => {
        if (io.interactive) io.err(`\r${count(step.sent)} sent, ${count(step.received)} received`);
      },
    });
    if (io.interactive) io.err('\n');
    if (!shared.offered)
      throw new CliExit(
        exitCodes.service,
        `The service at ${serviceHost(client)} keeps no outcomes (its account names no "outcomes" feature): nothing was sent.`,
      );
    io.out(
      `Sent ${count(shared.sent)} outcomes` +
        (shared.forgotten > 0 ? ` and ${count(shared.forgotten)} forgotten sources` : '') +
        `; received ${count(shared.received)} new from teammates (kept as "${shared.source}")` +
        (shared.undone > 0 ? `, ${count(shared.undone)} undone` : '') +
        (shared.letGo > 0 ? `, ${count(shared.letGo)} let go with a source a teammate forgot` : '') +
        (shared.skipped > 0 ? `, ${count(shared.skipped)} left out (no address)` : '') +
        `. ${counted(shared.suppressed, 'address is', 'addresses are')} new on the do-not-mail list.\n` +
        catchAllLine(shared),
    );
    return exitCodes.done;
  } finally {
    store.close();
  }
}
