// Whether an address goes into the cleaned list, decided once for the export (row by row) and for the
// results screen's count as a person moves a threshold: its verdict kept (and its score reaching that
// verdict's threshold, where one is set), a suggestion accepted, a flag left out, or a rule's word.
import { ruleActionOf } from './domain-rules.ts';
import { badSyntaxResult, ruledResult, suppressedResult } from './list-funnel.ts';

export type KeepChoices = {
  keep: readonly string[];
  /** The score each kept verdict must reach, where one is set. */
  keepAtScore?: Readonly<Record<string, number>> | undefined;
  remove: { role: boolean; disposable: boolean; typos: boolean };
};

export type KeepFacts = {
  result: string;
  reason: string | null;
  role: boolean;
  disposable: boolean;
  /** A suggestion the person did not accept. */
  typo: boolean;
  /** A suggestion the person accepted: the address they meant goes in, corrected. */
  accepted: boolean;
  score: number;
};

/** The decision for `choices`, worked out once and asked per address. */
export function keepDecider({ keep, keepAtScore = {}, remove }: KeepChoices): (facts: KeepFacts) => boolean {
  const kept = new Set(keep);
  return (facts) => {
    const { result } = facts;
    const removed =
      (remove.role && facts.role) || (remove.disposable && facts.disposable) || (remove.typos && facts.typo);
    // A rule's row: always kept, never kept, or (never checked) kept unless a flag left out applies.
    if (result === ruledResult) {
      const action = ruleActionOf(facts.reason);
      return action === 'keep' || (action === 'never_check' && !removed);
    }
    if (result === suppressedResult || result === badSyntaxResult || removed) return false;
    if (facts.accepted) return true;
    if (!kept.has(result)) return false;
    const threshold = keepAtScore[result];
    return threshold === undefined || facts.score >= threshold;
  };
}
