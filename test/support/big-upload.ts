// A CSV of more than 100 MB, written to disk a thousand rows at a time and sent to a service's `POST /files`
// as a stream: shared by the upload's behaviour (crash-and-scale.test.ts) and its memory figure (timing tier).
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ChildService } from './child-service.ts';

export const bigUploadRows = 40_000;

/** Writes the file in `dataDir`, uploads it with `key`, and answers the response with the file's size. */
export async function uploadBigCsv(
  service: ChildService,
  key: string,
  dataDir: string,
): Promise<{ size: number; status: number; body: Record<string, unknown> }> {
  const path = join(dataDir, 'big.csv');
  const file = await open(path, 'w');
  const padding = 'x'.repeat(2600);
  await file.write('Name,EMAIL,Notes\n');
  for (let i = 0; i < bigUploadRows; i += 1000) {
    await file.write(
      Array.from({ length: 1000 }, (_, j) => `Person ${i + j},valid${i + j}@big.example,${padding}\n`).join(''),
    );
  }
  const { size } = await file.stat();
  await file.close();
  const response = await fetch(`${service.baseUrl}/files?name=big`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'text/csv' },
    body: Readable.toWeb(createReadStream(path)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  return { size, status: response.status, body: (await response.json()) as Record<string, unknown> };
}
