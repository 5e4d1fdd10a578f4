// GET /batches/{id}/results (cursor pages) and GET /batches/{id}/results.csv (the whole batch in one
// download, read from the database page by page with backpressure, so memory stays flat).
import { csvLineWriter } from '../../lists/csv-writer.ts';
import { neutraliseFormula } from '../../lists/formula-guard.ts';
import { assumedErrors, batchStatuses, hasMoreWhileRunning, resultsCsvHeader } from '../../wire/assumptions.ts';
import { resultsFilterParam, resultsPageLimits, type ResultsPage } from '../../wire/spec.ts';
import { invalidRequest, ServiceError } from '../service-errors.ts';
import { readResultCells, readResults, resultsExpired, toResultRow } from '../store/batch-results-store.ts';
import { getBatchFor } from '../store/batches-store.ts';
import { sendJson } from './error-responses.ts';
import type { Call, ServiceContext } from './service-context.ts';

/** Rows read from the database per write of the CSV download. */
const csvPageRows = 5000;

function parseLimit(raw: string | null): number {
  if (raw === null) return resultsPageLimits.default;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < resultsPageLimits.min || limit > resultsPageLimits.max) {
    throw invalidRequest(
      'invalid_limit',
      `limit must be a whole number from ${resultsPageLimits.min} to ${resultsPageLimits.max}.`,
    );
  }
  return limit;
}

export async function results(context: ServiceContext, call: Call): Promise<void> {
  const { db, config, cursors } = context;
  const batch = await getBatchFor(db, call.params[0]!, call.key.mode);
  const limit = parseLimit(call.url.searchParams.get('limit'));
  const cursor = call.url.searchParams.get('cursor');
  const filter = call.url.searchParams.get(resultsFilterParam) ?? undefined;
  if (resultsExpired(config, batch, config.now())) {
    throw cursor === null
      ? new ServiceError('gone', 'results_expired', 'This batch is past its retention window; its results are gone.')
      : invalidRequest(assumedErrors.cursorExpired, "This cursor expired with the batch's retention window.");
  }
  const position = cursor === null ? 0 : cursors.decode(cursor, batch.id);
  const rows = await readResults(db, batch.id, position, limit + 1, filter);
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit || (hasMoreWhileRunning && batch.status === batchStatuses.running);
  const last = page.at(-1)?.result_seq ?? position;
  const body: ResultsPage = {
    data: page.map(toResultRow),
    has_more: hasMore,
    next_cursor: hasMore ? cursors.encode(batch.id, last) : null,
  };
  sendJson(call.response, 200, body);
}

export async function resultsCsv(context: ServiceContext, call: Call): Promise<void> {
  const { db, config } = context;
  const batch = await getBatchFor(db, call.params[0]!, call.key.mode);
  if (batch.status === batchStatuses.running) {
    throw new ServiceError(
      'conflict',
      assumedErrors.batchNotComplete,
      'The batch is still running; download its CSV when it has ended.',
    );
  }
  if (resultsExpired(config, batch, config.now())) {
    throw new ServiceError('gone', 'results_expired', 'This batch is past its retention window.');
  }
  const { response } = call;
  response.writeHead(200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${batch.id}.csv"`,
  });
  const line = csvLineWriter(',');
  response.write(`${line(resultsCsvHeader)}\r\n`);
  for (let position = 0; ;) {
    const { cells, last } = await readResultCells(db, batch.id, position, csvPageRows);
    if (cells.length === 0) break;
    let text = '';
    for (const [email, result, billed, reason, provider] of cells) {
      // A spreadsheet opening the download must not run a cell as a formula.
      text += `${line([email, result, billed === 1 ? 'true' : 'false', reason ?? '', provider ?? ''], neutraliseFormula)}\r\n`;
    }
    if (!response.write(text)) await new Promise((resolve) => response.once('drain', resolve));
    position = last;
  }
  response.end();
}
