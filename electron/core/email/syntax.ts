// Address syntax as mail servers see it: RFC 5321 lengths (local part 64, address 254) and
// dot-atom local parts; domains checked label by label after IDN conversion. The local part and the
// domain are checked apart, so callers that see many addresses of one domain can cache the domain's check.
import { domainToASCII } from 'node:url';
import { memoByDomain } from './domain-memo.ts';

export type SyntaxCheck =
  { ok: true; local: string; domain: string; asciiDomain: string } | { ok: false; reason: string };

export type DomainCheck = { ok: true; asciiDomain: string } | { ok: false; reason: 'invalid_domain' };

/** Dot-atoms: letters, digits and the RFC 5322 atom signs, with single dots between them. */
const dotAtom = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const domainLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const whitespace = /\s/;

/** Which ASCII codes an atom may hold: letters, digits and the RFC 5322 atom signs. */
const asciiAtom = new Uint8Array(128);
for (const char of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+/=?^_`{|}~-")
  asciiAtom[char.charCodeAt(0)] = 1;

/**
 * Whether a local part is a fine ASCII dot-atom, by a loop over its codes: it runs for every address of
 * every list and batch, where the Unicode regex costs several times more. False says only "not sure": the
 * regexes then answer, and name the problem.
 */
function isPlainAsciiDotAtom(local: string): boolean {
  let previousDot = true; // the start counts as a dot: a local part may not begin with one
  for (let i = 0; i < local.length; i += 1) {
    const code = local.charCodeAt(i);
    if (code === 46 && !previousDot) previousDot = true;
    else if (code < 128 && asciiAtom[code] === 1) previousDot = false;
    else return false;
  }
  return !previousDot;
}

/** The local part alone: null when it is fine, else why not. */
export function localPartProblem(local: string): string | null {
  if (local.length > 64) return 'local_part_too_long';
  if (isPlainAsciiDotAtom(local)) return null;
  if (whitespace.test(local)) return 'whitespace';
  return dotAtom.test(local) ? null : 'invalid_local_part';
}

/** The domain alone, converted to its ASCII (punycode) form. */
export function checkDomain(domain: string): DomainCheck {
  if (whitespace.test(domain)) return { ok: false, reason: 'invalid_domain' };
  const asciiDomain = domainToASCII(domain.toLowerCase());
  if (!asciiDomain || asciiDomain.length > 253) return { ok: false, reason: 'invalid_domain' };
  const labels = asciiDomain.split('.');
  if (labels.length < 2 || !labels.every((label) => domainLabel.test(label)))
    return { ok: false, reason: 'invalid_domain' };
  if (/^\d+$/.test(labels.at(-1)!)) return { ok: false, reason: 'invalid_domain' };
  return { ok: true, asciiDomain };
}

/** `checkDomain`, remembered per domain: a service checks every address of a batch. */
const checkDomainOnce = memoByDomain(checkDomain);

/** Where the local part ends: the last `@`, or -1 when the text has no local part and domain. */
export function atSignOf(address: string): number {
  const at = address.lastIndexOf('@');
  return at <= 0 || at === address.length - 1 ? -1 : at;
}

export function checkSyntax(address: string): SyntaxCheck {
  const at = atSignOf(address);
  if (at === -1) return { ok: false, reason: 'missing_at_or_part' };
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (whitespace.test(address)) return { ok: false, reason: 'whitespace' };
  const localProblem = localPartProblem(local);
  if (localProblem) return { ok: false, reason: localProblem };
  const domainCheck = checkDomainOnce(domain);
  if (!domainCheck.ok) return domainCheck;
  if (local.length + 1 + domainCheck.asciiDomain.length > 254) return { ok: false, reason: 'address_too_long' };
  return { ok: true, local, domain, asciiDomain: domainCheck.asciiDomain };
}
