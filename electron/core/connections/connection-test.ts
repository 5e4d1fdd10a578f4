// "Test connection": one GET /account with the URL and key a person typed, and a clear answer for each
// way it can go wrong. Tried once, with a short timeout: a person is waiting.
import { teamOutcomesFeature } from '../wire/team-outcomes.ts';
import { ServiceClientError } from '../client/client-errors.ts';
import type { Account } from '../wire/assumptions.ts';
import { createServiceClient, type ServiceClient } from '../client/service-client.ts';
import { describeReach, shortcutsOf, unlearnedReach, type ServiceReach } from '../client/service-reach.ts';

export type ConnectionProblem = 'invalid' | 'insecure' | 'key_refused' | 'unreachable' | 'not_compatible' | 'other';

export type AccountFacts = {
  mode: string;
  label?: string;
  balance?: number;
  freeRemaining?: number;
  port25?: 'open' | 'blocked' | 'unchecked';
  /** Mail servers refuse the service's sending address (Sift's own service says so): what it found. */
  senderRefused?: { refusedBy?: number; wayOut?: string; reply?: string; blocklist?: string; removalUrl?: string };
  /** The service keeps a team's outcomes (Sift's own, wire/team-outcomes.ts). */
  teamOutcomes?: boolean;
};

/** How Sift will send lists to the service and read their results, in words. */
type ServiceSupport = { uploads: string; results: string };

export type ConnectionTest =
  ({ ok: true; supports: ServiceSupport } & AccountFacts) | { ok: false; problem: ConnectionProblem; message: string };

/** A client for a person waiting: no long backoff, a short timeout. */
export function interactiveClient(baseUrl: string, apiKey: string): ServiceClient {
  return createServiceClient({ baseUrl, apiKey, maxTransientRetries: 1, requestTimeoutMs: 10_000 });
}

export function problemOf(error: unknown): { problem: ConnectionProblem; message: string } {
  if (!(error instanceof ServiceClientError)) {
    return { problem: 'other', message: error instanceof Error ? error.message : String(error) };
  }
  switch (error.kind) {
    case 'configuration':
      return { problem: error.code === 'insecure_base_url' ? 'insecure' : 'invalid', message: error.message };
    case 'authentication':
      return { problem: 'key_refused', message: 'The service refused this key: it is wrong, or it has been revoked.' };
    case 'unavailable':
      return { problem: 'unreachable', message: error.message };
    case 'not_found':
    case 'protocol':
      return {
        problem: 'not_compatible',
        message:
          'Something answered at this address, but not as a Sift-compatible verification service does ' +
          `(${error.message}). Check the Service URL: it is the service's address, with or without /v1.`,
      };
    default:
      return { problem: 'other', message: error.message };
  }
}

export async function accountFacts(client: Pick<ServiceClient, 'getAccount' | 'mode'>): Promise<AccountFacts> {
  return factsOf(client, await client.getAccount());
}

function factsOf(client: Pick<ServiceClient, 'mode'>, account: Account): AccountFacts {
  return {
    // A service that leaves the mode out: the key's own prefix says it.
    mode: account.mode ?? client.mode,
    label: account.key?.label,
    balance: account.balance,
    freeRemaining: account.free_remaining,
    ...(port25States.has(account.port_25 ?? '')
      ? { port25: account.port_25 as NonNullable<AccountFacts['port25']> }
      : {}),
    ...senderFacts(account.sender),
    ...((account.features ?? []).includes(teamOutcomesFeature) ? { teamOutcomes: true } : {}),
  };
}

/** Only a service that says `refused` has refused its sender; the details are each optional. */
function senderFacts(sender: Account['sender']): Pick<AccountFacts, 'senderRefused'> {
  if (sender?.state !== 'refused') return {};
  const removalUrl = sender.removal_url && /^https:\/\//.test(sender.removal_url) ? sender.removal_url : undefined;
  return {
    senderRefused: {
      ...(sender.refused_by === undefined ? {} : { refusedBy: sender.refused_by }),
      ...(sender.way_out ? { wayOut: sender.way_out } : {}),
      ...(sender.reply ? { reply: sender.reply } : {}),
      ...(sender.blocklist ? { blocklist: sender.blocklist } : {}),
      ...(removalUrl ? { removalUrl } : {}),
    },
  };
}

/** Sift's own service says whether it can reach mail servers; any other value, or none, is left out. */
const port25States: ReadonlySet<string> = new Set(['open', 'blocked', 'unchecked']);

/**
 * One GET /account: the account's facts, and what the service supports beside the spec's main path
 * (`remembered`: what Sift learned of this service before, for the batch size it took).
 */
export async function testConnection(
  baseUrl: string,
  apiKey: string,
  remembered: (serviceName: string) => ServiceReach = () => unlearnedReach,
): Promise<ConnectionTest> {
  try {
    const client = interactiveClient(baseUrl, apiKey);
    const account = await client.getAccount();
    const reach = { ...remembered(client.serviceName), ...shortcutsOf(account) };
    return { ok: true, ...factsOf(client, account), supports: describeReach(reach) };
  } catch (error) {
    return { ok: false, ...problemOf(error) };
  }
}
