import { keepableResults, type ExportChoices, type ListBreakdown } from '../../../electron/common/contract.ts';
import { verdictWord } from '../../../electron/common/reason-words.ts';
import { keptCount, spreadOf } from '../../../electron/common/score-triage.ts';
import { formatCount } from '../format.ts';
import './score-triage.css';

const bands = [
  ['80+', '80 or more'],
  ['50-79', '50 to 79'],
  ['<50', 'Below 50'],
] as const;

type ScoreTriageProps = {
  breakdown: Pick<ListBreakdown, 'scoreGroups' | 'scoreWeights'>;
  choices: ExportChoices;
  demo: boolean;
  onChoicesChange(choices: ExportChoices): void;
};

/**
 * Where decisions about the risky third are made: how each verdict's addresses score, a threshold for
 * each verdict kept, and how many addresses the cleaned list will hold, counted as a threshold moves
 * (nothing is checked again).
 */
export function ScoreTriage({ breakdown, choices, demo, onChoicesChange }: ScoreTriageProps) {
  const { scoreGroups: groups, scoreWeights: weights } = breakdown;
  const spread = spreadOf(groups, weights);
  const verdicts = Object.keys(spread).sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  if (verdicts.length === 0) return null;
  const thresholds = choices.keepAtScore;
  const kept = keptCount(groups, choices, weights);
  const byVerdictOnly = keptCount(groups, { ...choices, keepAtScore: {} }, weights);
  const setThreshold = (result: (typeof keepableResults)[number], score: number) => {
    const { [result]: _dropped, ...others } = thresholds;
    onChoicesChange({ ...choices, keepAtScore: score > 0 ? { ...others, [result]: score } : others });
  };
  const thresholdable = keepableResults.filter((result) => choices.keep.includes(result) && spread[result]);
  return (
    <section className="triage" aria-labelledby="triage-heading" data-testid="score-triage">
      <h3 id="triage-heading" className="section-title">
        Scores
      </h3>
      <p className="note">
        Every checked address has a score from 0 to 100, made of its verdict and what Sift knows of it (role,
        disposable, a likely typo, a full mailbox, a reused verdict); each row&apos;s reasons show under Rows, and the
        annotated file has them in sift_score_reasons.
        {demo ? ' These scores are made from demo verdicts: no mail server was asked.' : ''}
      </p>
      <table className="verdicts__table triage__spread" data-testid="score-spread">
        <caption>Addresses per score, by verdict</caption>
        <thead>
          <tr>
            <th scope="col">Verdict</th>
            {bands.map(([band, words]) => (
              <th scope="col" key={band}>
                {words}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {verdicts.map((result) => (
            <tr key={result} data-testid={`spread-${result}`}>
              <th scope="row">{verdictWord(result)}</th>
              {bands.map(([band]) => (
                <td key={band}>{formatCount(spread[result]![band] ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {thresholdable.length > 0 && (
        <fieldset className="triage__thresholds">
          <legend>Keep by score (0: every one of them)</legend>
          {thresholdable.map((result) => {
            const value = thresholds[result] ?? 0;
            const id = `threshold-input-${result}`;
            return (
              <div key={result} className="triage__threshold">
                <label htmlFor={id}>
                  {verdictWord(result)} scoring at least{' '}
                  <output htmlFor={id} data-testid={`threshold-${result}`}>
                    {value}
                  </output>
                </label>
                <input
                  id={id}
                  type="range"
                  min={0}
                  max={100}
                  step={5}
                  value={value}
                  aria-valuetext={value === 0 ? 'any score' : `${value} or more`}
                  onChange={(event) => setThreshold(result, Number(event.target.value))}
                />
              </div>
            );
          })}
        </fieldset>
      )}
      <p className="triage__kept" role="status" data-testid="kept-count">
        The cleaned list will hold <strong>{formatCount(kept)}</strong> address{kept === 1 ? '' : 'es'}
        {kept !== byVerdictOnly ? ` (${formatCount(byVerdictOnly)} by verdict alone)` : ''}. Export writes it; nothing
        is checked again.
      </p>
    </section>
  );
}

const verdictOrder = ['valid', 'catch_all', 'unknown', 'invalid'];
const order = (result: string) => {
  const at = verdictOrder.indexOf(result);
  return at === -1 ? verdictOrder.length : at;
};
