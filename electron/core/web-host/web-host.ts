// The contract's second transport: a loopback HTTP server that serves the built renderer and
// forwards the same calls to the same handlers, with server-sent events for pushes.
// Only 127.0.0.1; a random per-run token guards every API route. The page keeps it in its own session
// storage (which no other origin, other port or other tab reads), never in a cookie: browsers send a
// 127.0.0.1 cookie to every port of it. A download link carries a ticket for that one file, once.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import type { Envelope } from '../../common/contract.ts';
import { contentSecurityPolicy } from '../../common/content-security-policy.ts';
import { webHostTokenHeader } from '../../common/web-transport.ts';
import { sendFile } from '../app/file-response.ts';
import { readLimitedBody, SizeLimitError } from '../streams/size-limit.ts';
import { failure, type Dispatch } from '../app/dispatch.ts';
import type { EventHub } from '../app/event-hub.ts';
import {
  contentDisposition,
  contentTypeFor,
  isDownloadPath,
  resolveDownloadPath,
  resolveStaticPath,
} from '../app/static-files.ts';
import type { UploadStore } from '../app/upload-store.ts';

const maxCallBodyBytes = 1024 * 1024;
const keepAliveMs = 15_000;

export type WebHostOptions = {
  dispatch: Dispatch;
  events: EventHub;
  uploads: UploadStore;
  rendererDir: string;
  /** Exported files, served to links that carry the run's token. */
  exportsDir?: string;
  port?: number;
  token?: string;
};

export type WebHost = {
  /** The page to open: carries the token, so print it only to the person who started Sift. */
  url: string;
  origin: string;
  token: string;
  /**
   * A link that opens the page once, within a minute, for a browser Sift starts itself; `onSpent` runs when
   * it is used (or has run out). Never put it on a command line (other accounts read those): launch-page.ts
   * hands it over in a file only this account can read.
   */
  launchLink(onSpent?: () => void): string;
  close(): Promise<void>;
};

/** How long a launch link waits for its browser, and a download ticket for its click. */
const launchLinkMs = 60_000;
const ticketMs = 60_000;

const securityHeaders = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const tokenBytes = Buffer.from(token);
  const streams = new Set<ServerResponse>();
  let allowedHosts: Set<string> = new Set();

  const tokenMatches = (candidate: unknown) => {
    if (typeof candidate !== 'string') return false;
    const bytes = Buffer.from(candidate);
    return bytes.length === tokenBytes.length && timingSafeEqual(bytes, tokenBytes);
  };

  const server = createServer((request, response) => {
    for (const [name, value] of Object.entries(securityHeaders)) response.setHeader(name, value);
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        const known = error instanceof AppError;
        sendJson(
          response,
          known ? 400 : 500,
          failure(known ? error.code : 'internal', known ? error.message : 'Internal error.'),
        );
      } else {
        response.destroy();
      }
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    // A page on another site that rebinds its DNS name to 127.0.0.1 still sends its own Host.
    if (!allowedHosts.has(request.headers.host ?? '')) {
      sendJson(response, 421, failure('forbidden', 'Unexpected host.'));
      return;
    }
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname.startsWith('/api/')) {
      if (!tokenMatches(request.headers[webHostTokenHeader])) {
        sendJson(response, 401, failure('unauthorized', 'Missing or wrong Sift token.'));
        return;
      }
      await handleApi(request, response, url);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      sendJson(response, 405, failure('bad_request', 'Method not allowed.'));
      return;
    }
    if (url.pathname === '/' || url.pathname === '/index.html') {
      await serveIndex(request, response, url);
      return;
    }
    if (isDownloadPath(url.pathname)) {
      await serveDownload(request, response, url);
      return;
    }
    await serveStatic(response, url.pathname, request.method === 'HEAD');
  }

  async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL) {
    const callMatch = /^\/api\/calls\/([a-z]+:[A-Za-z]+)$/.exec(url.pathname);
    if (callMatch && request.method === 'POST') {
      if (!(request.headers['content-type'] ?? '').startsWith('application/json')) {
        sendJson(response, 415, failure('bad_request', 'Calls must be sent as application/json.'));
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse((await readLimitedBody(request, maxCallBodyBytes)).toString('utf8'));
      } catch (error) {
        const tooLarge = error instanceof SizeLimitError;
        sendJson(
          response,
          tooLarge ? 413 : 400,
          failure('bad_request', tooLarge ? 'The request body is too large.' : 'The request body is not valid JSON.'),
        );
        return;
      }
      sendJson(response, 200, await options.dispatch(callMatch[1]!, body, { transport: 'web' }));
      return;
    }
    if (url.pathname === '/api/download-tickets' && request.method === 'POST') {
      // One file, once, within a minute: what a download link carries instead of the session.
      let asked: { path?: unknown } = {};
      try {
        asked = JSON.parse((await readLimitedBody(request, 4096)).toString('utf8')) as { path?: unknown };
      } catch {
        // Answered below as any request that names no exported file.
      }
      // The page names it as its export lists it (downloads/job_…/name), relative to the page.
      const path = typeof asked.path === 'string' ? `/${asked.path.replace(/^\/+/, '')}` : '';
      if (!isDownloadPath(path)) {
        sendJson(response, 400, failure('bad_request', 'A ticket is for an exported file.'));
        return;
      }
      const ticket = randomBytes(18).toString('base64url');
      tickets.set(ticket, { path, until: Date.now() + ticketMs });
      sendJson(response, 200, { ok: true, value: { ticket } });
      return;
    }
    if (url.pathname === '/api/uploads' && request.method === 'POST') {
      const fileName = basename(url.searchParams.get('name') ?? 'list.csv').slice(0, 255) || 'list.csv';
      const { uploadId } = await options.uploads.save(request, fileName);
      sendJson(response, 200, { ok: true, value: { kind: 'upload', uploadId } });
      return;
    }
    if (url.pathname === '/api/events' && request.method === 'GET') {
      openEventStream(request, response);
      return;
    }
    sendJson(response, 404, failure('not_found', 'No such route.'));
  }

  function openEventStream(request: IncomingMessage, response: ServerResponse) {
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    response.write(': connected\n\n');
    streams.add(response);
    const unsubscribe = options.events.subscribe((name, payload) => {
      response.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
    });
    const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), keepAliveMs);
    request.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
      streams.delete(response);
    });
  }

  const launchCodes = new Map<string, { until: number; onSpent?: () => void }>();
  /** A launch link's code, spent by this one use. */
  const launchCodeSpent = (code: string | null) => {
    const launch = code === null ? undefined : launchCodes.get(code);
    if (launch === undefined) return false;
    launchCodes.delete(code!);
    launch.onSpent?.();
    return Date.now() <= launch.until;
  };
  const tickets = new Map<string, { path: string; until: number }>();
  /** A download ticket for this path, spent by this one use. */
  const ticketSpent = (ticket: string | null, path: string) => {
    const held = ticket === null ? undefined : tickets.get(ticket);
    if (held === undefined) return false;
    tickets.delete(ticket!);
    return held.path === path && Date.now() <= held.until;
  };

  async function serveIndex(request: IncomingMessage, response: ServerResponse, url: URL) {
    const html = await readFile(resolveStaticPath(options.rendererDir, '/index.html')!, 'utf8').catch(() => {
      throw new AppError('not_found', 'The app is not built yet: run `npm run build`.');
    });
    // The page itself is no secret; only the printed link, or a launch link once, hands it the token, which
    // its script keeps in the tab's session storage (so a reload still opens) and takes out of the address bar.
    const handOver = tokenMatches(url.searchParams.get('token')) || launchCodeSpent(url.searchParams.get('launch'));
    const page = handOver
      ? html.replace('<meta name="sift-token" content="" />', `<meta name="sift-token" content="${token}" />`)
      : html;
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : page);
  }

  async function serveDownload(_request: IncomingMessage, response: ServerResponse, url: URL) {
    // A download is a plain link: it carries a ticket the page asked for, for this file, spent by this use.
    if (!ticketSpent(url.searchParams.get('ticket'), url.pathname)) {
      sendJson(
        response,
        401,
        failure('unauthorized', 'This download link has been used or has run out: download it again from Sift.'),
      );
      return;
    }
    const path = options.exportsDir ? resolveDownloadPath(options.exportsDir, url.pathname) : null;
    const headers = {
      'Content-Type': contentTypeFor(path ?? ''),
      'Content-Disposition': contentDisposition(basename(path ?? '')),
      'Cache-Control': 'no-store',
    };
    if (!path || !(await sendFile(response, path, headers)))
      sendJson(response, 404, failure('not_found', 'No such export.'));
  }

  async function serveStatic(response: ServerResponse, pathname: string, headOnly: boolean) {
    const path = resolveStaticPath(options.rendererDir, pathname);
    if (path && (await sendFile(response, path, { 'Content-Type': contentTypeFor(path) }, headOnly))) return;
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    response.end('Not found\n');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    launchLink(onSpent) {
      const code = randomBytes(18).toString('base64url');
      launchCodes.set(code, { until: Date.now() + launchLinkMs, ...(onSpent ? { onSpent } : {}) });
      // Run out unused: forgotten, and its page removed.
      setTimeout(() => launchCodes.get(code) && launchCodeSpent(code), launchLinkMs).unref();
      return `${origin}/?launch=${code}`;
    },
    async close() {
      for (const stream of streams) stream.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function sendJson(response: ServerResponse, status: number, body: Envelope<unknown>) {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(text);
}
