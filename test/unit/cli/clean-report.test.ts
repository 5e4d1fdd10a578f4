import { describe, expect, it } from 'vitest';
import { describeSummary } from '../../../electron/cli/clean-report.ts';
import type { ListSummary } from '../../../electron/common/contract.ts';

const summary = (overrides: Partial<ListSummary>): ListSummary => ({
  rows: 0,
  no_address: 0,
  bad_syntax: 0,
  duplicates: 0,
  suppressed: 0,
  to_check: 0,
  valid: 0,
  invalid: 0,
  catch_all: 0,
  unknown: 0,
  other_results: {},
  unverified: 0,
  role: 0,
  disposable: 0,
  typos: 0,
  billed: 0,
  cached: 0,
  ...overrides,
});

describe("sift clean's summary", () => {
  it('says one row, duplicate and typo as one, and more as more', () => {
    const one = describeSummary(summary({ rows: 1, duplicates: 1, typos: 1, to_check: 1, valid: 1 }), false);
    expect(one).toContain('1 row: 0 without an address, 0 bad syntax, 1 duplicate, 1 to check.');
    expect(one).toContain('1 likely typo.');
    const many = describeSummary(summary({ rows: 2_000, duplicates: 2, typos: 3, to_check: 1_998 }), false);
    expect(many).toContain('2,000 rows: 0 without an address, 0 bad syntax, 2 duplicates, 1,998 to check.');
    expect(many).toContain('3 likely typos.');
  });
});
