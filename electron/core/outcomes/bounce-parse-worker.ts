// The bounce mailbox's parsing thread (bounce-parser.ts): each page of messages arrives as one buffer with
// their lengths, and goes back read. Parsing MIME is most of a read's work (postal-mime, about 0.05 ms a
// message with bytes-blob.ts); here it runs on the second core while the app's thread fetches the next
// page, keeps the last one and moves what was kept.
import { parentPort } from 'node:worker_threads';
import { readMessage, type MessageRead } from './bounce-message.ts';
import { BytesBlob } from './bytes-blob.ts';

// This thread parses and nothing else: postal-mime's parts are joined in memory, not through Node's Blob.
globalThis.Blob = BytesBlob as unknown as typeof Blob;

type Page = { id: number; bytes: ArrayBuffer; lengths: number[] };

parentPort!.on('message', ({ id, bytes, lengths }: Page) => {
  // No top-level await: the single executable bundles each thread as CommonJS.
  void (async () => {
    const reads: MessageRead[] = [];
    let at = 0;
    for (const length of lengths) {
      reads.push(await readMessage(new Uint8Array(bytes, at, length)));
      at += length;
    }
    parentPort!.postMessage({ id, reads });
  })();
});
