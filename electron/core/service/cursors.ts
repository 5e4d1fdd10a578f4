// Result cursors: a position in one batch's results, sealed with AES-256-GCM so a cursor can be
// neither guessed, nor read, nor pointed at another batch's rows.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { assumedErrors } from '../wire/assumptions.ts';
import { invalidRequest } from './service-errors.ts';

export type CursorCodec = {
  encode(batchId: string, position: number): string;
  /** The position, or a 400 when the cursor was not made for this batch by this service. */
  decode(cursor: string, batchId: string): number;
};

export function createCursorCodec(secret: Buffer): CursorCodec {
  return {
    encode(batchId, position) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      cipher.setAAD(Buffer.from(batchId));
      const sealed = Buffer.concat([cipher.update(JSON.stringify({ p: position })), cipher.final()]);
      return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
    },
    decode(cursor, batchId) {
      try {
        const bytes = Buffer.from(cursor, 'base64url');
        if (bytes.length < 29) throw new Error('short');
        const decipher = createDecipheriv('aes-256-gcm', secret, bytes.subarray(0, 12));
        decipher.setAAD(Buffer.from(batchId));
        decipher.setAuthTag(bytes.subarray(bytes.length - 16));
        const plain = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
        const { p } = JSON.parse(plain.toString('utf8')) as { p: unknown };
        if (typeof p !== 'number' || !Number.isInteger(p) || p < 0) throw new Error('bad position');
        return p;
      } catch {
        throw invalidRequest(
          assumedErrors.invalidCursor,
          'The cursor is not one this service gave out for this batch.',
        );
      }
    },
  };
}
