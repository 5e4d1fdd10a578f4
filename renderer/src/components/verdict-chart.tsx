import { lazy, Suspense } from 'react';
import type { ListSummary } from '../../../electron/common/contract.ts';
import { formatCount, percent } from '../format.ts';
import './verdict-chart.css';

const verdicts: [keyof ListSummary & string, string, string][] = [
  ['valid', 'Valid', 'var(--good)'],
  ['invalid', 'Invalid', 'var(--danger)'],
  ['catch_all', 'Catch-all', 'var(--warn)'],
  ['unknown', 'Unknown', 'var(--faint)'],
  ['unverified', 'Not checked', 'var(--border-strong)'],
];

const VerdictBars = lazy(() => import('./verdict-bars.tsx'));

/**
 * The list's funnel (every row counted once) and its verdicts as a bar chart with counts and shares; the
 * table beside the chart says the same for screen readers, the chart itself is hidden from them.
 */
export function VerdictChart({ summary, demo }: { summary: ListSummary; demo: boolean }) {
  const others = Object.entries(summary.other_results);
  const rows = [
    ...verdicts.map(([key, label, color]) => ({ label, count: summary[key] as number, color })),
    ...others.map(([result, count]) => ({ label: result, count, color: 'var(--muted)' })),
  ].filter((row) => row.count > 0 || row.label === 'Valid' || row.label === 'Invalid');
  const funnel: [string, number][] = [
    ['Rows', summary.rows],
    ['No address', summary.no_address],
    ['Bad syntax', summary.bad_syntax],
    ['Duplicates', summary.duplicates],
    ...(summary.suppressed > 0 ? [['Do not mail', summary.suppressed] as [string, number]] : []),
    ...(summary.ruled ? [['Your rules', summary.ruled] as [string, number]] : []),
    // A canceled or stopped list has addresses still to check: the last step names them all honestly.
    // Demo verdicts were given, not checked: no mail server was asked.
    [summary.unverified > 0 ? 'To check' : demo ? 'Demo verdicts' : 'Checked', summary.to_check],
  ];
  return (
    <div className="verdicts">
      <ol className="verdicts__funnel" aria-label="Every row counted once" data-testid="funnel">
        {funnel.map(([label, count]) => (
          <li key={label}>
            <span className="verdicts__funnel-label">{label}</span> <strong>{formatCount(count)}</strong>
          </li>
        ))}
      </ol>
      <div className="verdicts__body">
        <div className="verdicts__chart" aria-hidden="true" data-testid="verdict-chart">
          {/* The chart library is most of the app's code: it loads when a chart is first shown. */}
          <Suspense fallback={<div style={{ height: 36 * rows.length + 10 }} />}>
            <VerdictBars rows={rows} total={summary.to_check} />
          </Suspense>
        </div>
        <table className="verdicts__table">
          <caption>
            {summary.unverified > 0
              ? `Verdicts of the ${formatCount(summary.to_check)} addresses to check, ${formatCount(summary.unverified)} not checked yet`
              : demo
                ? `Demo verdicts of the ${formatCount(summary.to_check)} addresses`
                : `Verdicts of the ${formatCount(summary.to_check)} addresses checked`}
          </caption>
          <thead>
            <tr>
              <th scope="col">Verdict</th>
              <th scope="col">Addresses</th>
              <th scope="col">Share</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                <td>{formatCount(row.count)}</td>
                <td>{percent(row.count, summary.to_check)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
