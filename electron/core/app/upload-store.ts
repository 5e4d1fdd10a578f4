// Files the browser streams to the web host land here, under an unguessable id, so that the
// same contract calls that take a path in Electron can take an upload in the browser.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../common/app-error.ts';
import { sizeLimit, SizeLimitError } from '../streams/size-limit.ts';

type StagedUpload = { path: string; fileName: string; sizeBytes: number };

export type UploadStore = {
  save(body: Readable, fileName: string): Promise<{ uploadId: string } & StagedUpload>;
  get(uploadId: string): StagedUpload | undefined;
  clear(): Promise<void>;
};

export function createUploadStore(dir: string, maxBytes: number): UploadStore {
  const uploads = new Map<string, StagedUpload>();
  return {
    async save(body, fileName) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const uploadId = `upl_${randomBytes(18).toString('base64url')}`;
      const path = join(dir, uploadId);
      let sizeBytes = 0;
      try {
        await pipeline(
          body,
          sizeLimit(maxBytes, (chunk) => (sizeBytes += chunk.length)),
          createWriteStream(path, { mode: 0o600 }),
        );
      } catch (error) {
        await rm(path, { force: true });
        if (error instanceof SizeLimitError)
          throw new AppError('bad_request', `The file is larger than ${maxBytes} bytes.`);
        throw error;
      }
      const staged = { path, fileName, sizeBytes };
      uploads.set(uploadId, staged);
      return { uploadId, ...staged };
    },
    get: (uploadId) => uploads.get(uploadId),
    async clear() {
      uploads.clear();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
