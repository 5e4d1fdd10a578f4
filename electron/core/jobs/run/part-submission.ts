// Sends a job's parts to the service, each exactly once. A part's route (the spec's POST /batches, or the
// POST /files shortcut where the service offers it) and its Idempotency-Key are stored before it is sent,
// so a crash at any moment resends the same request and the service replays the batch it made. A shortcut
// that answers "not here", or a part refused for its size, created nothing: the part goes the spec's way,
// or in halves, under new keys, in the same run.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { ServiceClientError } from '../../client/client-errors.ts';
import type { Reach } from '../../client/reach-store.ts';
import { isNotHere, isTooLarge } from '../../client/service-reach.ts';
import type { ServiceClient } from '../../client/service-client.ts';
import { BufferedFileWriter, csvLineWriter } from '../../lists/csv-writer.ts';
import {
  displayNameOf,
  isActivePart,
  type JobRecord,
  type JobStore,
  type ListStore,
  type Part,
} from '../store/index.ts';

export type SubmitClient = Pick<ServiceClient, 'uploadFile' | 'createBatch'>;

/** How far sending has come: parts with a batch, of the parts there are now (a split adds parts). */
export type SubmitProgress = { sent: number; total: number };

export const partKeyFor = (job: Pick<JobRecord, 'id'>) => (part: number) =>
  `sift-${job.id}-part-${part}-${randomBytes(6).toString('hex')}`;

/** Where a part's own files go while they are in use, beside the job's list (the upload; its download with `.results`). */
export const partFile = (store: JobStore, job: Pick<JobRecord, 'id'>, part: Pick<Part, 'part'>) =>
  `${store.listPath(job.id)}.part-${part.part}.csv`;

/** The part's addresses as a CSV file, made the same byte for byte every time, so a re-sent upload replays. */
async function writePartFile(list: ListStore, part: Part, path: string): Promise<void> {
  const writer = await BufferedFileWriter.create(path);
  const line = csvLineWriter(',');
  try {
    writer.write('email\r\n');
    for (const addresses of list.sendableAddresses(part)) {
      let text = '';
      for (const address of addresses) text += `${line([address])}\r\n`;
      await writer.write(text);
    }
    await writer.close();
  } catch (error) {
    await writer.discard();
    throw error;
  }
}

async function send(
  store: JobStore,
  job: JobRecord,
  client: SubmitClient,
  part: Part & { via: NonNullable<Part['via']> },
  name: string,
  signal?: AbortSignal,
) {
  const list = store.list(job.id);
  const request = { idempotencyKey: part.idempotencyKey, signal };
  if (part.via === 'batches') {
    // Parts on this route are at most the service's batch size (tens of thousands), so one array is fine.
    return client.createBatch({ name, emails: [...list.sendableAddresses(part)].flat() }, request);
  }
  const path = partFile(store, job, part);
  await writePartFile(list, part, path);
  try {
    return await client.uploadFile(path, { name, ...request });
  } finally {
    await rm(path, { force: true });
  }
}

/** Sends one part, or reshapes it (another route, smaller parts) for the next turn of the loop. */
async function submitPart(
  store: JobStore,
  job: JobRecord,
  client: SubmitClient,
  reach: Reach,
  part: Part,
  name: string,
  signal?: AbortSignal,
): Promise<void> {
  const list = store.list(job.id);
  const keyFor = partKeyFor(job);
  const { files, batchSize } = reach.current();
  const via = part.via ?? (files ? 'files' : 'batches');
  if (part.via !== via) list.setPartRoute(part.part, via);
  if (via === 'batches' && part.addresses > batchSize) {
    list.splitPart({ ...part, via }, batchSize, keyFor);
    return;
  }
  try {
    // The key was stored before this call: after a crash the same request replays the same batch.
    const batch = await send(store, job, client, { ...part, via }, name, signal);
    list.setPartBatch(part.part, batch.id);
  } catch (error) {
    if (via === 'files' && isNotHere(error)) {
      reach.forgetShortcut('files');
      list.setPartRoute(part.part, 'batches', keyFor(part.part));
    } else if (isTooLarge(error) && part.addresses > 1) {
      const smaller = via === 'batches' ? reach.refusedSize(part.addresses) : Math.ceil(part.addresses / 2);
      list.splitPart({ ...part, via }, smaller, keyFor);
    } else if (isTooLarge(error) && error instanceof Error) {
      throw new ServiceClientError(
        'bad_request',
        `The service refused even one address as too large. ${error.message}`,
      );
    } else throw error;
  }
}

/** Splits the job's addresses into parts, each with its key, once, before anything is sent. */
export function planJobParts(store: JobStore, job: JobRecord): void {
  store.list(job.id).planParts(job.settings.addressesPerBatch, partKeyFor(job), job.settings.sendLimit);
  if (job.phase === 'imported') store.setPhase(job.id, 'submitting');
}

/** Sends every planned part that has no batch yet, in order; told after each part it sent (or reshaped). */
export async function submitParts(
  store: JobStore,
  job: JobRecord,
  client: SubmitClient,
  reach: Reach,
  options: { signal?: AbortSignal; onProgress?: (progress: SubmitProgress) => void } = {},
): Promise<void> {
  const list = store.list(job.id);
  for (;;) {
    const parts = list.parts().filter(isActivePart);
    const unsent = parts.findIndex((part) => !part.batchId);
    options.onProgress?.({ sent: parts.filter((part) => part.batchId).length, total: parts.length });
    if (unsent === -1) return;
    options.signal?.throwIfAborted();
    const name = `${displayNameOf(job)}${parts.length > 1 ? ` (${unsent + 1}/${parts.length})` : ''}`;
    await submitPart(store, job, client, reach, parts[unsent]!, name, options.signal);
  }
}
