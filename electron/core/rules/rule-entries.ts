// What a person writes for a rule's domain: `example.com`, `@example.com`, `*@example.com` or
// `*.example.com` (a rule covers subdomains anyway), kept in the ASCII form lists are matched in; and a
// file of them, read as a do-not-mail file is (text, CSV, TSV, a workbook's first sheet), where an address
// is refused: a rule is for a whole domain.
import { basename } from 'node:path';
import { checkDomain } from '../email/syntax.ts';
import { withoutControls } from '../../common/terminal-text.ts';
import { readSuppressionFile, type RefusedEntry } from '../suppression/index.ts';
import type { RuleAction } from '../../common/domain-rules.ts';
import type { RuleStore } from './rule-store.ts';

export type { RefusedEntry } from '../suppression/index.ts';

/** The domain a rule is set for, or why the text is not one. */
export function parseRuleDomain(raw: string): { domain: string } | RefusedEntry {
  const entry = raw.trim();
  if (entry === '') return refused(entry, 'empty');
  const written = /^(?:\*?@|\*\.)?([^@\s*]+)$/.exec(entry);
  if (!written) {
    const reason = entry.includes('@') ? 'an address: a rule is for a whole domain' : 'not a domain';
    return refused(entry, reason);
  }
  const checked = checkDomain(written[1]!);
  return checked.ok ? { domain: checked.asciiDomain } : refused(entry, 'not a domain');
}

/** Reads a file of domains, calling `onBatch` with each batch; addresses and other lines are counted as refused. */
async function readRuleFile(path: string, fileName: string, onBatch: (domains: string[]) => void) {
  let refused = 0;
  const refusedExamples: RefusedEntry[] = [];
  const read = await readSuppressionFile(path, fileName, (entries) => {
    // The do-not-mail file reader takes addresses too: here each is refused, with why.
    const domains: string[] = [];
    for (const entry of entries) {
      if (entry.kind === 'domain') domains.push(entry.value);
      else {
        refused += 1;
        if (refusedExamples.length < 10)
          refusedExamples.push({ entry: entry.value, reason: 'an address: a rule is for a whole domain' });
      }
    }
    onBatch(domains);
  });
  return {
    domains: read.entries - refused,
    refused: read.refused + refused,
    refusedExamples: [...refusedExamples, ...read.refusedExamples].slice(0, 10),
  };
}

/** Sets `action` for each domain written in `texts`; answers what was new, changed and refused (with examples). */
export function setRulesFromText(
  store: Pick<RuleStore, 'set'>,
  texts: readonly string[],
  action: RuleAction,
  source: string,
) {
  const domains: string[] = [];
  const refused: RefusedEntry[] = [];
  for (const text of texts) {
    const parsed = parseRuleDomain(text);
    if ('domain' in parsed) domains.push(parsed.domain);
    else if (parsed.reason !== 'empty') refused.push(parsed);
  }
  const { added, changed } = store.set(
    domains.map((domain) => ({ domain, action })),
    source,
  );
  return { added, changed, refused: refused.length, refusedExamples: refused.slice(0, 10) };
}

/** Sets `action` for each domain of a file; answers as setRulesFromText does. */
export async function setRulesFromFile(
  store: Pick<RuleStore, 'set'>,
  path: string,
  action: RuleAction,
  fileName = basename(path),
) {
  let added = 0;
  let changed = 0;
  const read = await readRuleFile(path, fileName, (domains) => {
    const done = store.set(
      domains.map((domain) => ({ domain, action })),
      fileName,
    );
    added += done.added;
    changed += done.changed;
  });
  return { added, changed, refused: read.refused, refusedExamples: read.refusedExamples };
}

/** A refused line as it is shown back (the app, the terminal): never with a file's control characters. */
const refused = (entry: string, reason: string): RefusedEntry => ({ entry: withoutControls(entry), reason });
