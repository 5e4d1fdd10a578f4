import { describe, expect, it } from 'vitest';
import { sandboxVerdict } from '../../../../../electron/core/service/engines/sandbox-engine.ts';
import { ProbeError } from '../../../../../electron/core/service/engines/engine.ts';

describe('sandbox verdicts', () => {
  it('follows the scripted local-part prefixes', () => {
    expect(sandboxVerdict('valid.jane', 'example.com').result).toBe('valid');
    expect(sandboxVerdict('invalid+1', 'example.com').result).toBe('invalid');
    expect(sandboxVerdict('catchall', 'example.com').result).toBe('catch_all');
    expect(sandboxVerdict('Unknown7', 'example.com').result).toBe('unknown');
    expect(() => sandboxVerdict('giveup', 'example.com')).toThrow(ProbeError);
  });

  it('flags role addresses and disposable domains from the list packages', () => {
    expect(sandboxVerdict('info', 'acme.com')).toMatchObject({ role: true, disposable: false });
    expect(sandboxVerdict('admin', 'acme.com').role).toBe(true);
    expect(sandboxVerdict('jane', 'mailinator.com')).toMatchObject({ role: false, disposable: true });
    expect(sandboxVerdict('jane', 'acme.com')).toMatchObject({ role: false, disposable: false });
  });

  it('is the same for the same address, and a realistic mix across many', () => {
    expect(sandboxVerdict('someone', 'acme.com')).toEqual(sandboxVerdict('someone', 'acme.com'));
    const counts: Record<string, number> = {};
    for (let i = 0; i < 4000; i += 1) {
      const verdict = sandboxVerdict(`person${i}`, `company${i % 200}.com`);
      counts[verdict.result] = (counts[verdict.result] ?? 0) + 1;
    }
    expect(counts.valid! / 4000).toBeGreaterThan(0.55);
    expect(counts.valid! / 4000).toBeLessThan(0.85);
    for (const result of ['invalid', 'catch_all', 'unknown']) expect(counts[result]).toBeGreaterThan(40);
    // Big providers accept mail only for real boxes.
    for (let i = 0; i < 300; i += 1) expect(sandboxVerdict(`p${i}`, 'gmail.com').result).not.toBe('catch_all');
  });
});
