// A catch-all domain's score moves by what its sends came to only when the evidence is enough: the Wilson
// interval of its bounce rate wholly above 5% or wholly below 2%.
import { describe, expect, it } from 'vitest';
import { catchAllMove, wilsonInterval } from '../../../../electron/core/outcomes/catch-all-evidence.ts';

describe('what a catch-all domain has earned', () => {
  it('computes the Wilson interval at 95%', () => {
    // Agresti and Coull's worked case, 0 of 10 and 10 of 10 (the interval for n = 10 at z = 1.96).
    const none = wilsonInterval(0, 10);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.2775, 4);
    const half = wilsonInterval(5, 10);
    expect(half.low).toBeCloseTo(0.2366, 4);
    expect(half.high).toBeCloseTo(0.7634, 4);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it('moves a domain that bounced one time in three, with twelve sends, and not with three', () => {
    expect(catchAllMove(4, 12)).toBe('catch_all_bounces');
    expect(catchAllMove(1, 10)).toBeNull();
    expect(catchAllMove(0, 3)).toBeNull();
  });

  it('moves a domain that delivered every send only past about 190 sends', () => {
    expect(catchAllMove(0, 412)).toBe('catch_all_delivers');
    expect(catchAllMove(0, 150)).toBeNull();
    // 2 in 412 (0.5%): still surely under 2%.
    expect(catchAllMove(2, 412)).toBe('catch_all_delivers');
    // 3% bounced: under the review line, over the good one: neither.
    expect(catchAllMove(30, 1000)).toBeNull();
  });
});
