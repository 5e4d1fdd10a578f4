// Whether an address goes into the cleaned list: its verdict kept and its score at that verdict's
// threshold, a suggestion accepted, a flag left out, or a rule's word, one decision for the export and the
// results screen's count.
import { describe, expect, it } from 'vitest';
import { keepDecider, type KeepFacts } from '../../../electron/common/keep-choice.ts';

const none = { role: false, disposable: false, typos: false };
const facts = (over: Partial<KeepFacts>): KeepFacts => ({
  result: 'valid',
  reason: null,
  role: false,
  disposable: false,
  typo: false,
  accepted: false,
  score: 90,
  ...over,
});

describe('keeping an address', () => {
  it('keeps a kept verdict that reaches its threshold, and no other', () => {
    const kept = keepDecider({ keep: ['valid', 'catch_all'], keepAtScore: { catch_all: 70 }, remove: none });
    expect(kept(facts({}))).toBe(true);
    expect(kept(facts({ result: 'catch_all', score: 70 }))).toBe(true);
    expect(kept(facts({ result: 'catch_all', score: 69 }))).toBe(false);
    expect(kept(facts({ result: 'unknown', score: 100 }))).toBe(false);
    expect(kept(facts({ result: 'suppressed', score: 100 }))).toBe(false);
  });

  it('leaves out a flag asked, and keeps an accepted correction whatever its verdict', () => {
    const kept = keepDecider({ keep: ['valid'], remove: { role: true, disposable: true, typos: true } });
    expect(kept(facts({ role: true }))).toBe(false);
    expect(kept(facts({ typo: true }))).toBe(false);
    expect(kept(facts({ result: 'unknown', accepted: true, score: 10 }))).toBe(true);
  });

  it("follows a rule's word: keep whatever is left out, leave out, never check kept unless a flag is left out", () => {
    const ruled = (reason: string) => facts({ result: 'ruled', reason, score: 0, role: true });
    const strict = keepDecider({ keep: ['valid'], remove: { role: true, disposable: true, typos: true } });
    expect(strict(ruled('rule_keep'))).toBe(true);
    expect(strict(ruled('rule_leave_out'))).toBe(false);
    expect(strict(ruled('rule_never_check'))).toBe(false);
    expect(keepDecider({ keep: ['valid'], remove: none })(ruled('rule_never_check'))).toBe(true);
  });
});
