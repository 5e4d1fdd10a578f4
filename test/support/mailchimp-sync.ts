// What the Mailchimp sync suites start with: the project's Mailchimp test server, Sift's own service with a
// live key and credits (service-harness.ts), and a connection named `shop` made through `sift connect`.
import { expect } from 'vitest';
import type { VerificationService } from '../../electron/core/service/verification-service.ts';
import { startMailchimp, type MailchimpServer } from './mailchimp-server.ts';
import { runSiftHere } from './run-sift-here.ts';
import { startTestService, syncTestEnv } from './service-harness.ts';

/** What an address's local part makes the test service say of it, and the sift tag that verdict gives. */
export const verdictKinds = [
  ['valid', 'sift-valid'],
  ['invalid', 'sift-invalid'],
  ['catchall', 'sift-catch-all'],
  ['unknown', 'sift-unknown'],
] as const;

export type MailchimpSync = {
  chimp: MailchimpServer;
  service: VerificationService;
  /** The CLI's environment: the data folder, the service's key and the Mailchimp key. */
  env: Record<string, string>;
  close(): Promise<void>;
};

/** Starts both servers with `credits` to spend, and connects `shop` to the Mailchimp one. */
export async function startMailchimpSync(credits: number): Promise<MailchimpSync> {
  const [chimp, service] = await Promise.all([startMailchimp(), startTestService()]);
  const env = await syncTestEnv(service, credits, { SIFT_MAILCHIMP_KEY: chimp.key });
  const connected = await runSiftHere(['connect', 'mailchimp', '--name', 'shop', '--api-url', chimp.url], env);
  expect(connected.code, connected.stderr).toBe(0);
  return { chimp, service, env, close: async () => void (await Promise.all([chimp.close(), service.close()])) };
}
