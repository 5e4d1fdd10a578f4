// What a line of a do-not-mail list means: one address (matched as the list's addresses are: trimmed,
// lower-cased, `"Ann" <ann@x.com>` and `mailto:` forms unwrapped) or a whole domain (`example.com`,
// `@example.com` or `*@example.com`; its subdomains too), kept in the normal form it is matched in.
import { precheckAddress } from '../email/address-precheck.ts';
import { checkDomain } from '../email/syntax.ts';
import { withoutControls } from '../../common/terminal-text.ts';

export type SuppressionKind = 'address' | 'domain';
export type SuppressionEntry = { kind: SuppressionKind; value: string };

/** A line that is neither, with why, in words. */
export type RefusedEntry = { entry: string; reason: string };

export function parseSuppressionEntry(raw: string): SuppressionEntry | RefusedEntry {
  const entry = raw.trim();
  if (entry === '') return refused(entry, 'empty');
  const domain = /^(\*?@)?([^@\s]+)$/.exec(entry);
  if (domain) {
    const checked = checkDomain(domain[2]!);
    return checked.ok ? { kind: 'domain', value: checked.asciiDomain } : refused(entry, 'not an address or a domain');
  }
  const check = precheckAddress(entry);
  return check.ok ? { kind: 'address', value: check.key } : refused(entry, 'not an address or a domain');
}

export const isRefused = (parsed: SuppressionEntry | RefusedEntry): parsed is RefusedEntry => 'reason' in parsed;

/** A refused line as it is shown back (the app, the terminal): never with a file's control characters. */
const refused = (entry: string, reason: string): RefusedEntry => ({ entry: withoutControls(entry), reason });
