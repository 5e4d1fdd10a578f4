// A loopback HTTP proxy in front of a service, for faults a real network has: dropped connections,
// odd answers, rewritten bodies. Each request goes through `decide`, which says what to do with it.
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Forwarded = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

export type ProxyAction =
  | { kind: 'forward' }
  /** The service gets the request and answers, but the client's connection is cut before the answer. */
  | { kind: 'forward-then-drop' }
  /** The service answers; the client gets the headers and the first half of the body, then the connection drops. */
  | { kind: 'forward-then-cut' }
  | { kind: 'respond'; status: number; headers?: Record<string, string>; body?: string }
  | { kind: 'rewrite'; rewrite(answer: Forwarded): Forwarded }
  /** The path and query sent upstream are replaced. */
  | { kind: 'forward-as'; url: string; rewrite?(answer: Forwarded): Forwarded }
  /** The request waits `ms` before it goes on: a slow network. */
  | { kind: 'stall'; ms: number };

export type SeenRequest = { method: string; url: string; headers: IncomingMessage['headers'] };

export async function startFaultProxy(
  upstreamBase: string,
  decide: (request: SeenRequest, index: number) => ProxyAction,
) {
  const upstream = new URL(upstreamBase);
  const seen: SeenRequest[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const seenRequest = { method: request.method!, url: request.url!, headers: request.headers };
    seen.push(seenRequest);
    let action = decide(seenRequest, seen.length - 1);
    if (action.kind === 'stall') {
      await new Promise((resolve) => setTimeout(resolve, (action as { ms: number }).ms));
      action = { kind: 'forward' };
    }
    if (action.kind === 'respond') {
      response.writeHead(action.status, action.headers ?? {});
      response.end(action.body ?? '');
      return;
    }
    const url = action.kind === 'forward-as' ? action.url : request.url!;
    const answer = await new Promise<Forwarded>((resolve, reject) => {
      const forwarded = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: url,
          headers: { ...request.headers, host: upstream.host },
        },
        async (upstreamResponse) => {
          const parts: Buffer[] = [];
          for await (const part of upstreamResponse) parts.push(part as Buffer);
          resolve({
            status: upstreamResponse.statusCode!,
            headers: upstreamResponse.headers,
            body: Buffer.concat(parts),
          });
        },
      );
      forwarded.on('error', reject);
      forwarded.end(Buffer.concat(chunks));
    });
    if (action.kind === 'forward-then-drop') {
      request.socket.destroy();
      return;
    }
    if (action.kind === 'forward-then-cut') {
      // The whole length announced, half of it sent: the client sees its body end early.
      const { 'transfer-encoding': _chunked, ...headers } = answer.headers;
      response.writeHead(answer.status, { ...headers, 'content-length': String(answer.body.length) });
      // A moment between the half and the cut, so the client has the headers: the body breaks, not the request.
      response.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)), () =>
        setTimeout(() => request.socket.destroy(), 50),
      );
      return;
    }
    const final =
      action.kind === 'rewrite'
        ? action.rewrite(answer)
        : action.kind === 'forward-as' && action.rewrite
          ? action.rewrite(answer)
          : answer;
    const headers = { ...final.headers };
    delete headers['content-length'];
    delete headers['transfer-encoding'];
    response.writeHead(final.status, headers);
    response.end(final.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${upstream.pathname}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A fake clock: `sleep` records the wait and moves time on at once. */
export function fakeClock(start = Date.UTC(2026, 10, 21, 12, 0, 0)) {
  let now = start;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: async (ms: number) => {
      waits.push(Math.round(ms));
      now += Math.max(0, ms);
    },
  };
}
