// The score's weights a person set (<data>/score-weights.json), shared by the app's Settings and `sift
// clean`, or a file given to one clean: read and checked (a mistake names the file and the line of the
// table), written whole or not at all. No file: Sift's own table.
import { withoutControls } from '../../common/terminal-text.ts';
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import { scoreMoves, scoreStarts, type ScoreWeights } from '../../common/risk-score.ts';
import { scoreWeightsSchema, weightedStarts, type ScoreLineView } from '../../common/score-weight-schemas.ts';

const scoreWeightsPath = (dataDir: string) => join(dataDir, 'score-weights.json');

/** The weights in a file: `{ "starts": { "catch_all": 60 }, "moves": { "role": -10 } }`. */
export function readScoreWeightsFile(path: string, missingIsDefault = false): ScoreWeights {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (missingIsDefault && (error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new AppError('bad_request', `Sift cannot read the score weights in ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppError('bad_request', `The score weights in ${path} are not JSON.`);
  }
  const parsed = scoreWeightsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = withoutControls(issue.path.join('.')) || 'the file';
    throw new AppError(
      'bad_request',
      `The score weights in ${path}: ${where}: ${issue.message}. Each line of the table (sift help clean) takes a whole number of points from -100 to 100.`,
    );
  }
  return withoutEmpty(parsed.data);
}

const withoutEmpty = (weights: ScoreWeights): ScoreWeights => ({
  ...(weights.starts && Object.keys(weights.starts).length > 0 ? { starts: weights.starts } : {}),
  ...(weights.moves && Object.keys(weights.moves).length > 0 ? { moves: weights.moves } : {}),
});

/** The data folder's weights, read again only when the file changed. */
export function scoreWeightsSource(dataDir: string) {
  const path = scoreWeightsPath(dataDir);
  let seen: { stamp: string; weights: ScoreWeights } | undefined;
  return {
    current(): ScoreWeights {
      const info = statSync(path, { throwIfNoEntry: false });
      const stamp = info ? `${info.mtimeMs}:${info.size}` : 'none';
      if (seen?.stamp !== stamp) seen = { stamp, weights: info ? readScoreWeightsFile(path, true) : {} };
      return seen.weights;
    },
    /** Writes the weights whole (a crash leaves the old file or the new one); answers them. */
    save(weights: ScoreWeights): ScoreWeights {
      const kept = withoutEmpty(weights);
      const partial = `${path}.partial`;
      writeFileSync(partial, `${JSON.stringify(kept, null, 2)}\n`, { mode: 0o600 });
      renameSync(partial, path);
      seen = undefined;
      return kept;
    },
  };
}
export type ScoreWeightsSource = ReturnType<typeof scoreWeightsSource>;

/** Every line of the table with the points in use beside Sift's own, as Settings shows them. */
export function scoreLines(weights: ScoreWeights): ScoreLineView[] {
  return [
    ...Object.entries(scoreStarts)
      .filter(([name]) => weightedStarts.includes(name))
      .map(([name, line]) => ({
        name,
        kind: 'start' as const,
        points: weights.starts?.[name] ?? line.points,
        sift: line.points,
        why: line.why,
      })),
    ...Object.entries(scoreMoves).map(([name, line]) => ({
      name,
      kind: 'move' as const,
      points: weights.moves?.[name] ?? line.points,
      sift: line.points,
      why: line.why,
    })),
  ];
}
