// What a refused sender means for a person: the blocklist a mail server's refusal names, where the listed
// address asks to be removed, and the sentence `sift service` and `sift clean` print once.
import type { Account } from '../../../wire/assumptions.ts';
import type { SenderFinding } from '../../store/sender-refusals-store.ts';
import { blocklistNamedIn } from './blocklists.ts';

/** The finding as `GET /account` carries it. */
export function senderField(finding: SenderFinding): NonNullable<Account['sender']> {
  if (finding.state !== 'refused') return { state: 'not_refused' };
  const newest = finding.refusals.reduce((a, b) => (b.at > a.at ? b : a));
  const listed = finding.refusals.map((refusal) => blocklistNamedIn(refusal.reply)).find(Boolean);
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
    'Live checks from here come back "unknown" (the reason names the refusal: sender_blocklisted, sender_reputation, ...) and are not billed.',
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
