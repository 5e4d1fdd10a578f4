// The contract over the loopback web host: calls are POSTs, pushes arrive as server-sent events,
// and every request carries this run's token (read from the page the host served).
import type { CallName, Envelope, EventName, FileRef } from '../../electron/common/contract.ts';
import { buildSiftApi, type SiftBridge } from '../../electron/common/sift-api.ts';
import { AppError } from '../../electron/common/app-error.ts';
import { webHostTokenHeader as tokenHeader } from '../../electron/common/web-transport.ts';

async function readEnvelope(response: Response, what: string): Promise<Envelope<unknown>> {
  try {
    return (await response.json()) as Envelope<unknown>;
  } catch {
    return { ok: false, error: { code: 'internal', message: `${what} failed (HTTP ${response.status}).` } };
  }
}

export function createWebBridge(token: string): SiftBridge {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  let streaming = false;

  async function streamEvents() {
    // One shared stream; reconnects after a drop with a capped delay while anyone listens.
    let delayMs = 500;
    while ([...listeners.values()].some((set) => set.size > 0)) {
      try {
        const response = await fetch('/api/events', { headers: { [tokenHeader]: token } });
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        delayMs = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            dispatchMessage(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch {
        // fall through to the retry delay
      }
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      delayMs = Math.min(delayMs * 2, 10_000);
    }
    streaming = false;
  }

  function dispatchMessage(message: string) {
    let name = '';
    let data = '';
    for (const line of message.split('\n')) {
      if (line.startsWith('event: ')) name = line.slice(7);
      else if (line.startsWith('data: ')) data += line.slice(6);
    }
    const set = listeners.get(name as EventName);
    if (!set || !data) return;
    const payload: unknown = JSON.parse(data);
    for (const listener of set) listener(payload);
  }

  const api = buildSiftApi(
    async (name: CallName, request: unknown) => {
      const response = await fetch(`/api/calls/${name}`, {
        method: 'POST',
        headers: { [tokenHeader]: token, 'content-type': 'application/json' },
        body: JSON.stringify(request),
      });
      return readEnvelope(response, name);
    },
    (name, listener) => {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener);
      if (!streaming) {
        streaming = true;
        void streamEvents();
      }
      return () => void set.delete(listener);
    },
  );

  return {
    ...api,
    files: {
      async stage(file: File): Promise<FileRef> {
        // The browser streams the file's bytes; main keeps them and answers with an id.
        const response = await fetch(`/api/uploads?name=${encodeURIComponent(file.name)}`, {
          method: 'POST',
          headers: { [tokenHeader]: token, 'content-type': 'application/octet-stream' },
          body: file,
        });
        const envelope = await readEnvelope(response, 'Upload');
        if (!envelope.ok) throw new AppError(envelope.error.code, envelope.error.message);
        return envelope.value as FileRef;
      },
      // The link carries a ticket for this one file, spent by this download (web-host.ts): never the
      // token, which would then sit in the browser's download history.
      async downloadLink(downloadPath: string) {
        const response = await fetch('/api/download-tickets', {
          method: 'POST',
          headers: { [tokenHeader]: token, 'content-type': 'application/json' },
          body: JSON.stringify({ path: downloadPath }),
        });
        const envelope = await readEnvelope(response, 'Download');
        if (!envelope.ok) throw new AppError(envelope.error.code, envelope.error.message);
        const { ticket } = envelope.value as { ticket: string };
        return `${downloadPath}?ticket=${encodeURIComponent(ticket)}`;
      },
    },
  };
}
