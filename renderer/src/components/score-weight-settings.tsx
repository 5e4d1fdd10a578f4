// Settings' part on the score: every line of its table with Sift's points and the points in use, each
// changeable; saved for the app and `sift clean` alike. Scores change, nothing is checked again.
import { useEffect, useState } from 'react';
import type { ScoreLineView } from '../../../electron/common/contract.ts';
import { verdictWord } from '../../../electron/common/reason-words.ts';
import { errorMessage, sift } from '../bridge.ts';
import { scoreLineWords } from './explorer-words.ts';

type Edited = Record<string, string>;

const asWeights = (lines: readonly ScoreLineView[], edited: Edited) => {
  const starts: Record<string, number> = {};
  const moves: Record<string, number> = {};
  for (const line of lines) {
    const points = Number(edited[line.name] ?? line.points);
    if (points !== line.sift) (line.kind === 'start' ? starts : moves)[line.name] = points;
  }
  return { starts, moves };
};

const isPoints = (text: string) => /^-?\d+$/.test(text.trim()) && Math.abs(Number(text)) <= 100;

export function ScoreWeightSettings() {
  const [lines, setLines] = useState<ScoreLineView[]>();
  const [edited, setEdited] = useState<Edited>({});
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    sift.scores
      .getWeights()
      .then(({ lines: got }) => setLines(got))
      .catch((failure: unknown) => setError(errorMessage(failure)));
  }, []);

  async function save(weights: { starts: Record<string, number>; moves: Record<string, number> }, said: string) {
    setError(undefined);
    try {
      const { lines: saved } = await sift.scores.setWeights(weights);
      setLines(saved);
      setEdited({});
      setMessage(said);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  const wrong = Object.entries(edited).filter(([, text]) => !isPoints(text));
  const changed = lines?.filter((line) => line.points !== line.sift).length ?? 0;
  return (
    <section aria-labelledby="score-weights-heading" data-testid="score-weights">
      <h3 className="section-title" id="score-weights-heading">
        The score&apos;s points
      </h3>
      <p className="note">
        Each checked address scores 0 to 100: its verdict&apos;s start, moved by what Sift knows of it. These are
        Sift&apos;s points, each with why; change any of them for the app and <code>sift clean</code> alike. Scores and
        what thresholds keep change at once; nothing is checked again, and each export&apos;s summary names the points
        it used.{changed > 0 ? ` ${changed} of them differ from Sift's own now.` : ''}
      </p>
      <p className="visually-hidden" role="status">
        {message ?? ''}
      </p>
      {message && <p className="note">{message}</p>}
      {error && (
        <div className="alert" role="alert">
          {error}
        </div>
      )}
      {lines && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (wrong.length === 0) void save(asWeights(lines, edited), 'Saved: scores use these points now.');
          }}
        >
          <table className="data-table score-weights">
            <caption className="visually-hidden">
              The score&apos;s table: points in use, Sift&apos;s own, and why
            </caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Points</th>
                <th scope="col">Sift&apos;s</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => {
                const text = edited[line.name] ?? String(line.points);
                const name = line.kind === 'start' ? `${verdictWord(line.name)} (start)` : scoreLineWords(line.name);
                return (
                  <tr key={line.name}>
                    <th scope="row">{name}</th>
                    <td>
                      <input
                        type="number"
                        min={-100}
                        max={100}
                        step={1}
                        value={text}
                        aria-label={`Points for ${name}`}
                        aria-invalid={!isPoints(text)}
                        data-testid={`weight-${line.name}`}
                        onChange={(event) => setEdited({ ...edited, [line.name]: event.target.value })}
                      />
                    </td>
                    <td>{line.sift}</td>
                    <td className="score-weights__why">{line.why}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {wrong.length > 0 && (
            <p className="alert" role="alert">
              Points are whole numbers from -100 to 100.
            </p>
          )}
          <div className="card__actions">
            <button type="submit" className="button button--primary" disabled={wrong.length > 0}>
              Save points
            </button>
            <button
              type="button"
              className="button"
              disabled={changed === 0 && Object.keys(edited).length === 0}
              onClick={() => void save({ starts: {}, moves: {} }, "Sift's own points again.")}
            >
              Sift&apos;s points again
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
