import { useEffect, useState } from 'react';
import type { ListBreakdown } from '../../../electron/common/contract.ts';
import { sift } from '../bridge.ts';
import { formatCount } from '../format.ts';

/** Where the addresses checked live: mailbox providers and the most used domains. */
export function ListBreakdownView({ jobId }: { jobId: string }) {
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
  }, [jobId]);
  if (!breakdown || breakdown.topDomains.length === 0) return null;
  return (
    <div className="verdicts__body verdicts breakdown" data-testid="breakdown">
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
    </div>
  );
}
