// What the score reads of an address besides its verdict, as SQL over address_verdicts (a list store's
// reads share it): whether its domain is a free mailbox provider's, worked out from the key as it is read,
// so lists stored before the score existed are scored alike; and what a catch-all domain's sends came to,
// as the list kept it when it was checked (catch_all_evidence).
import { freeMailboxDomains } from '../../email/mailbox-providers.ts';

/** 1 when the row's domain is a free mailbox provider's, else 0. */
export const freeMailboxSql = `(substr(key, instr(key, '@') + 1) IN (${freeMailboxDomains
  .map((domain) => `'${domain.replace(/'/g, "''")}'`)
  .join(', ')}))`;

/** The move a catch-all address's domain earned by its sends (catch_all_bounces or _delivers), else null. */
export const catchAllLearnedSql = `(CASE WHEN result = 'catch_all' THEN (SELECT move FROM catch_all_evidence
  WHERE domain = substr(key, instr(key, '@') + 1)) END)`;
