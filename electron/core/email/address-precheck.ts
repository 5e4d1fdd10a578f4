// Everything Sift can tell about an address before anything is billed: a normal form, syntax,
// role and disposable flags, and a typo suggestion for big providers (shown, never applied).
import emailSpellChecker from '@zootools/email-spell-checker';
import { isDisposableDomain, isRoleLocalPart } from './address-lists.ts';
import { memoByDomain } from './domain-memo.ts';
import { atSignOf, checkDomain, localPartProblem } from './syntax.ts';

export type Precheck =
  | { ok: true; address: string; key: string; role: boolean; disposable: boolean; suggestion?: string }
  | { ok: false; reason: 'no_address' | 'syntax'; key?: string; suggestion?: undefined };

const isQuote = (char: string | undefined) => char === '"' || char === "'";

/** `"Ann" <ANN@Example.COM>`, `mailto:ann@example.com?subject=x` and ` ann@example.com ` all become `ann@example.com`-like forms. */
export function normaliseAddress(raw: string): string {
  let text = raw.trim();
  // Most cells are a bare address: the patterns below only run when a cell has their marks.
  if (text.includes('>')) {
    const angled = /<([^<>]*)>\s*$/.exec(text);
    if (angled) text = angled[1]!.trim();
  }
  // A mailto: link may carry ?subject=… after the address.
  if ((text[0] === 'm' || text[0] === 'M') && /^mailto:/i.test(text)) {
    text = text.slice('mailto:'.length).split('?')[0]!.trim();
  }
  if (isQuote(text[0]) || isQuote(text[text.length - 1])) text = text.replace(/^["']|["']$/g, '');
  const at = text.lastIndexOf('@');
  if (at === -1) return text;
  const domain = text.slice(at + 1);
  const lower = domain.toLowerCase();
  return lower === domain ? text : `${text.slice(0, at)}@${lower}`;
}

/**
 * Whether `normaliseAddress` gives the text of `bytes[start, end)` back unchanged, read off the bytes: a
 * quick yes for the common cell (printable ASCII without the marks it looks for, a lower-case domain)
 * while exporting millions of rows. false means only "ask `normaliseAddress`".
 */
export function isNormalAddressBytes(bytes: Uint8Array, start: number, end: number): boolean {
  if (end <= start) return false;
  const first = bytes[start]!;
  const last = bytes[end - 1]!;
  if (first === 0x22 || first === 0x27 || last === 0x22 || last === 0x27) return false; // " '
  let sawAt = false;
  // Upper case after the last '@' so far: the domain normaliseAddress would lower-case.
  let upperSinceAt = false;
  for (let i = start; i < end; i += 1) {
    const byte = bytes[i]!;
    // Blanks and non-ASCII may be trimmed; '>' and ':' start the display-name and mailto: forms.
    if (byte <= 0x20 || byte >= 0x7f || byte === 0x3e || byte === 0x3a) return false;
    if (byte === 0x40) {
      sawAt = true;
      upperSinceAt = false;
    } else if (byte >= 0x41 && byte <= 0x5a) upperSinceAt = true;
  }
  return !(sawAt && upperSinceAt);
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

/** A likely-meant provider domain (gmial.com → gmail.com), only for small slips of similar length. */
function suggestedDomainFor(asciiDomain: string): string | null {
  const suggested = emailSpellChecker.run({ email: `x@${asciiDomain}` })?.domain;
  return suggested &&
    suggested !== asciiDomain &&
    Math.abs(suggested.length - asciiDomain.length) <= 1 &&
    editDistance(suggested, asciiDomain) <= 2
    ? suggested
    : null;
}

type DomainFacts = { ok: false } | { ok: true; asciiDomain: string; disposable: boolean; suggestion: string | null };

/** What Sift knows of a domain, worked out once per domain. */
const domainFacts = memoByDomain((domain: string): DomainFacts => {
  const checked = checkDomain(domain);
  return checked.ok
    ? {
        ok: true,
        asciiDomain: checked.asciiDomain,
        disposable: isDisposableDomain(checked.asciiDomain),
        suggestion: suggestedDomainFor(checked.asciiDomain),
      }
    : { ok: false };
});

export function precheckAddress(raw: string): Precheck {
  const normalised = normaliseAddress(raw);
  if (normalised === '') return { ok: false, reason: 'no_address' };
  const bad = (): Precheck => ({ ok: false, reason: 'syntax', key: normalised.toLowerCase() });
  const at = atSignOf(normalised);
  if (at === -1) return bad();
  // normaliseAddress lower-cased the domain already.
  const local = normalised.slice(0, at);
  const domain = normalised.slice(at + 1);
  const facts = domainFacts(domain);
  if (!facts.ok || localPartProblem(local) !== null || local.length + 1 + facts.asciiDomain.length > 254) return bad();
  // Most domains are ASCII already: the address is then the text as it is, not a new string.
  const address = facts.asciiDomain === domain ? normalised : `${local}@${facts.asciiDomain}`;
  return {
    ok: true,
    address,
    key: address.toLowerCase(),
    role: isRoleLocalPart(local),
    disposable: facts.disposable,
    ...(facts.suggestion ? { suggestion: `${local}@${facts.suggestion}` } : {}),
  };
}
