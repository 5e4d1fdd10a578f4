// The web host over real loopback HTTP: the token, the host check, the calls, uploads and pushes.
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

  it('serves the page only with the token, and hands the token to the page', async () => {
    expect((await fetch(`${host.origin}/`)).status).toBe(401);
    const page = await fetch(host.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toContain(`<meta name="sift-token" content="${host.token}" />`);
    const asset = await fetch(`${host.origin}/assets/app.js`);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
  });

  it("sets a session cookie of this run's port that opens the page again without the token, and nothing else does", async () => {
    const port = new URL(host.origin).port;
    const cookie = (await fetch(host.url)).headers.get('set-cookie') ?? '';
    expect(cookie).toBe(`sift_session_${port}=${host.token}; Path=/; HttpOnly; SameSite=Strict`);
    const reloaded = await fetch(`${host.origin}/`, {
      headers: { cookie: `other=1; sift_session_${port}=${host.token}` },
    });
    expect(reloaded.status).toBe(200);
    expect(await reloaded.text()).toContain(`content="${host.token}"`);
    for (const wrong of [`sift_session_${port}=${'x'.repeat(host.token.length)}`, `sift_session_1=${host.token}`]) {
      expect((await fetch(`${host.origin}/`, { headers: { cookie: wrong } })).status).toBe(401);
    }
    // The cookie is for pages and links only: a call still needs the token in its header.
    const callWithCookie = await fetch(`${host.origin}/api/calls/app:getInfo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `sift_session_${port}=${host.token}` },
      body: '{}',
    });
    expect(callWithCookie.status).toBe(401);
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
