// Scripted, realistic verdicts for sandbox keys: no network connection of any kind, and the same
// answer for the same address every time.
//   local part starting valid / invalid / catchall / unknown  → that verdict (for tests and demos)
//   local part starting giveup                               → the probe errors, so the batch is given up
//   anything else → a stable mix drawn from a hash of the address (mostly valid, as real lists are)
import { hash } from 'node:crypto';
import { isDisposableDomain, isRoleLocalPart } from '../../email/address-lists.ts';
import { memoByDomain } from '../../email/domain-memo.ts';
import { finalise32, fnv1a } from '../../email/text-hash.ts';
import { ProbeError, type Verdict, type VerificationEngine } from './engine.ts';

/** Big mailbox providers accept mail only for real boxes, so they are never catch-all. */
const majorProviders = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'yahoo.com',
  'icloud.com',
  'proton.me',
  'gmx.de',
  'web.de',
  'aol.com',
]);

const scripted: [prefix: string, result: string, reason: string][] = [
  ['valid', 'valid', 'accepted_email'],
  ['invalid', 'invalid', 'rejected_email'],
  ['catchall', 'catch_all', 'accept_all_domain'],
  ['unknown', 'unknown', 'no_connect'],
];

/** What the sandbox holds true of a whole domain: disposable, and whether it accepts every address. */
const domainTraits = memoByDomain((domain: string) => ({
  disposable: isDisposableDomain(domain),
  catchAll: !majorProviders.has(domain) && hash('sha256', domain, 'buffer')[0]! < 26,
}));

/**
 * A stable number in [0, 1) for an address, from its text hash (local, `@`, domain, hashed as one string).
 * A cryptographic hash per address cost a sixth of staging a million; nothing here is secret.
 */
function addressRoll(local: string, domain: string): number {
  return finalise32(fnv1a(domain, fnv1a('@', fnv1a(local)))) / 2 ** 32;
}

export function sandboxVerdict(local: string, asciiDomain: string): Verdict {
  const lowerLocal = local.toLowerCase();
  const domain = asciiDomain.toLowerCase();
  const traits = domainTraits(domain);
  const flags = { role: isRoleLocalPart(lowerLocal), disposable: traits.disposable };
  if (lowerLocal.startsWith('giveup')) throw new ProbeError('The mail host kept failing (scripted sandbox failure).');
  for (const [prefix, result, reason] of scripted)
    if (lowerLocal.startsWith(prefix)) return { result, reason, ...flags };

  // Catch-all is a property of a domain, not of one address.
  if (traits.catchAll) return { result: 'catch_all', reason: 'accept_all_domain', ...flags };
  const roll = addressRoll(lowerLocal, domain);
  if (roll < 0.8) return { result: 'valid', reason: 'accepted_email', ...flags };
  if (roll < 0.93) return { result: 'invalid', reason: roll < 0.88 ? 'rejected_email' : 'invalid_domain', ...flags };
  return { result: 'unknown', reason: roll < 0.97 ? 'timeout' : 'mailbox_full', ...flags };
}

export const sandboxEngine: VerificationEngine = {
  verify: async (local, asciiDomain) => sandboxVerdict(local, asciiDomain),
  verifyNow: sandboxVerdict,
};
