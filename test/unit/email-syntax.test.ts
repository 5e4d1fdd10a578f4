import { describe, expect, it } from 'vitest';
import { checkSyntax } from '../../electron/core/email/syntax.ts';

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
