import { useEffect, useState } from 'react';
import type { ListBreakdown } from '../../../electron/common/contract.ts';
import { reasonWords, senderRefusedCount } from '../../../electron/common/reason-words.ts';
import { sift } from '../bridge.ts';
import { formatCount } from '../format.ts';

/** A list's breakdown, read once its results show (`version` asks again: a suggestion accepted, say). */
export function useBreakdown(jobId: string, version = 0): ListBreakdown | undefined {
  const [breakdown, setBreakdown] = useState<ListBreakdown>();
  useEffect(() => {
    let current = true;
    sift.jobs
      .breakdown({ jobId })
      .then((value) => current && setBreakdown(value))
      // The breakdown is extra: the results stand without it.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [jobId, version]);
  return breakdown;
}

/**
 * Where the addresses checked live (mailbox providers, the most used domains) and, for real verdicts, why
 * the unknown ones are unknown, each reason in a sentence; those a refused sender left unknown are counted.
 */
export function ListBreakdownView({ breakdown, demo }: { breakdown: ListBreakdown | undefined; demo: boolean }) {
  if (!breakdown || breakdown.topDomains.length === 0) return null;
  const unknown = demo ? [] : breakdown.unknownReasons;
  const refused = senderRefusedCount(unknown);
  return (
    <div className="verdicts__body verdicts breakdown" data-testid="breakdown">
      {refused > 0 && (
        <p className="breakdown__refused" role="note" data-testid="sender-refused-count">
          {formatCount(refused)} unknown {refused === 1 ? 'address was' : 'addresses were'} left unknown because mail
          servers refused Sift's checking address, not the addresses: nothing was charged for them. Check them again
          once the sending address is off the blocklist, or from another way out.
        </p>
      )}
      <table className="verdicts__table">
        <caption>Mailbox providers</caption>
        <tbody>
          {breakdown.providers.map((row) => (
            <tr key={row.provider}>
              <th scope="row">{row.provider}</th>
              <td>{formatCount(row.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="verdicts__table">
        <caption>Most used domains</caption>
        <tbody>
          {breakdown.topDomains.map((row) => (
            <tr key={row.domain}>
              <th scope="row">{row.domain}</th>
              <td>{formatCount(row.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {unknown.length > 0 && (
        <table className="verdicts__table breakdown__reasons" data-testid="unknown-reasons">
          <caption>Why unknown</caption>
          <tbody>
            {unknown.map((row) => (
              <tr key={row.reason}>
                <th scope="row">{row.reason ? reasonWords(row.reason) : 'The service gave no reason.'}</th>
                <td>{formatCount(row.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
