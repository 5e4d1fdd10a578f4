// POST /files: a whole list as one upload. Streamed to disk first (memory stays flat however large the
// file is), hashed as it arrives for the Idempotency-Key, then staged in chunks as a new batch.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { detachCell, readCsvRows } from '../../lists/csv-reader.ts';
import { sizeLimit, SizeLimitError } from '../../streams/size-limit.ts';
import { filesNameParam } from '../../wire/assumptions.ts';
import { invalidRequest, ServiceError } from '../service-errors.ts';
import { stageAddresses, submittedCount, type Staging } from '../store/batches-store.ts';
import { createStagedBatch, stageChunk } from './batch-handlers.ts';
import { idempotent } from './idempotent.ts';
import type { Call, ServiceContext } from './service-context.ts';

export async function uploadFile(context: ServiceContext, call: Call): Promise<void> {
  const { config } = context;
  const name = call.url.searchParams.get(filesNameParam) ?? '';
  const dir = join(config.dataDir, 'uploads');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `${randomUUID()}.csv`);
  const hash = createHash('sha256').update(`files\0${name}\0`);
  try {
    await pipeline(
      call.request,
      sizeLimit(config.maxUploadBytes, (chunk) => hash.update(chunk)),
      createWriteStream(path, { mode: 0o600 }),
    ).catch((error: unknown) => {
      if (error instanceof SizeLimitError) {
        throw new ServiceError('too_large', 'file_too_large', `An upload is at most ${config.maxUploadBytes} bytes.`);
      }
      throw error;
    });
    await idempotent(context, call, hash.digest('hex'), (settle) =>
      createStagedBatch(context, call, name, settle, (batchId, staging) =>
        stageFile(context, batchId, path, name || 'upload.csv', staging),
      ),
    );
  } finally {
    await rm(path, { force: true });
  }
}

/** The column headed `email` (any case), else the first column (see wire assumptions). */
async function stageFile(
  context: ServiceContext,
  batchId: string,
  path: string,
  displayName: string,
  staging: Staging,
) {
  let column = -1;
  let chunk: string[] = [];
  await readCsvRows(path, displayName, (row) => {
    if (column === -1) {
      const headed = row.findIndex((cell) => cell.trim().toLowerCase() === 'email');
      column = headed === -1 ? 0 : headed;
      // A first row that is a header, not an address, is not submitted.
      if (headed !== -1 || !(row[0] ?? '').includes('@')) return;
    }
    const address = (row[column] ?? '').trim();
    if (address === '') return;
    chunk.push(detachCell(address));
    if (chunk.length >= stageChunk) {
      // The reader waits for this chunk's write before it reads on.
      const staged = stageAddresses(context.db, context.config, batchId, chunk, staging);
      chunk = [];
      return staged;
    }
  });
  if (chunk.length > 0) await stageAddresses(context.db, context.config, batchId, chunk, staging);
  if ((await submittedCount(context.db, batchId)) === 0)
    throw invalidRequest('empty_batch', 'The file has no addresses.');
}
