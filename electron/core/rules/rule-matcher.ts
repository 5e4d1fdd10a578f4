// Which rule decides an address, asked for every row of a list as it is read: the address's domain, then
// each parent (a rule for example.com covers mail.example.com), the nearest rule winning; worked out once
// per domain.
import { memoByDomain } from '../email/domain-memo.ts';
import { checkDomain } from '../email/syntax.ts';
import type { RuleAction } from '../../common/domain-rules.ts';
import type { DomainRule } from './rule-store.ts';

/** The rule that decides an address: its action and the domain it was set for. */
type RuleMatch = DomainRule;

export type RuleMatcher = {
  /** The rule for the address with this key (the list's normal form), or null. */
  matches(key: string): RuleMatch | null;
  readonly empty: boolean;
};

export function ruleMatcher(rules: readonly DomainRule[]): RuleMatcher {
  const byDomain = new Map<string, RuleAction>(rules.map((rule) => [rule.domain, rule.action]));
  const ruleFor = memoByDomain((domain: string): RuleMatch | null => {
    const checked = checkDomain(domain);
    if (!checked.ok) return null;
    for (let name = checked.asciiDomain; name.includes('.'); name = name.slice(name.indexOf('.') + 1)) {
      const action = byDomain.get(name);
      if (action) return { domain: name, action };
    }
    return null;
  });
  return {
    empty: byDomain.size === 0,
    matches: (key) => (byDomain.size === 0 ? null : ruleFor(key.slice(key.lastIndexOf('@') + 1))),
  };
}
