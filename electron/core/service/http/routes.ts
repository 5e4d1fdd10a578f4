// Every route of the /v1 interface (and Sift's own), once: method, path, the rate budget it counts against, its handler.
import { account } from './account-handler.ts';
import { batchStatus, cancel, createBatch } from './batch-handlers.ts';
import { uploadFile } from './files-handler.ts';
import { forgetOutcomeSource, shareCatchAll, shareOutcomes, teamCatchAll, teamOutcomes } from './outcomes-handlers.ts';
import { results, resultsCsv } from './results-handlers.ts';
import type { Route } from './service-context.ts';
import { verify } from './verify-handler.ts';

export const routes: Route[] = [
  { method: 'POST', pattern: /^\/verify$/, operation: 'verify', handle: verify },
  { method: 'POST', pattern: /^\/batches$/, operation: 'createBatch', handle: createBatch },
  { method: 'GET', pattern: /^\/batches\/([^/]+)$/, operation: 'batchStatus', handle: batchStatus },
  { method: 'GET', pattern: /^\/batches\/([^/]+)\/results$/, operation: 'other', handle: results },
  { method: 'GET', pattern: /^\/batches\/([^/]+)\/results\.csv$/, operation: 'other', handle: resultsCsv },
  { method: 'POST', pattern: /^\/batches\/([^/]+)\/cancel$/, operation: 'other', handle: cancel },
  { method: 'POST', pattern: /^\/files$/, operation: 'uploadFile', handle: uploadFile },
  { method: 'GET', pattern: /^\/account$/, operation: 'other', handle: account },
  // Sift's own: a team's outcomes (wire/team-outcomes.ts).
  { method: 'POST', pattern: /^\/outcomes$/, operation: 'other', handle: shareOutcomes },
  { method: 'GET', pattern: /^\/outcomes$/, operation: 'other', handle: teamOutcomes },
  { method: 'POST', pattern: /^\/outcomes\/forget$/, operation: 'other', handle: forgetOutcomeSource },
  { method: 'POST', pattern: /^\/outcomes\/catch-all$/, operation: 'other', handle: shareCatchAll },
  { method: 'GET', pattern: /^\/outcomes\/catch-all$/, operation: 'other', handle: teamCatchAll },
];
