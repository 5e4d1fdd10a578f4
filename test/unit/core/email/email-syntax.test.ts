import { describe, expect, it } from 'vitest';
import { checkSyntax, localPartProblem } from '../../../../electron/core/email/syntax.ts';

describe('checkSyntax', () => {
  it.each([
    'a@example.com',
    'first.last+tag@sub.example.co.uk',
    "o'brien@example.ie",
    'zoë@bücher.de',
    `${'a'.repeat(64)}@example.com`,
  ])('accepts %s', (address) => expect(checkSyntax(address).ok).toBe(true));

  it.each([
    'plain',
    '@example.com',
    'a@',
    'a@@example.com',
    'a@localhost',
    'a@example.123',
    '.a@example.com',
    'a..b@example.com',
    'a b@example.com',
    'a@-example.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(58)}.com`,
  ])('refuses %s', (address) => expect(checkSyntax(address).ok).toBe(false));

  it('converts IDN domains to punycode', () => {
    expect(checkSyntax('zoë@bücher.de')).toMatchObject({ ok: true, asciiDomain: 'xn--bcher-kva.de' });
  });
});

describe('localPartProblem', () => {
  // The rule as the RFC states it, written as regexes: the fast ASCII path must answer as they do.
  const reference = (local: string) => {
    if (local.length > 64) return 'local_part_too_long';
    if (/\s/.test(local)) return 'whitespace';
    return /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u.test(local)
      ? null
      : 'invalid_local_part';
  };

  it('answers as the regexes do for many local parts, ASCII or not', () => {
    const alphabet = [
      'a',
      'Z',
      '7',
      '.',
      '.',
      '+',
      "'",
      '"',
      '(',
      ',',
      ' ',
      '\t',
      '\x01',
      '\x7f',
      'é',
      'ß',
      '\u00a0',
      '٣',
    ];
    let state = 42;
    const next = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    let checked = 0;
    for (let n = 0; n < 20_000; n += 1) {
      let local = '';
      const length = Math.floor(next() * 8);
      for (let i = 0; i < length; i += 1) local += alphabet[Math.floor(next() * alphabet.length)];
      expect([local, localPartProblem(local)]).toEqual([local, reference(local)]);
      checked += 1;
    }
    expect(checked).toBe(20_000);
    for (const local of ['', '.', 'a.', '.a', 'a..b', 'a.b', "o'brien", 'x'.repeat(64), 'x'.repeat(65)])
      expect([local, localPartProblem(local)]).toEqual([local, reference(local)]);
  });
});
