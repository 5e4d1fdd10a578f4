// Address syntax as mail servers see it: RFC 5321 lengths (local part 64, address 254) and
// dot-atom local parts; domains checked label by label after IDN conversion.
import { domainToASCII } from 'node:url';

export type SyntaxCheck =
  { ok: true; local: string; domain: string; asciiDomain: string } | { ok: false; reason: string };

const localAtom = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+$/u;
const domainLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function checkSyntax(address: string): SyntaxCheck {
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return { ok: false, reason: 'missing_at_or_part' };
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (/\s/.test(address)) return { ok: false, reason: 'whitespace' };
  if (local.length > 64) return { ok: false, reason: 'local_part_too_long' };
  if (!local.split('.').every((atom) => localAtom.test(atom))) return { ok: false, reason: 'invalid_local_part' };
  const asciiDomain = domainToASCII(domain.toLowerCase());
  if (!asciiDomain || asciiDomain.length > 253) return { ok: false, reason: 'invalid_domain' };
  const labels = asciiDomain.split('.');
  if (labels.length < 2 || !labels.every((label) => domainLabel.test(label)))
    return { ok: false, reason: 'invalid_domain' };
  if (/^\d+$/.test(labels.at(-1)!)) return { ok: false, reason: 'invalid_domain' };
  if (local.length + 1 + asciiDomain.length > 254) return { ok: false, reason: 'address_too_long' };
  return { ok: true, local, domain, asciiDomain };
}
