import { describe, expect, it } from 'vitest';
import {
  isNormalAddressBytes,
  normaliseAddress,
  precheckAddress,
} from '../../../../electron/core/email/address-precheck.ts';
import { neutraliseFormula } from '../../../../electron/core/lists/formula-guard.ts';
import { seededRandom } from '../../../support/seeded-random.ts';

describe('normaliseAddress', () => {
  it.each([
    ['  ann@example.com  ', 'ann@example.com'],
    ['mailto:Ann@Example.COM?subject=hi', 'Ann@example.com'],
    ['"Ann Lee" <ann.lee@EXAMPLE.org>', 'ann.lee@example.org'],
    ['<bob@Example.net>', 'bob@example.net'],
    ['Bob <bob@example.net>', 'bob@example.net'],
  ])('%s → %s', (raw, expected) => expect(normaliseAddress(raw)).toBe(expected));
});

describe('isNormalAddressBytes', () => {
  const isNormal = (text: string) => {
    // Inside a larger buffer, as the export hands it a cell of a row.
    const bytes = Buffer.from(`x,${text},y`);
    return isNormalAddressBytes(bytes, 2, bytes.length - 2);
  };

  it.each(['ann@example.com', 'Ann.Lee+news@example.com', 'no-at-sign', 'A@b@example.com'])(
    'says %s needs no normalising',
    (text) => expect(isNormal(text)).toBe(true),
  );

  it.each([
    ' ann@example.com',
    'ann@Example.com',
    'mailto:ann@example.com',
    '<ann@example.com>',
    '"ann@example.com"',
    '',
  ])('leaves %j to normaliseAddress', (text) => expect(isNormal(text)).toBe(false));

  it('never says yes where normaliseAddress would change the text', () => {
    const random = seededRandom(11);
    const pieces = [
      'a',
      'B',
      'z',
      'M',
      '@',
      '.',
      '"',
      "'",
      ' ',
      '\t',
      '>',
      '<',
      ':',
      'mailto:',
      'é',
      '\u00a0',
      '\ufeff',
      '?',
    ];
    let yes = 0;
    for (let run = 0; run < 20_000; run += 1) {
      const length = 1 + Math.floor(random() * 12);
      const text = Array.from({ length }, () => pieces[Math.floor(random() * pieces.length)]!).join('');
      if (!isNormal(text)) continue;
      yes += 1;
      expect(normaliseAddress(text), JSON.stringify(text)).toBe(text);
    }
    expect(yes).toBeGreaterThan(1000);
  });
});

describe('precheckAddress', () => {
  it('converts IDN domains to punycode and dedupes case-insensitively', () => {
    expect(precheckAddress('Zoë@Bücher.de')).toMatchObject({
      ok: true,
      address: 'Zoë@xn--bcher-kva.de',
      key: 'zoë@xn--bcher-kva.de',
    });
    expect(precheckAddress('ANN@example.com')).toMatchObject({ key: 'ann@example.com' });
  });

  it('keeps RFC 5321 lengths', () => {
    expect(precheckAddress(`${'a'.repeat(64)}@example.com`).ok).toBe(true);
    expect(precheckAddress(`${'a'.repeat(65)}@example.com`)).toMatchObject({ ok: false, reason: 'syntax' });
    expect(
      precheckAddress(`${'a'.repeat(10)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.com`),
    ).toMatchObject({ ok: false });
    expect(precheckAddress('   ')).toMatchObject({ ok: false, reason: 'no_address' });
  });

  it('flags role and disposable addresses', () => {
    expect(precheckAddress('info@acme.com')).toMatchObject({ role: true, disposable: false });
    expect(precheckAddress('jo@mailinator.com')).toMatchObject({ role: false, disposable: true });
    // mail.tm is in the maintained list (disposable-email-domains-js) and was never in the 2023 one.
    expect(precheckAddress('jo@mail.tm')).toMatchObject({ disposable: true });
    // Matched on the registrable domain: a host under a listed domain is that domain's.
    expect(precheckAddress('jo@inbox.guerrillamail.com')).toMatchObject({ disposable: true });
    expect(precheckAddress('jo@guerrillamail.com.example.org')).toMatchObject({ disposable: false });
  });

  it('suggests a fix for provider typos without applying it', () => {
    expect(precheckAddress('cara@gamil.com')).toMatchObject({
      address: 'cara@gamil.com',
      suggestion: 'cara@gmail.com',
    });
    expect(precheckAddress('dan@hotmial.com')).toMatchObject({ suggestion: 'dan@hotmail.com' });
    expect(precheckAddress('x@acme.com')).not.toHaveProperty('suggestion');
    expect(precheckAddress('x@gmail.com')).not.toHaveProperty('suggestion');
  });
});

describe('neutraliseFormula', () => {
  it.each(['=1+1', '+1 555', '-2', '@SUM(A1)', '\tx', '\rx', '\nx', '＝1', '＋1', '－1', '＠x'])(
    'guards %j',
    (cell) => {
      expect(neutraliseFormula(cell)).toBe(`'${cell}`);
    },
  );
  it('leaves other cells alone', () => {
    expect(neutraliseFormula('ann@example.com')).toBe('ann@example.com');
    expect(neutraliseFormula('')).toBe('');
  });
});
