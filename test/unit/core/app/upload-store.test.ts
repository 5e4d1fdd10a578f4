import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createUploadStore } from '../../../../electron/core/app/upload-store.ts';

describe('upload store', () => {
  it('keeps an upload under an unguessable id', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'sift-up-')), 'uploads');
    const store = createUploadStore(dir, 1000);
    const saved = await store.save(Readable.from([Buffer.from('email\n'), Buffer.from('a@b.co\n')]), 'list.csv');
    expect(saved.uploadId).toMatch(/^upl_[A-Za-z0-9_-]{24}$/);
    expect(await readFile(store.get(saved.uploadId)!.path, 'utf8')).toBe('email\na@b.co\n');
    expect(store.get(saved.uploadId)).toMatchObject({ fileName: 'list.csv', sizeBytes: 13 });
  });

  it('refuses an upload over the limit and leaves nothing behind', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'sift-up-')), 'uploads');
    const store = createUploadStore(dir, 10);
    await expect(store.save(Readable.from([Buffer.alloc(8), Buffer.alloc(8)]), 'big.csv')).rejects.toMatchObject({
      code: 'bad_request',
    });
    expect(await readdir(dir)).toEqual([]);
  });
});
