// The contract's second transport: a loopback HTTP server that serves the built renderer and
// forwards the same calls to the same handlers, with server-sent events for pushes.
// Only 127.0.0.1; a random per-run token guards every API route and the page that carries it.
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
   * A link that opens the page once, within a minute, for a browser Sift starts itself: its command line
   * (which other accounts on the computer can read) then carries a code that is already spent, not the token.
   */
  launchLink(): string;
  close(): Promise<void>;
};

/** How long a launch link waits for its browser. */
const launchLinkMs = 60_000;

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
  let port = 0;

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

  /**
   * The session a page or a download link carries: the printed link's token once, then the cookie the first
   * page set (the page takes the token out of the address bar, so it stays out of history, and a reload
   * still opens). The cookie is named for this run's port: two Sifts on one computer share 127.0.0.1's.
   */
  const sessionCookie = () => `sift_session_${port}`;
  const launchCodes = new Map<string, number>();
  /** A launch link's code, spent by this one use. */
  const launchCodeSpent = (code: string | null) => {
    const until = code === null ? undefined : launchCodes.get(code);
    if (until === undefined) return false;
    launchCodes.delete(code!);
    return Date.now() <= until;
  };
  const hasSession = (request: IncomingMessage, url: URL) =>
    tokenMatches(url.searchParams.get('token')) ||
    tokenMatches(cookieValue(request.headers.cookie, sessionCookie())) ||
    launchCodeSpent(url.searchParams.get('launch'));

  async function serveIndex(request: IncomingMessage, response: ServerResponse, url: URL) {
    if (!hasSession(request, url)) {
      response.writeHead(401, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      response.end('Open Sift with the link it printed when it started; that link carries its access token.\n');
      return;
    }
    const html = await readFile(resolveStaticPath(options.rendererDir, '/index.html')!, 'utf8').catch(() => {
      throw new AppError('not_found', 'The app is not built yet: run `npm run build`.');
    });
    // The page carries the token to its own script; no inline script is needed for that.
    const page = html.replace('<meta name="sift-token" content="" />', `<meta name="sift-token" content="${token}" />`);
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      // HttpOnly: no script reads it; SameSite=Strict: no other site's page or link sends it.
      'Set-Cookie': `${sessionCookie()}=${token}; Path=/; HttpOnly; SameSite=Strict`,
    });
    response.end(page);
  }

  async function serveDownload(request: IncomingMessage, response: ServerResponse, url: URL) {
    // A download is a plain link: the page's session cookie carries it (or a token in its query).
    if (!hasSession(request, url)) {
      sendJson(response, 401, failure('unauthorized', 'Missing or wrong Sift token.'));
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
  port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    launchLink() {
      const code = randomBytes(18).toString('base64url');
      launchCodes.set(code, Date.now() + launchLinkMs);
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

/** One cookie's value from a Cookie header. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

function sendJson(response: ServerResponse, status: number, body: Envelope<unknown>) {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(text);
}
