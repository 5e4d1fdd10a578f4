// The web host over real loopback HTTP: the token, the host check, launch links, download tickets, the
// calls, uploads and pushes.
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRuntime, type AppRuntime } from '../../../../electron/core/app/app-runtime.ts';
import { startWebHost, type WebHost } from '../../../../electron/core/web-host/web-host.ts';

let host: WebHost;
let runtime: AppRuntime;
const dataDir = await mkdtemp(join(tmpdir(), 'sift-web-'));
const rendererDir = join(dataDir, 'renderer');

/** `token: null` sends no token header at all. */
function call(name: string, body: unknown, token: string | null = host.token) {
  return fetch(`${host.origin}/api/calls/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token === null ? {} : { 'x-sift-token': token }) },
    body: JSON.stringify(body),
  });
}

async function upload(content: string, name = 'people.csv'): Promise<string> {
  const response = await fetch(`${host.origin}/api/uploads?name=${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { 'x-sift-token': host.token },
    body: content,
  });
  const envelope = (await response.json()) as { ok: true; value: { uploadId: string } };
  return envelope.value.uploadId;
}

/** A raw request, so the test can send a Host header that fetch would not let it set. */
function rawGet(path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const { port } = new URL(host.origin);
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<html><head><meta name="sift-token" content="" /></head></html>');
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log("app")');
  await writeFile(join(dataDir, 'secret.txt'), 'do not serve');
  runtime = await createAppRuntime({ dataDir, appVersion: '1.2.3' });
  host = await startWebHost({ ...runtime, rendererDir });
});

afterAll(async () => {
  await host.close();
  await runtime.close();
});

describe('web host', () => {
  it('listens on 127.0.0.1 only, on a random port', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.url).toBe(`${host.origin}/?token=${host.token}`);
    expect(host.token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses API calls without the token or with a wrong one', async () => {
    for (const token of [null, '', 'x'.repeat(host.token.length), `${host.token}x`]) {
      const response = await call('app:getInfo', {}, token);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    }
    const events = await fetch(`${host.origin}/api/events`);
    expect(events.status).toBe(401);
    const uploadWithoutToken = await fetch(`${host.origin}/api/uploads?name=a.csv`, {
      method: 'POST',
      body: 'email\n',
    });
    expect(uploadWithoutToken.status).toBe(401);
  });

  it('serves the page, and hands it the token only through the printed link', async () => {
    // The page is no secret: without the token it carries none, and says how to open Sift.
    const bare = await fetch(`${host.origin}/`);
    expect(bare.status).toBe(200);
    expect(await bare.text()).toContain('<meta name="sift-token" content="" />');
    const page = await fetch(host.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain(`<meta name="sift-token" content="${host.token}" />`);
    const asset = await fetch(`${host.origin}/assets/app.js`);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
  });

  it('sets no cookie: browsers send a 127.0.0.1 cookie to every port of it', async () => {
    const page = await fetch(host.url);
    expect(page.headers.get('set-cookie')).toBeNull();
    const launched = await fetch(host.launchLink());
    expect(launched.headers.get('set-cookie')).toBeNull();
  });

  it('opens the page once with a launch link, within its minute, and says when it was used', async () => {
    let spent = 0;
    const link = host.launchLink(() => (spent += 1));
    expect(link).not.toContain(host.token);
    expect(await (await fetch(link)).text()).toContain(`content="${host.token}"`);
    expect(spent).toBe(1);
    // Spent: the same link hands nothing over again.
    expect(await (await fetch(link)).text()).toContain('<meta name="sift-token" content="" />');
  });

  it('serves a download only for a ticket the page asked for, for that file, once', async () => {
    const path = '/downloads/job_0123456789abcdef/list.cleaned.csv';
    await mkdir(join(dataDir, 'exports', 'job_0123456789abcdef'), { recursive: true });
    await writeFile(join(dataDir, 'exports', 'job_0123456789abcdef', 'list.cleaned.csv'), 'email\nann@example.com\n');
    const ask = (token: string | null, body: unknown) =>
      fetch(`${host.origin}/api/download-tickets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token === null ? {} : { 'x-sift-token': token }) },
        body: JSON.stringify(body),
      });
    expect((await ask(null, { path })).status).toBe(401);
    expect((await ask(host.token, { path: '/secret.txt' })).status).toBe(400);
    const ticket = ((await (await ask(host.token, { path })).json()) as { value: { ticket: string } }).value.ticket;
    // The session is no way in: only the ticket, for its own file, once.
    expect((await fetch(`${host.origin}${path}?token=${host.token}`)).status).toBe(401);
    expect((await fetch(`${host.origin}/downloads/job_0123456789abcdef/other.csv?ticket=${ticket}`)).status).toBe(401);
    const other = ((await (await ask(host.token, { path })).json()) as { value: { ticket: string } }).value.ticket;
    const download = await fetch(`${host.origin}${path}?ticket=${other}`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('email\nann@example.com\n');
    expect((await fetch(`${host.origin}${path}?ticket=${other}`)).status).toBe(401);
  });

  it('refuses a foreign Host header (DNS rebinding)', async () => {
    const { port } = new URL(host.origin);
    expect(await rawGet('/api/events', { host: `evil.example:${port}`, 'x-sift-token': host.token })).toBe(421);
    expect(await rawGet('/assets/app.js', { host: `127.0.0.1:${port}` })).toBe(200);
  });

  it('never serves files outside the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const { port } = new URL(host.origin);
      expect(await rawGet(path, { host: `127.0.0.1:${port}` })).toBe(404);
    }
  });

  it('answers contract calls, and rejects bad arguments and unknown calls', async () => {
    expect(await (await call('app:getInfo', {})).json()).toEqual({
      ok: true,
      value: { name: 'Sift', version: '1.2.3', transport: 'web' },
    });
    expect(await (await call('lists:preview', { file: { kind: 'upload', uploadId: 'nope' } })).json()).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await (await call('keys:reveal', {})).json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const notJson = await fetch(`${host.origin}/api/calls/app:getInfo`, {
      method: 'POST',
      headers: { 'x-sift-token': host.token, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(notJson.status).toBe(415);
  });

  it('previews an uploaded file, and refuses raw paths from the browser', async () => {
    const uploadId = await upload('email,name\nann@example.com,Ann\n');
    const response = await call('lists:preview', { file: { kind: 'upload', uploadId } });
    expect(await response.json()).toMatchObject({
      ok: true,
      value: { fileName: 'people.csv', headers: ['email', 'name'], rows: [['ann@example.com', 'Ann']] },
    });
    const byPath = await call('lists:preview', { file: { kind: 'path', path: join(dataDir, 'secret.txt') } });
    expect(await byPath.json()).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const unknown = await call('lists:preview', { file: { kind: 'upload', uploadId: 'upl_0000000000000000000000' } });
    expect(await unknown.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('pushes events to subscribers as server-sent events', async () => {
    const controller = new AbortController();
    const events = await fetch(`${host.origin}/api/events`, {
      headers: { 'x-sift-token': host.token },
      signal: controller.signal,
    });
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
    const uploadId = await upload('email\nx@example.com\ny@example.com\n', 'two.csv');
    await call('lists:preview', { file: { kind: 'upload', uploadId } });
    let text = '';
    const deadline = Date.now() + 5000;
    while (!text.includes('lists:didPreview') && Date.now() < deadline) text += (await reader.read()).value ?? '';
    controller.abort();
    expect(text).toContain('event: lists:didPreview\ndata: {"fileName":"two.csv","rowsShown":2}\n\n');
  });
});
