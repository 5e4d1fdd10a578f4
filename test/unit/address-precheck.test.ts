import { describe, expect, it } from 'vitest';
import { normaliseAddress, precheckAddress } from '../../electron/core/email/address-precheck.ts';
import { neutraliseFormula } from '../../electron/core/lists/formula-guard.ts';

describe('normaliseAddress', () => {
  it.each([
    ['  ann@example.com  ', 'ann@example.com'],
    ['mailto:Ann@Example.COM?subject=hi', 'Ann@example.com'],
    ['"Ann Lee" <ann.lee@EXAMPLE.org>', 'ann.lee@example.org'],
    ['<bob@Example.net>', 'bob@example.net'],
    ['Bob <bob@example.net>', 'bob@example.net'],
  ])('%s → %s', (raw, expected) => expect(normaliseAddress(raw)).toBe(expected));
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
  });

  it('suggests a fix for provider typos without applying it', () => {
    expect(precheckAddress('cara@gmial.com')).toMatchObject({
      address: 'cara@gmial.com',
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
