// What happened to this list's addresses after it was checked, when bounces were read back since (a bounce
// mailbox, a mailing tool, a file): of those Sift called each verdict, how many bounced. Nothing is shown for
// a list with none, or a demo's (no mail server was asked).
import { useEffect, useState } from 'react';
import type { ListOutcomes } from '../../../electron/common/outcome-schemas.ts';
import { sift } from '../bridge.ts';
import { LedgerTable } from './ledger-table.tsx';

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
      <LedgerTable
        rows={outcomes.byVerdict}
        caption={`Bounces read back since this list was checked (${since})`}
        className="verdicts__table"
      />
    </div>
  );
}
