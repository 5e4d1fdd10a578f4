// What a line of a do-not-mail list means, and how the matcher finds an address on it: by address in any
// case or wrapping, by domain and its subdomains, from the stored list and a one-off file alike.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSuppressionEntry } from '../../../../electron/core/suppression/suppression-entries.ts';
import { suppressionMatcher } from '../../../../electron/core/suppression/suppression-matcher.ts';
import { openSuppressionStore } from '../../../../electron/core/suppression/suppression-store.ts';
import { precheckAddress } from '../../../../electron/core/email/address-precheck.ts';

const keyOf = (cell: string) => precheckAddress(cell).key!;

describe('suppression entries', () => {
  it('reads addresses in any case or wrapping, and domains in every written form', () => {
    expect(parseSuppressionEntry('  Ann.Lee@Example.COM ')).toEqual({ kind: 'address', value: 'ann.lee@example.com' });
    expect(parseSuppressionEntry('"Ann" <ANN@example.com>')).toEqual({ kind: 'address', value: 'ann@example.com' });
    expect(parseSuppressionEntry('mailto:ann@example.com')).toEqual({ kind: 'address', value: 'ann@example.com' });
    for (const domain of ['Example.com', '@example.com', '*@example.com', ' example.com '])
      expect(parseSuppressionEntry(domain)).toEqual({ kind: 'domain', value: 'example.com' });
    expect(parseSuppressionEntry('bücher.de')).toEqual({ kind: 'domain', value: 'xn--bcher-kva.de' });
    expect(parseSuppressionEntry('')).toMatchObject({ reason: 'empty' });
    for (const bad of ['not an address', 'ann@', 'localhost', '@@x.com'])
      expect(parseSuppressionEntry(bad)).toMatchObject({ reason: 'not an address or a domain' });
  });

  it('matches the stored list and a one-off list: addresses exactly, domains with their subdomains', async () => {
    const store = openSuppressionStore(await mkdtemp(join(tmpdir(), 'sift-suppression-unit-')));
    try {
      const empty = suppressionMatcher(store);
      expect(empty.empty).toBe(true);
      expect(empty.matches(keyOf('ann@example.com'))).toBeNull();
      expect(
        store.add(
          ['ANN@Example.com', 'competitor.com', 'bücher.de'].map((raw) => {
            const parsed = parseSuppressionEntry(raw);
            if ('reason' in parsed) throw new Error(raw);
            return parsed;
          }),
          'test',
        ),
      ).toBe(3);
      const matcher = suppressionMatcher(store, [{ kind: 'address', value: 'once@elsewhere.org' }]);
      expect(matcher.empty).toBe(false);
      expect(matcher.matches(keyOf(' Ann@EXAMPLE.com'))).toBe('address');
      expect(matcher.matches(keyOf('ann2@example.com'))).toBeNull();
      expect(matcher.matches(keyOf('anyone@competitor.com'))).toBe('domain');
      expect(matcher.matches(keyOf('anyone@mail.Competitor.com'))).toBe('domain');
      expect(matcher.matches(keyOf('anyone@notcompetitor.com'))).toBeNull();
      expect(matcher.matches(keyOf('leser@bücher.de'))).toBe('domain');
      expect(matcher.matches(keyOf('once@elsewhere.org'))).toBe('address');
      expect(store.remove(['ann@example.com'])).toBe(1);
      expect(suppressionMatcher(store).matches(keyOf('ann@example.com'))).toBeNull();
    } finally {
      store.close();
    }
  });
});
