// Rules per domain, as lists, the Rules screen and `sift rules` use them. Its SQL stays in
// rule-store.ts.
import { ruleMatcher, type RuleMatcher } from './rule-matcher.ts';
import { openRuleStore, type LastListCounts } from './rule-store.ts';

export type { RuleMatcher } from './rule-matcher.ts';
export { parseRuleDomain, setRulesFromFile, setRulesFromText } from './rule-entries.ts';
export { openRuleStore, rulesFile, rulesVersion, type RuleStore } from './rule-store.ts';

/** What a list is read against: the matcher, the rules' version it was built from, and where its counts go. */
export type OpenedRules = {
  matcher: RuleMatcher;
  version: number;
  record(counts: LastListCounts): void;
  close(): void;
};

/** A data folder's rules as the cleaner uses them. */
export function rulesSource(dataDir: string) {
  return {
    open(): OpenedRules {
      const store = openRuleStore(dataDir);
      return {
        matcher: ruleMatcher(store.all()),
        version: store.version(),
        record: (counts) => store.recordLastList(counts),
        close: () => store.close(),
      };
    },
    version(): number {
      const store = openRuleStore(dataDir);
      try {
        return store.version();
      } finally {
        store.close();
      }
    },
  };
}
export type RulesSource = ReturnType<typeof rulesSource>;
