// The one seam between the service and whatever gives verdicts: the sandbox's scripted ones
// (sandbox-engine.ts) and the live engine that asks mail servers (live/). The batch worker, the HTTP
// handlers and the service know engines only through this.
import type { SmtpSettings } from './live/smtp-settings.ts';
import type { PaceEstimate } from './live/pace-estimate.ts';

export type Verdict = {
  result: string;
  reason: string;
  role: boolean;
  disposable: boolean;
  /** The local engine's extras: who runs the mail hosts, whether the domain is a free mailbox, the reply. */
  provider?: string;
  free?: boolean;
  smtpReply?: string;
  /** Whether the conversation ran under STARTTLS, and whether the server's certificate verified. */
  smtpTls?: 'none' | 'ok' | 'certificate_not_trusted';
};

export type VerificationEngine = {
  verify(local: string, asciiDomain: string): Promise<Verdict>;
  /** An engine that opens no connection may answer at once; the worker then needs no pacing for it. */
  verifyNow?(local: string, asciiDomain: string): Verdict;
  /** An engine with its own queue (the local SMTP engine) works a round of it instead of being handed rows. */
  runQueue?(): Promise<number>;
  /** The worker asks to be woken when a conversation ends, so a domain's next work starts at once. */
  onWorkFreed?(wake: () => void): void;
  /** How long the batch whose rows carry `rowKey` has left at this engine's pace, where it can tell. */
  estimate?(rowKey: number): Promise<PaceEstimate | undefined>;
  /** An engine that talks to mail servers takes new settings for what it starts from now on. */
  reconfigure?(settings: SmtpSettings): Promise<void>;
  stop?(): Promise<void>;
};

/** Only a definitive verdict spends a credit; `unknown` (and anything else) never does. */
export const billableResults: ReadonlySet<string> = new Set(['valid', 'invalid', 'catch_all']);

/** A check failed in Sift itself (not at the mail server): it counts as a failed try. */
export class ProbeError extends Error {}
