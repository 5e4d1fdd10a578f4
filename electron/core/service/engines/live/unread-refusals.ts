// A refusal in words Sift cannot read proves nothing about the mailbox by itself (a server refusing the
// prober refuses every address in the same words); what the same server did in the same conversation can.
/**
 * Addresses servers accept before any check of the client (RFC 5321 §4.5.1 requires postmaster; Debian's
 * Exim ACL accepts it ahead of its blocklists, and abuse@ is commonly exempt too): their acceptance does not
 * show that a server is not refusing Sift.
 */
export const acceptedBeforeChecks = (address: string) => /^(postmaster|abuse)@/i.test(address);

/**
 * Whether this server showed, in this conversation, that it tells mailboxes apart, so that its refusals in
 * words Sift cannot read are `invalid`: it refused the improbable address asked first (or one on record)
 * and accepted another recipient of the domain, so it is not refusing Sift itself. Not the domain's postmaster as the
 * control: servers accept postmaster@ before their blocklist checks by design (Debian's Exim ACL does), so
 * a blocked prober would see postmaster accepted and every mailbox refused.
 */
export const toldMailboxesApart = (result: { catchAll?: boolean; accepted: number }) =>
  result.catchAll === false && result.accepted > 0;
