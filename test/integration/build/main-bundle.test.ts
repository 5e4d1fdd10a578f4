// Electron's main process runs from the bundle, not from source: the import's writer, the export's
// reader and the verdict cache's writer threads must be built beside it and work from there. (Electron's binary cannot run here; its
// Node can.)
import { execFile } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { createChunkPacker, transferablesOf } from '../../../electron/core/jobs/import/import-chunks.ts';
import { openListStore } from '../../../electron/core/jobs/store/list-store.ts';
import { createVerdictUnpacker, type VerdictChunk } from '../../../electron/core/jobs/export/verdict-chunks.ts';

const root = new URL('../../../', import.meta.url).pathname;
// Inside the project, as dist/ is: the bundle imports its packages from node_modules.
const cache = join(root, 'node_modules/.cache');
await mkdir(cache, { recursive: true });
const outDir = await mkdtemp(join(cache, 'sift-main-bundle-'));
afterAll(() => rm(outDir, { recursive: true, force: true }));

describe('the main bundle', () => {
  it('holds the import writer, the export reader and the cache writer beside main.js, and they work', async () => {
    await promisify(execFile)(
      process.execPath,
      [
        join(root, 'node_modules/vite/bin/vite.js'),
        'build',
        '--mode',
        'main',
        '--logLevel',
        'error',
        '--outDir',
        outDir,
      ],
      { cwd: root },
    );
    // Each thread is started by its name (own-files.ts's startThread), a built file beside the bundle.
    const main = await readFile(join(outDir, 'main.js'), 'utf8');
    for (const thread of [
      'import-writer-worker',
      'verdict-reader-worker',
      'cache-writer-worker',
      'search-index-worker',
      'bounce-parse-worker',
    ]) {
      expect(main).toContain(`startThread(import.meta.url, "${thread}"`);
      await access(join(outDir, `${thread}.js`));
    }

    const listPath = join(outDir, 'list.sqlite');
    const list = openListStore(listPath);
    const packer = createChunkPacker();
    packer.add({
      id: 1,
      key: 'ann@example.com',
      address: 'Ann@example.com',
      firstRow: 1,
      sendable: true,
      role: false,
      disposable: false,
      suggestion: null,
    });
    const chunk = packer.take(1, Int32Array.of(1, 0, 1));
    const worker = new Worker(join(outDir, 'import-writer-worker.js'), { workerData: { listPath } });
    const stored = new Promise((resolve, reject) => {
      worker.on('message', resolve);
      worker.on('error', reject);
    });
    worker.postMessage(chunk, transferablesOf(chunk));
    expect(await stored).toEqual({ stored: 1, toSend: 1 });
    await worker.terminate();
    expect(list.address(1)).toMatchObject({ key: 'ann@example.com', address: 'Ann@example.com' });
    expect([...list.rowChunks()][0]!.addressIds).toEqual(Int32Array.of(1, 0, 1));
    list.close();

    const reader = new Worker(join(outDir, 'verdict-reader-worker.js'), { workerData: { listPath } });
    const read = new Promise<{ chunk: VerdictChunk }>((resolve, reject) => {
      reader.on('message', resolve);
      reader.on('error', reject);
    });
    reader.postMessage({ more: 1 });
    const { chunk: verdicts } = await read;
    await reader.terminate();
    expect(verdicts.ids).toEqual(Int32Array.of(1, 0, 1));
    const unpacker = createVerdictUnpacker();
    unpacker.addWords(verdicts.words);
    expect(unpacker.unpack(verdicts.introduced)).toEqual([[null, 0, null, null, null]]);

    const checked = openListStore(listPath);
    checked.recordResults(1, [{ id: 1, result: 'valid', billed: true, reason: null }], {});
    checked.close();
    const cacheWriter = new Worker(join(outDir, 'cache-writer-worker.js'), {
      workerData: { listPath, dataDir: outDir, secret: 'test', mode: 'live', service: 'test', checkedAt: Date.now() },
    });
    const kept = await new Promise((resolve, reject) => {
      cacheWriter.on('message', resolve);
      cacheWriter.on('error', reject);
    });
    await cacheWriter.terminate();
    expect(kept).toEqual({ kept: 1 });
  });
});
