// Rules a person sets per domain, decided before anything is sent (so never billed): what each does, in
// one place for the store, the import, the export's routing, the CLI and the Rules screen.

/** What a rule does with the rows of its domain (and its subdomains). */
export const ruleActions = ['keep', 'leave_out', 'never_check', 'catch_all'] as const;
export type RuleAction = (typeof ruleActions)[number];

/** The `sift_reason` of a row a rule decided: `rule_keep`, `rule_never_check`... */
export const ruleReason = (action: RuleAction) => `rule_${action}`;

/** The action of a row's reason, when a rule decided it. */
export const ruleActionOf = (reason: string | null | undefined): RuleAction | undefined => {
  if (!reason?.startsWith('rule_')) return undefined;
  const action = reason.slice('rule_'.length);
  return (ruleActions as readonly string[]).includes(action) ? (action as RuleAction) : undefined;
};

/** Each action as the Rules screen and `sift rules` name it, and what it does to a row. */
export const ruleActionWords: Record<RuleAction, { name: string; does: string }> = {
  keep: { name: 'Always keep', does: 'never sent or billed; always in the cleaned list, whatever else is left out' },
  leave_out: { name: 'Always leave out', does: 'never sent or billed; never in the cleaned list' },
  never_check: {
    name: 'Never check',
    does: 'never sent or billed; in the cleaned list unless a flag you leave out applies (role, disposable, typo)',
  },
  catch_all: {
    name: 'Treat as catch-all',
    does: 'never sent or billed; kept or left out as catch-all addresses are, by their score',
  },
};
