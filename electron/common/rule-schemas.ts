// The Rules screen's calls: the rules per domain (domain-rules.ts) the app and `sift rules` share, each
// with how many rows it decided in the last list read against them.
import { z } from 'zod';
import { fileRefSchema } from './file-schemas.ts';
import { ruleActions } from './domain-rules.ts';

const count = z.number().int().nonnegative();
const actionSchema = z.enum(ruleActions);

const ruleViewSchema = z.object({
  /** In ASCII, as lists are matched (a rule covers its subdomains). */
  domain: z.string(),
  action: actionSchema,
  addedAt: z.number().int(),
  /** A file's name, or "by hand". */
  source: z.string(),
  /** Rows of the last list it decided (duplicates too). */
  lastListRows: count,
});
export type RuleView = z.infer<typeof ruleViewSchema>;

const rulesViewSchema = z.object({
  rules: z.array(ruleViewSchema),
  /** The last list read against the rules: its name and when; null before any. */
  lastList: z.object({ list: z.string(), at: z.number().int() }).nullable(),
});
export type RulesView = z.infer<typeof rulesViewSchema>;

const rulesSetSchema = z.object({
  added: count,
  /** Domains whose rule was another action before. */
  changed: count,
  /** Lines that are not a domain (an address, say), and the first few of them. */
  refused: count,
  refusedExamples: z.array(z.object({ entry: z.string(), reason: z.string() })),
});
export type RulesSet = z.infer<typeof rulesSetSchema>;

const domainsField = z.array(z.string().max(1000)).min(1).max(10_000);

/** The Rules screen's calls, spread into the contract's. */
export const ruleCalls = {
  /** Every rule, by domain, with the rows each decided in the last list. */
  'rules:list': { request: z.strictObject({}), result: rulesViewSchema },
  /** Sets an action for domains typed by hand (a domain's earlier rule is replaced). */
  'rules:set': { request: z.strictObject({ domains: domainsField, action: actionSchema }), result: rulesSetSchema },
  /** Sets an action for a file's domains (text one per line, CSV, TSV or a workbook). */
  'rules:import': { request: z.strictObject({ file: fileRefSchema, action: actionSchema }), result: rulesSetSchema },
  'rules:remove': { request: z.strictObject({ domains: domainsField }), result: z.object({ removed: count }) },
};
