// What happened to this list's addresses after it was checked, when bounces were read back since (a bounce
// mailbox, a mailing tool, a file): of those Sift called each verdict, how many bounced. Nothing is shown for
// a list with none, or a demo's (no mail server was asked).
import { useEffect, useState } from 'react';
import type { ListOutcomes } from '../../../electron/common/outcome-schemas.ts';
import { sift } from '../bridge.ts';
import { formatCount, percent } from '../format.ts';

const verdictWords: Record<string, string> = {
  valid: 'Valid',
  catch_all: 'Catch-all',
  unknown: 'Unknown',
  invalid: 'Invalid',
};

export function ListOutcomesView({ jobId, demo }: { jobId: string; demo: boolean }) {
  const [outcomes, setOutcomes] = useState<ListOutcomes>();
  useEffect(() => {
    if (demo) return;
    let current = true;
    sift.outcomes
      .forList({ jobId })
      .then((value) => current && setOutcomes(value))
      // What happened after is extra: the results stand without it.
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [jobId, demo]);
  if (!outcomes || outcomes.byVerdict.length === 0) return null;
  const since = new Date(outcomes.checkedAt).toLocaleDateString(undefined, { dateStyle: 'medium' });
  return (
    <div className="verdicts" data-testid="list-outcomes">
      <p>
        <strong>What happened after the send:</strong> {outcomes.sentence}
      </p>
      <table className="verdicts__table">
        <caption>Bounces read back since this list was checked ({since})</caption>
        <thead>
          <tr>
            <th scope="col">Sift said</th>
            <th scope="col">Addresses</th>
            <th scope="col">Bounced hard</th>
            <th scope="col">Soft</th>
            <th scope="col">Blamed the sender</th>
          </tr>
        </thead>
        <tbody>
          {outcomes.byVerdict.map((row) => (
            <tr key={row.result}>
              <th scope="row">{verdictWords[row.result] ?? row.result}</th>
              <td>{formatCount(row.checked)}</td>
              <td>
                {formatCount(row.hard)} ({percent(row.hard, row.checked)})
              </td>
              <td>{formatCount(row.soft)}</td>
              <td>{formatCount(row.refused)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
