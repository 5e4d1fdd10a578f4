// The score's weights a person may set (Settings, or a file for `sift clean`): points for any line of the
// table (risk-score.ts), from -100 to 100; a line left out keeps Sift's points. And Settings' calls.
import { z } from 'zod';
import { scoreMoves, scoreStarts } from './risk-score.ts';

const points = z.number().int().min(-100).max(100);
/** The starts a person may move: a verdict that rules an address out (invalid, bad syntax, suppressed) stays at 0. */
export const weightedStarts = Object.keys(scoreStarts).filter(
  (name) => scoreStarts[name]!.points > 0 && name !== 'unverified',
) as [string, ...string[]];
const moveNames = Object.keys(scoreMoves) as [string, ...string[]];

export const scoreWeightsSchema = z.strictObject({
  starts: z.partialRecord(z.enum(weightedStarts), points).optional(),
  moves: z.partialRecord(z.enum(moveNames), points).optional(),
});

const scoreLineSchema = z.object({
  name: z.string(),
  kind: z.enum(['start', 'move']),
  /** The points in use, and Sift's own. */
  points,
  sift: points,
  why: z.string(),
});
export type ScoreLineView = z.infer<typeof scoreLineSchema>;

/** Settings' calls on the score's weights, spread into the contract's. */
export const scoreWeightCalls = {
  /** Every line of the table with its points in use and Sift's own. */
  'scores:getWeights': { request: z.strictObject({}), result: z.object({ lines: z.array(scoreLineSchema) }) },
  /** Sets the weights (lines left out, or an empty object, are Sift's again); answers the table as it is now. */
  'scores:setWeights': { request: scoreWeightsSchema, result: z.object({ lines: z.array(scoreLineSchema) }) },
};
