// A tool's answers bounded as they arrive, against a server on loopback that answers as a broken or hostile
// tool would: a redirect elsewhere is not followed (the secret would go with it), an answer past the limit
// is refused as it arrives, a Retry-After of weeks stops at once in the tool's words, a short one is waited
// out, and a roster that claims a trillion members is refused before it fills the disk.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { subscribedOnly } from '../../../../electron/core/connectors/connector.ts';
import { mailmanConnector } from '../../../../electron/core/connectors/mailman-connector.ts';
import { readMembers } from '../../../../electron/core/connectors/sync-run.ts';
import { openSyncStore } from '../../../../electron/core/connectors/sync-store.ts';
import { answerLimitBytes, toolHttp } from '../../../../electron/core/connectors/tool-http.ts';
import { toolPath } from '../../../../electron/core/connectors/tool-path.ts';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
let handler: Handler;
const calls: string[] = [];
const server = createServer((request, response) => {
  calls.push(`${request.method} ${request.url}`);
  handler(request, response);
});
let base: URL;
let folder: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = new URL(`http://127.0.0.1:${(server.address() as { port: number }).port}/api`);
  folder = await mkdtemp(join(tmpdir(), 'sift-tool-http-'));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(folder, { recursive: true, force: true });
});

const http = () => toolHttp('Mailchimp', base, 'Bearer the-secret', 'the-secret', { random: () => 0 });

it('follows no redirect: the secret never goes where the answer points', async () => {
  calls.length = 0;
  handler = (request, response) => {
    if (request.url === '/api/lists') {
      response.writeHead(302, { Location: `${base.origin}/elsewhere` }).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  };
  await expect(http().call('GET', toolPath`/lists`)).rejects.toThrow(
    `Mailchimp at ${base.host} answered GET /lists with 302, sending Sift to ${base.origin}/elsewhere: Sift follows no tool elsewhere`,
  );
  expect(calls).toEqual(['GET /api/lists']);
});

it('refuses an answer past its limit as it arrives, whatever its length says', async () => {
  let sent = 0;
  handler = (_request, response) => {
    // No length given, and more than the limit on its way a megabyte at a time.
    response.writeHead(200, { 'Content-Type': 'application/json' });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const more = () => {
      while (sent <= answerLimitBytes + chunk.length * 4) {
        sent += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', more);
      }
      response.end();
    };
    response.on('error', () => undefined);
    more();
  };
  await expect(http().call('GET', toolPath`/lists`)).rejects.toThrow(
    `Mailchimp at ${base.host} answered GET /lists with more than 16 MB: no page Sift asks for is near that size`,
  );
});

it("stops at once on a Retry-After past an hour, with the tool's words, and waits out a short one", async () => {
  calls.length = 0;
  handler = (_request, response) => {
    response.writeHead(429, { 'Retry-After': '2000000', 'Content-Type': 'application/json' }).end(
      JSON.stringify({
        title: 'Too Many Requests',
        detail: 'You have exceeded the limit of 10 simultaneous connections.',
      }),
    );
  };
  const started = Date.now();
  await expect(http().call('GET', toolPath`/lists`)).rejects.toThrow(
    `Mailchimp at ${base.host} asks Sift to wait 555 h 33 min before GET /lists (Retry-After: 2000000); Sift waits at most 1 h, so it stops here and goes on from where it stopped when run again. Mailchimp said: Too Many Requests: You have exceeded the limit of 10 simultaneous connections.`,
  );
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(calls).toHaveLength(1);

  let answered = 0;
  handler = (_request, response) => {
    answered += 1;
    if (answered === 1) response.writeHead(429, { 'Retry-After': '0' }).end();
    else response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
  };
  expect((await http().call('GET', toolPath`/lists`)).body).toEqual({ ok: true });
  expect(answered).toBe(2);
});

it('stops reading a roster that claims more members than the disk can hold, and one that runs past its claim', async () => {
  const member = (n: number) => ({ member_id: n.toString(16).padStart(32, '0'), email: `m${n}@example.com` });
  let claimed = 1e12;
  handler = (request, response) => {
    const page = Number(new URL(request.url!, base).searchParams.get('page'));
    const entries = Array.from({ length: 500 }, (_, at) => member((page - 1) * 500 + at + 1));
    response
      .writeHead(200, { 'Content-Type': 'application/json' })
      .end(JSON.stringify({ total_size: claimed === 1e12 || page === 1 ? claimed : page * 500 + 500, entries }));
  };
  const connector = mailmanConnector(base.href, 'admin', 'the-secret');
  const read = async () => {
    const store = openSyncStore(await mkdtemp(join(folder, 'data-')));
    try {
      const sync = store.start('lists', 'big.example.com', Date.now(), subscribedOnly);
      const path = join(folder, `members-${claimed}.csv`);
      const error = await readMembers(store, connector, sync, path, () => undefined).then(
        () => undefined,
        (thrown: unknown) => thrown as Error,
      );
      return { error, lines: (await readFile(path, 'utf8')).split('\n').length - 2 };
    } finally {
      store.close();
    }
  };
  const trillion = await read();
  expect(trillion.error?.message).toMatch(
    /^Mailman says the list holds 1,000,000,000,000 members: about [\d,]+ MB more to keep, and the disk holding .* has [\d,]+ MB free\. Sift stopped reading; free some space and sync again to go on\. Nothing was written\.$/,
  );
  expect(trillion.lines).toBe(500);

  // A claim of 1,000 that grows with every page, so the pages never end: read to twice the first claim and a
  // page more, then stopped.
  claimed = 1000;
  const endless = await read();
  expect(endless.error?.message).toBe(
    'Mailman said the list holds 1,000 members, yet its pages went on to 3,500 and more: Sift stopped reading (it reads at most twice what a tool claims, and a page more). Nothing was written.',
  );
  expect(endless.lines).toBe(3500);
});
