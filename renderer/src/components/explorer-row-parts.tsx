// The row explorer's parts beside the grid: the reasons of the row a person is on, and a typo's actions.
import type { ExplorerRow } from '../../../electron/common/contract.ts';
import { formatCount } from '../format.ts';
import { scoreLineWords, scoreOfRow } from './explorer-words.ts';

/** The reasons of the row the keyboard (or a click) is on: its score, and each reason's points and why. */
export function RowReasons({ row }: { row: ExplorerRow | undefined }) {
  if (!row) return null;
  const scored = scoreOfRow(row);
  return (
    <div className="explorer__reasons" data-testid="row-reasons" aria-live="polite">
      {scored ? (
        <>
          <p>
            <strong>
              Row {formatCount(row.row)}: score {scored.score}
            </strong>{' '}
            (out of 100; what it is made of below)
          </p>
          <ul>
            {scored.lines.map((line) => (
              <li key={line.name}>
                <span className="explorer__points">
                  {line.start ? line.points : `${line.points > 0 ? '+' : '−'}${Math.abs(line.points)}`}
                </span>{' '}
                <span>{scoreLineWords(line.name)}</span>: {line.why}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>
          <strong>Row {formatCount(row.row)}</strong>: no score.{' '}
          {row.result === 'ruled' ? 'A rule decided it; nothing was checked.' : 'Nothing was checked for it.'}
        </p>
      )}
    </div>
  );
}

type TypoActionsProps = {
  row: ExplorerRow;
  /** The address cell as it was typed. */
  typed: string;
  onAccept(target: { addressId: number } | { domain: string }, accept: boolean): void;
};

/** Accept a likely typo's suggestion for this address or every address at its domain, or take it back. */
export function TypoActions({ row, typed, onAccept }: TypoActionsProps) {
  const domain = typed.slice(typed.lastIndexOf('@') + 1).trim();
  if (row.accepted) {
    return (
      <button type="button" className="link-button" onClick={() => onAccept({ addressId: row.addressId }, false)}>
        Undo
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        className="link-button"
        aria-label={`Accept ${row.suggestion}`}
        onClick={() => onAccept({ addressId: row.addressId }, true)}
      >
        Accept
      </button>
      {domain && (
        <button type="button" className="link-button" onClick={() => onAccept({ domain }, true)}>
          Accept for all at {domain}
        </button>
      )}
    </>
  );
}
