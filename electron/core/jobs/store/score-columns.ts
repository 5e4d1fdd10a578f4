// What the score reads of an address besides its verdict, as SQL over address_verdicts (a list store's
// reads share it): whether its domain is a free mailbox provider's, worked out from the key as it is read,
// so lists stored before the score existed are scored alike.
import { freeMailboxDomains } from '../../email/mailbox-providers.ts';

/** 1 when the row's domain is a free mailbox provider's, else 0. */
export const freeMailboxSql = `(substr(key, instr(key, '@') + 1) IN (${freeMailboxDomains
  .map((domain) => `'${domain.replace(/'/g, "''")}'`)
  .join(', ')}))`;
