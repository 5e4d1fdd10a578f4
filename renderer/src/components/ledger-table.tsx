// The accuracy ledger as a table, for History's panel (every list checked live) and a list's own results:
// by Sift's verdict, the addresses, who was sent to where a tool said so, and what bounced since.
import type { OutcomeLedger } from '../../../electron/common/outcome-schemas.ts';
import { formatCount, percent } from '../format.ts';

const verdictWords: Record<string, string> = {
  valid: 'Valid',
  catch_all: 'Catch-all',
  unknown: 'Unknown',
  invalid: 'Invalid',
};
export const verdictWordsOf = (result: string) => verdictWords[result] ?? result;

export function LedgerTable(props: {
  rows: OutcomeLedger['byVerdict'];
  caption: string;
  /** Whether a source said who it sent to: the column shows "not known" when none did; none at all when absent. */
  sendsKnown?: boolean;
  className?: string;
  testId?: string;
}) {
  const sent = props.sendsKnown !== undefined;
  return (
    <table className={props.className} data-testid={props.testId}>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Sift said</th>
          <th scope="col">Addresses</th>
          {sent && <th scope="col">Sent to</th>}
          <th scope="col">Bounced hard</th>
          <th scope="col">Soft</th>
          <th scope="col">Blamed the sender</th>
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => (
          <tr key={row.result}>
            <th scope="row">{verdictWordsOf(row.result)}</th>
            <td>{formatCount(row.checked)}</td>
            {sent && <td>{props.sendsKnown ? formatCount(row.sent) : 'not known'}</td>}
            <td>
              {formatCount(row.hard)} ({percent(row.hard, row.checked)})
            </td>
            <td>{formatCount(row.soft)}</td>
            <td>{formatCount(row.refused)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
