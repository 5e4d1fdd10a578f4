// Size caps for bodies and uploads that come from outside: one rule for every reader, so a large or
// endless body is cut off at the same point whoever reads it. Callers map the error to their own answer.
import { Transform } from 'node:stream';

export class SizeLimitError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`The body is larger than ${maxBytes} bytes.`);
    this.name = 'SizeLimitError';
    this.maxBytes = maxBytes;
  }
}

/** Reads a whole body into memory, refusing it as soon as it passes `maxBytes`. For small bodies only. */
export async function readLimitedBody(body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) throw new SizeLimitError(maxBytes);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * A fetch answer's whole body, refused before reading when its Content-Length says it is past `maxBytes` (the
 * body is let go), and else as soon as what arrives passes it.
 */
export async function readLimitedResponse(response: Response, maxBytes: number): Promise<Buffer> {
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new SizeLimitError(maxBytes);
  }
  return response.body ? readLimitedBody(response.body, maxBytes) : Buffer.alloc(0);
}

/** A pass-through that fails the pipeline past `maxBytes`; `onChunk` sees every byte that passes. */
export function sizeLimit(maxBytes: number, onChunk: (chunk: Buffer) => void = () => {}): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) {
        done(new SizeLimitError(maxBytes));
        return;
      }
      onChunk(chunk);
      done(null, chunk);
    },
  });
}
