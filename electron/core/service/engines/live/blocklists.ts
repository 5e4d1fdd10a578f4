// The DNS blocklists and reputation services that mail servers refuse a sender by: how a reply names
// each, where a listed address asks to be removed, and (for the lists servers query most) the zone Sift
// looks its own sending address up in before a batch. Kept as data; each entry says where it was read.

export type Blocklist = {
  name: string;
  /** Where the owner of a listed address asks to be removed, or looks the address up. */
  removalUrl: string;
  /** How a mail server's reply names it. */
  named: RegExp;
  /** The DNS zone servers query (`<reversed ip>.<zone>`), for the lists Sift looks itself up in. */
  zone?: string;
  seen: string;
};

const blocklists: readonly Blocklist[] = [
  {
    name: 'Spamhaus',
    zone: 'zen.spamhaus.org',
    removalUrl: 'https://check.spamhaus.org/',
    named: /spamhaus|\b(zen|sbl|xbl|pbl)\b[^ ]*\.spamhaus/i,
    seen: 'https://docs.spamhaus.com/datasets/docs/source/40-real-world-usage/PublicMirrors/MTAs/020-Postfix.html',
  },
  {
    name: 'SpamCop',
    zone: 'bl.spamcop.net',
    removalUrl: 'https://www.spamcop.net/bl.shtml',
    named: /spamcop/i,
    seen: 'https://www.spamcop.net/fom-serve/cache/351.html',
  },
  {
    name: 'Barracuda',
    zone: 'b.barracudacentral.org',
    removalUrl: 'https://www.barracudacentral.org/rbl/removal-request',
    named: /barracuda/i,
    seen: 'https://www.barracudacentral.org/rbl/how-to-use',
  },
  {
    name: 'PSBL',
    zone: 'psbl.surriel.com',
    removalUrl: 'https://psbl.org/',
    named: /\bpsbl\b|surriel/i,
    seen: 'https://psbl.org/',
  },
  {
    name: 'UCEPROTECT',
    zone: 'dnsbl-1.uceprotect.net',
    removalUrl: 'https://www.uceprotect.net/en/rblcheck.php',
    named: /uceprotect/i,
    seen: 'https://www.uceprotect.net/en/index.php?m=6&s=11',
  },
  {
    // Microsoft's own list: "5.7.606 Access denied, banned sending IP", or its S3150 network block.
    name: 'Microsoft',
    removalUrl: 'https://sender.office.com/',
    named: /5\.7\.6(0[6-9]|[1-4]\d)|banned sending ip|\bS3150\b/i,
    seen: 'https://learn.microsoft.com/en-us/exchange/mail-flow-best-practices/non-delivery-reports-in-exchange-online/fix-error-code-5-7-606-through-5-7-649-in-exchange-online',
  },
  {
    name: 'Abusix',
    removalUrl: 'https://lookup.abusix.com/',
    named: /abusix/i,
    seen: 'reacherhq/check-if-email-exists core/src/smtp/parser.rs (a reply quoted from @helsinki.fi)',
  },
  {
    name: 'SORBS',
    removalUrl: 'https://www.sorbs.net/',
    named: /\bsorbs\b/i,
    seen: 'sisimai/p5-sisimai lib/Sisimai/Reason/Blocked.pm',
  },
  {
    name: 'Proofpoint',
    removalUrl: 'https://ipcheck.proofpoint.com/',
    named: /proofpoint|pphosted/i,
    seen: 'https://ipcheck.proofpoint.com/ (the address Proofpoint replies name)',
  },
  {
    name: 'Mimecast',
    removalUrl: 'https://community.mimecast.com/s/article/email-security-cloud-gateway-mimecast-smtp-error-codes',
    named: /mimecast/i,
    seen: 'https://community.mimecast.com/s/article/email-security-cloud-gateway-mimecast-smtp-error-codes',
  },
  {
    name: 'Cisco Talos (SenderBase)',
    removalUrl: 'https://talosintelligence.com/reputation_center',
    named: /\bsbrs\b|senderbase|talos/i,
    seen: 'reacherhq/check-if-email-exists core/src/smtp/parser.rs (a reply quoted from @amazon.com)',
  },
  {
    name: 'Trend Micro',
    removalUrl: 'https://servicecentral.trendmicro.com/en-us/ers/ip-lookup/',
    named: /trend ?micro/i,
    seen: 'reacherhq/check-if-email-exists core/src/smtp/parser.rs',
  },
  {
    name: 'Sophos',
    removalUrl: 'https://www.sophos.com/en-us/threat-center/ip-lookup',
    named: /sophos/i,
    seen: 'reacherhq/check-if-email-exists core/src/smtp/parser.rs',
  },
  {
    name: 'Comcast',
    removalUrl: 'https://postmaster.comcast.net/',
    named: /postmaster\.comcast\.net|\bBL00000\d\b/i,
    seen: 'https://postmaster.comcast.net/smtp-error-codes.php',
  },
];

/** The blocklist a reply names, if it is one Sift knows. */
export function blocklistNamedIn(reply: string): Blocklist | undefined {
  return blocklists.find((list) => list.named.test(reply));
}

/** The lists Sift looks its own sending address up in before a batch: those servers query most. */
export const preflightBlocklists = blocklists.filter((list): list is Blocklist & { zone: string } =>
  Boolean(list.zone),
);
