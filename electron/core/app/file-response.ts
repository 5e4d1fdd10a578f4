// A file on disk as an HTTP answer, streamed: an export of a million rows never sits in memory.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The size of a regular file, or null when there is none (missing, a folder, unreadable). */
async function fileSize(path: string): Promise<number | null> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? info.size : null;
}

/** Streams `path` to a Node response with `headers`; false (nothing sent) when there is no such file. */
export async function sendFile(
  response: ServerResponse,
  path: string,
  headers: Record<string, string>,
  headOnly = false,
): Promise<boolean> {
  const size = await fileSize(path);
  if (size === null) return false;
  response.writeHead(200, { ...headers, 'Content-Length': String(size) });
  if (headOnly) response.end();
  else await pipeline(createReadStream(path), response);
  return true;
}

/** A fetch-style Response streaming `path` (for Electron's protocol handler), or null when there is no such file. */
export async function fileResponse(path: string, headers: Record<string, string>): Promise<Response | null> {
  const size = await fileSize(path);
  if (size === null) return null;
  const body = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
  return new Response(body, { headers: { ...headers, 'Content-Length': String(size) } });
}
