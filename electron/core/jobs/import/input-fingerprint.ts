import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/** Size, modification time and the first 64 KiB: enough to notice an input changed between runs. */
export async function inputFingerprint(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const info = await handle.stat();
    const head = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return `${info.size}:${Math.trunc(info.mtimeMs)}:${createHash('sha256').update(head.subarray(0, bytesRead)).digest('hex')}`;
  } finally {
    await handle.close();
  }
}
