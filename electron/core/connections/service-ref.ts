// Which service a job is sent to, remembered with the job so that switching services in Settings never
// mixes jobs: a job is always resumed against the service that has its batches.
import type { ServiceClient } from '../client/service-client.ts';

export type ServiceRef =
  /** Sift's own service, with a sandbox or a live key. */
  | { kind: 'embedded'; mode: 'sandbox' | 'live' }
  /** A hosted service the person set up in Settings, by the id of that connection. */
  | { kind: 'hosted'; connectionId: string };

export const embeddedSandbox: ServiceRef = { kind: 'embedded', mode: 'sandbox' };

export function sameService(a: ServiceRef, b: ServiceRef): boolean {
  return (
    a.kind === b.kind &&
    (a.kind === 'embedded' ? a.mode === (b as typeof a).mode : a.connectionId === (b as typeof a).connectionId)
  );
}

/** Where a job went, in words a person reads in History. */
export function describeService(ref: ServiceRef): string {
  return ref.kind === 'embedded' ? `Sift's own service (${ref.mode})` : 'A hosted service';
}

/** The services the app can reach, as main knows them. */
export type ServiceClients = {
  /** The service new jobs go to. */
  current(): Promise<ServiceRef>;
  /** A client for a service; an AppError that says what to do when it is no longer set up. */
  clientFor(ref: ServiceRef): Promise<ServiceClient>;
  close(): Promise<void>;
};
