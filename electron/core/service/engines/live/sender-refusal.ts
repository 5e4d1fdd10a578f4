// What a refused sender means for a person: the blocklist a mail server's refusal names, where the listed
// address asks to be removed, and the sentence `sift service` and `sift clean` print once.
import type { Account } from '../../../wire/assumptions.ts';
import type { SenderFinding } from '../../store/sender-refusals-store.ts';

type Blocklist = { name: string; removalUrl: string };

const known: { pattern: RegExp; list: Blocklist }[] = [
  { pattern: /spamhaus/i, list: { name: 'Spamhaus', removalUrl: 'https://check.spamhaus.org/' } },
  { pattern: /spamcop/i, list: { name: 'SpamCop', removalUrl: 'https://www.spamcop.net/bl.shtml' } },
  {
    pattern: /barracuda/i,
    list: { name: 'Barracuda', removalUrl: 'https://www.barracudacentral.org/rbl/removal-request' },
  },
  { pattern: /uceprotect/i, list: { name: 'UCEPROTECT', removalUrl: 'https://www.uceprotect.net/en/rblcheck.php' } },
  { pattern: /\bpsbl\b/i, list: { name: 'PSBL', removalUrl: 'https://psbl.org/' } },
  // Microsoft's own list: "5.7.606 Access denied, banned sending IP", or its S3150 block.
  {
    pattern: /5\.7\.6(0[6-9]|1\d)|banned sending ip|\bS3150\b/i,
    list: { name: 'Microsoft', removalUrl: 'https://sender.office.com/' },
  },
];

/** The blocklist a reply names, if it is one Sift knows. */
function blocklistIn(reply: string): Blocklist | undefined {
  return known.find(({ pattern }) => pattern.test(reply))?.list;
}

/** The finding as `GET /account` carries it. */
export function senderField(finding: SenderFinding): NonNullable<Account['sender']> {
  if (finding.state !== 'refused') return { state: 'not_refused' };
  const newest = finding.refusals.reduce((a, b) => (b.at > a.at ? b : a));
  const listed = finding.refusals.map((refusal) => blocklistIn(refusal.reply)).find(Boolean);
  return {
    state: 'refused',
    refused_by: new Set(finding.refusals.map((refusal) => refusal.domain)).size,
    way_out: finding.egress,
    reply: newest.reply,
    ...(listed ? { blocklist: listed.name, removal_url: listed.removalUrl } : {}),
  };
}

/** The refused sender in words, with what to do; undefined when it is not refused. */
export function describeRefusedSender(sender: Account['sender']): string | undefined {
  if (sender?.state !== 'refused') return undefined;
  const from = sender.way_out && sender.way_out !== 'direct' ? `through ${sender.way_out}` : 'from this machine';
  const lines = [
    `Mail servers refuse this service's sending address: servers of ${sender.refused_by ?? 'several'} unrelated ` +
      `domains turned it away ${from}${sender.reply ? ` (the newest: "${sender.reply}")` : ''}.`,
    'Live checks from here come back "unknown" (blocked_by_policy) and are not billed.',
    'To go on: send the checks out another way (a SOCKS5 proxy, --proxy), or run `sift service` on a server ' +
      'of your own whose address and HELO name have matching DNS.',
  ];
  if (sender.blocklist) {
    lines.push(
      `The refusal names ${sender.blocklist}: ask for the address to be removed at ${sender.removal_url ?? 'its site'}.`,
    );
  }
  return lines.join('\n');
}
