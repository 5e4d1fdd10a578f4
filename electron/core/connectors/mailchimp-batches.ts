// Mailchimp's batch operations, for a write-back too large for one call per member: the same calls, with the
// same bodies (a tag still sent with `is_syncing: true`, so no automation fires), sent as one job Mailchimp
// runs on its side, then its results read back. Source, Mailchimp's guide "Use Batch Operations"
// (developer.mailchimp.com/documentation/mailchimp/guides/how-to-use-batch-operations/):
// - POST /batches with `operations`, each `{method, path, operation_id, body}` (`body` a JSON string);
//   answers the batch with its `id` and `status` (pending, preprocessing, started, finalizing, finished);
// - GET /batches/{id} says its status; once `finished`, `response_body_url` is "a gzipped archive of the
//   results of all the operations": a tar of JSON files, each an array of `{status_code, operation_id,
//   response}` (`response` the call's answer, as a string), as the public clients that read it back take it
//   (a gunzip, then each tar entry's JSON array).
// The results address is a signed one of Mailchimp's storage: fetched without the key, https only.
// Not the static segment route (POST /lists/{id}/segments/{id} with members_to_add, members_to_remove): it
// takes no `is_syncing` (mailchimp-marketing-typescript-sdk, BatchAddOrRemoveMembersListsRequest.ts), so a tag
// added by it could start an automation.
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGunzip } from 'node:zlib';
import type TarStream from 'tar-stream';
import { z } from 'zod';
import { isLoopback } from '../client/base-url.ts';
import { lazyPackage } from '../lazy-package.ts';
import { readLimitedBody, readLimitedResponse, SizeLimitError } from '../streams/size-limit.ts';
import { ConnectorError, type ChangeOutcome } from './connector.ts';
import type { ToolHttp } from './tool-http.ts';
import { toolPath, type ToolPath } from './tool-path.ts';

const require = createRequire(import.meta.url);
const tarStream = lazyPackage<typeof TarStream>(() => require('tar-stream'));

/** One call of a batch: what the same call alone would send. */
export type BatchCall = { memberId: string; method: string; path: ToolPath; body?: unknown };

const batchAnswer = z.object({
  id: z.string(),
  status: z.string(),
  total_operations: z.number().optional(),
  finished_operations: z.number().optional(),
  response_body_url: z.string().nullish(),
});
const resultsFile = z.array(
  z.object({ status_code: z.number(), operation_id: z.string().nullish(), response: z.string().nullish() }),
);

/** The most of a results archive Sift reads, packed and unpacked: a result is a few hundred bytes. */
const archiveLimit = 64 * 1024 * 1024;
/** How long Sift waits between asking how a batch is going: from a second, up to half a minute. */
const firstPollMs = 250;
const longestPollMs = 30_000;
/** The longest a batch may run before Sift stops waiting; the next sync collects it where it is. */
const longestBatchMs = 3_600_000;

/** Sends `calls` as one batch; answers its id, to keep before anything else. */
export async function submitBatch(http: ToolHttp, calls: readonly BatchCall[]): Promise<string> {
  const operations = calls.map((call) => ({
    method: call.method,
    path: call.path.text,
    operation_id: call.memberId,
    ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
  }));
  const { body } = await http.call('POST', toolPath`/batches`, { json: { operations } });
  return http.parse(batchAnswer, body, 'a batch it was sent').id;
}

/** Waits for batch `id` to finish and tells each call's outcome by its member, in Mailchimp's words. */
export async function collectBatch(
  http: ToolHttp,
  id: string,
  onOutcome: (outcome: ChangeOutcome) => void,
  signal?: AbortSignal,
): Promise<void> {
  const started = Date.now();
  let batch: z.infer<typeof batchAnswer>;
  for (let waitMs = firstPollMs; ; waitMs = Math.min(longestPollMs, waitMs * 2)) {
    signal?.throwIfAborted();
    const path = toolPath`/batches/${id}?fields=id,status,total_operations,finished_operations,response_body_url`;
    batch = http.parse(batchAnswer, (await http.call('GET', path)).body, 'a batch');
    if (batch.status === 'finished') break;
    if (Date.now() - started > longestBatchMs)
      throw new ConnectorError(
        'unreachable',
        `Mailchimp's batch ${id} is still ${batch.status} after an hour (${batch.finished_operations ?? 0} of ${batch.total_operations ?? '?'} done): the sync stops here, and the next one reads its results without sending it again.`,
      );
    await sleep(waitMs, undefined, { signal });
  }
  if (!batch.response_body_url)
    throw new ConnectorError('unreachable', `Mailchimp finished batch ${id} without the address of its results.`);
  for (const result of await readResults(batch.response_body_url)) {
    if (!result.operation_id) continue;
    const memberId = result.operation_id;
    if (result.status_code < 300) onOutcome({ memberId, done: true });
    else onOutcome({ memberId, done: false, words: `Mailchimp (${result.status_code}): ${wordsOf(result.response)}` });
  }
}

/** A result's answer in Mailchimp's words: its problem document's title and detail, else the text. */
function wordsOf(response: string | null | undefined): string {
  try {
    const problem = JSON.parse(response ?? '') as { title?: unknown; detail?: unknown };
    const words = [problem.title, problem.detail].filter((each) => typeof each === 'string' && each.trim());
    if (words.length > 0) return words.join(': ').slice(0, 300);
  } catch {
    // Not JSON: the text as it came.
  }
  return (response ?? '').slice(0, 300) || 'no words';
}

/** Every result in the archive at `address`, read within archiveLimit packed and unpacked. */
async function readResults(address: string): Promise<z.infer<typeof resultsFile>> {
  const url = new URL(address);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname)))
    throw new ConnectorError('unreachable', `Mailchimp's batch results are at ${url.host} over plain http: not read.`);
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(120_000) });
  if (!response.ok || !response.body)
    throw new ConnectorError('unreachable', `Mailchimp's batch results could not be read (${response.status}).`);
  const refused = () =>
    new ConnectorError('unreachable', `Mailchimp's batch results are larger than ${archiveLimit / 1024 / 1024} MB.`);
  try {
    const packed = await readLimitedResponse(response, archiveLimit);
    const results: z.infer<typeof resultsFile> = [];
    let unpacked = 0;
    const reader = tarStream().extract();
    const reading = (async () => {
      for await (const entry of reader) {
        if (entry.header.type !== 'file' || !entry.header.name.endsWith('.json')) {
          entry.resume();
          continue;
        }
        const text = (await readLimitedBody(entry as AsyncIterable<Uint8Array>, archiveLimit - unpacked)).toString(
          'utf8',
        );
        unpacked += text.length;
        const parsed = resultsFile.safeParse(JSON.parse(text));
        if (!parsed.success)
          throw new ConnectorError('unreachable', "Mailchimp's batch results are in a form Sift does not know.");
        results.push(...parsed.data);
      }
    })();
    await Promise.all([pipeline(Readable.from([packed]), createGunzip(), reader), reading]);
    return results;
  } catch (error) {
    if (error instanceof SizeLimitError) throw refused();
    throw error;
  }
}
