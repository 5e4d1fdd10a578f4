// Everything Sift can tell about an address before anything is billed: a normal form, syntax,
// role and disposable flags, and a typo suggestion for big providers (shown, never applied).
import emailSpellChecker from '@zootools/email-spell-checker';
import { isDisposableDomain, isRoleLocalPart } from './address-lists.ts';
import { checkSyntax } from './syntax.ts';

export type Precheck =
  | { ok: true; address: string; key: string; role: boolean; disposable: boolean; suggestion?: string }
  | { ok: false; reason: 'no_address' | 'syntax'; key?: string; suggestion?: undefined };

/** `"Ann" <ANN@Example.COM>`, `mailto:ann@example.com?subject=x` and ` ann@example.com ` all become `ann@example.com`-like forms. */
export function normaliseAddress(raw: string): string {
  let text = raw.trim();
  const angled = /<([^<>]*)>\s*$/.exec(text);
  if (angled) text = angled[1]!.trim();
  // A mailto: link may carry ?subject=… after the address.
  if (/^mailto:/i.test(text)) text = text.slice('mailto:'.length).split('?')[0]!;
  text = text.trim().replace(/^["']|["']$/g, '');
  const at = text.lastIndexOf('@');
  return at === -1 ? text : `${text.slice(0, at)}@${text.slice(at + 1).toLowerCase()}`;
}

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

/** Suggestions depend on the domain only, and a list has far fewer domains than addresses. */
const suggestionsByDomain = new Map<string, string | null>();
const maxCachedDomains = 50_000;

function suggestedDomainFor(domain: string): string | null {
  const cached = suggestionsByDomain.get(domain);
  if (cached !== undefined) return cached;
  const suggested = emailSpellChecker.run({ email: `x@${domain}` })?.domain;
  const accepted =
    suggested &&
    suggested !== domain &&
    Math.abs(suggested.length - domain.length) <= 1 &&
    editDistance(suggested, domain) <= 2
      ? suggested
      : null;
  if (suggestionsByDomain.size >= maxCachedDomains) suggestionsByDomain.clear();
  suggestionsByDomain.set(domain, accepted);
  return accepted;
}

/** A likely-meant provider domain (gmial.com → gmail.com), only for small slips of similar length. */
export function suggestDomain(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  const suggested = suggestedDomainFor(address.slice(at + 1));
  return suggested ? `${address.slice(0, at)}@${suggested}` : undefined;
}

export function precheckAddress(raw: string): Precheck {
  const normalised = normaliseAddress(raw);
  if (normalised === '') return { ok: false, reason: 'no_address' };
  const syntax = checkSyntax(normalised);
  if (!syntax.ok) return { ok: false, reason: 'syntax', key: normalised.toLowerCase() };
  const address = `${syntax.local}@${syntax.asciiDomain}`;
  const suggestion = suggestDomain(address);
  return {
    ok: true,
    address,
    key: address.toLowerCase(),
    role: isRoleLocalPart(syntax.local),
    disposable: isDisposableDomain(syntax.asciiDomain),
    ...(suggestion ? { suggestion } : {}),
  };
}
