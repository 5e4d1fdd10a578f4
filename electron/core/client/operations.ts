// Every call Sift makes to the service, each named once. The request runner builds each request from its
// row here; the paths and schemas come from the wire module (the spec, and the assumptions where it is silent).
import type { z } from 'zod';
import {
  accountSchema,
  batchObjectSchema,
  cancelPath,
  createdBatchSchema,
  resultsCsvPath,
  verdictFlagsSchema,
} from '../wire/assumptions.ts';
import { batchStatusSchema, paths, resultRowSchema, resultsPageSchema } from '../wire/spec.ts';
import {
  forgetTeamSourceAnswerSchema,
  shareCatchAllAnswerSchema,
  shareOutcomesAnswerSchema,
  teamCatchAllPageSchema,
  teamOutcomePaths,
  teamOutcomesPageSchema,
} from '../wire/team-outcomes.ts';
import type { Operation } from './rate-budget.ts';

type Method = 'GET' | 'POST';
/** A fixed path, or the path of one batch. */
export type PathOf = string | ((id: string) => string);

export type OperationSpec<Path extends PathOf = PathOf, Schema extends z.ZodType | null = z.ZodType | null> = {
  /** How the call is named in errors: method and path template, never ids or keys. */
  name: `${Method} /${string}`;
  method: Method;
  /** The rate budget it counts against. */
  operation: Operation;
  /** Where it lives under {base_url}/v1. */
  path: Path;
  /** What its answer must be; null for a download that is streamed as it comes. */
  schema: Schema;
};

/** The method is the name's first word, so the two cannot disagree. */
function define<Path extends PathOf, Schema extends z.ZodType | null>(
  name: `${Method} /${string}`,
  row: { operation: Operation; path: Path; schema: Schema },
): OperationSpec<Path, Schema> {
  return { name, method: name.slice(0, name.indexOf(' ')) as Method, ...row };
}

export const operations = {
  verify: define('POST /verify', {
    operation: 'verify',
    path: paths.verify,
    schema: resultRowSchema.and(verdictFlagsSchema),
  }),
  createBatch: define('POST /batches', { operation: 'createBatch', path: paths.batches, schema: createdBatchSchema }),
  uploadFile: define('POST /files', { operation: 'uploadFile', path: paths.files, schema: createdBatchSchema }),
  getBatch: define('GET /batches/{id}', { operation: 'batchStatus', path: paths.batch, schema: batchStatusSchema }),
  getResultsPage: define('GET /batches/{id}/results', {
    operation: 'other',
    path: paths.results,
    schema: resultsPageSchema,
  }),
  downloadCsv: define('GET /batches/{id}/results.csv', { operation: 'other', path: resultsCsvPath, schema: null }),
  cancelBatch: define('POST /batches/{id}/cancel', { operation: 'other', path: cancelPath, schema: batchObjectSchema }),
  getAccount: define('GET /account', { operation: 'other', path: paths.account, schema: accountSchema }),
  // Sift's own, only where GET /account names `outcomes` (wire/team-outcomes.ts).
  shareOutcomes: define('POST /outcomes', {
    operation: 'other',
    path: teamOutcomePaths.outcomes,
    schema: shareOutcomesAnswerSchema,
  }),
  getTeamOutcomes: define('GET /outcomes', {
    operation: 'other',
    path: teamOutcomePaths.outcomes,
    schema: teamOutcomesPageSchema,
  }),
  forgetTeamSource: define('POST /outcomes/forget', {
    operation: 'other',
    path: teamOutcomePaths.forget,
    schema: forgetTeamSourceAnswerSchema,
  }),
  shareCatchAll: define('POST /outcomes/catch-all', {
    operation: 'other',
    path: teamOutcomePaths.catchAll,
    schema: shareCatchAllAnswerSchema,
  }),
  getTeamCatchAll: define('GET /outcomes/catch-all', {
    operation: 'other',
    path: teamOutcomePaths.catchAll,
    schema: teamCatchAllPageSchema,
  }),
} as const;
