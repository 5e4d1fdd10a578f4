// Mailchimp's batch operations in the project's Mailchimp test server (mailchimp-server.ts), as Mailchimp's
// guide "Use Batch Operations" describes them: POST /3.0/batches takes `operations` ({method, path,
// operation_id, body as a JSON string}) and answers the batch pending; the operations run one after another
// on the server's side, each exactly as the same call alone would (the same rules, recorded in the same
// log); GET /3.0/batches/{id} says its status, and once `finished` its `response_body_url`: a gzipped tar of
// JSON files, each an array of {status_code, operation_id, response}, served without the key as Mailchimp's
// signed storage address is. How fast Mailchimp runs a batch is not documented: here, as fast as the
// server can, a few hundred operations between yields.
import { Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import tarStream from 'tar-stream';

type Result = { status_code: number; operation_id: string; response: string };
type Batch = { status: 'pending' | 'started' | 'finished'; total: number; results: Result[] };
type Operation = { method: string; path: string; operation_id?: string; body?: string };

/** A call as the server's own handler takes it: a request and a response it writes to. */
export type CallHandler = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<void>;

/** One call run through the server's handler, as if it came over HTTP with `authorization`. */
async function runCall(handle: CallHandler, authorization: string, operation: Operation): Promise<Result> {
  const request = Object.assign(Readable.from(operation.body ? [operation.body] : []), {
    method: operation.method,
    headers: { authorization },
  }) as unknown as IncomingMessage;
  let status = 200;
  let text = '';
  const response = {
    setHeader: () => undefined,
    writeHead(code: number) {
      status = code;
      return response;
    },
    end(body?: string) {
      text = body ?? '';
      return response;
    },
  } as unknown as ServerResponse;
  await handle(request, response, new URL(`/3.0${operation.path}`, 'http://127.0.0.1'));
  return { status_code: status, operation_id: operation.operation_id ?? '', response: text };
}

/** The results archive: a gzipped tar of JSON files of at most 1,000 results each. */
async function archiveOf(id: string, results: Result[]): Promise<Buffer> {
  const pack = tarStream.pack();
  for (let at = 0; at < results.length; at += 1000)
    pack.entry({ name: `${id}/${at / 1000}.json` }, JSON.stringify(results.slice(at, at + 1000)));
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

export function chimpBatches(handle: CallHandler, origin: () => string) {
  const batches = new Map<string, Batch>();
  /** While held, a batch sent stays pending (a test stops Sift while it waits). */
  let held: (() => void) | undefined;
  let holding: Promise<void> = Promise.resolve();
  /** How often a batch's status was asked. */
  let polls = 0;
  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(body));
  };
  const viewOf = (id: string, batch: Batch) => ({
    id,
    status: batch.status,
    total_operations: batch.total,
    finished_operations: batch.results.length,
    errored_operations: batch.results.filter((each) => each.status_code >= 400).length,
    response_body_url: batch.status === 'finished' ? `${origin()}/batch-results/${id}.tar.gz` : '',
  });
  const run = async (id: string, batch: Batch, operations: Operation[], authorization: string) => {
    batch.status = 'started';
    for (const [at, operation] of operations.entries()) {
      batch.results.push(await runCall(handle, authorization, operation));
      if (at % 200 === 199) await new Promise((resolve) => setImmediate(resolve));
    }
    batch.status = 'finished';
    void id;
  };
  return {
    batches,
    polls: () => polls,
    hold(on: boolean) {
      if (on && !held) holding = new Promise((resolve) => (held = resolve));
      if (!on) {
        held?.();
        held = undefined;
      }
    },
    /** The results archive, served without the key: false when the path is not one. */
    async results(url: URL, response: ServerResponse): Promise<boolean> {
      const id = /^\/batch-results\/([^/]+)\.tar\.gz$/.exec(url.pathname)?.[1];
      if (!id) return false;
      const batch = batches.get(id);
      if (!batch || batch.status !== 'finished') return (send(response, 404, { title: 'Not Found' }), true);
      response.writeHead(200, { 'Content-Type': 'application/x-gzip' }).end(await archiveOf(id, batch.results));
      return true;
    },
    /** POST /3.0/batches and GET /3.0/batches/{id}: false when the call is not one. */
    async handle(request: IncomingMessage, response: ServerResponse, parts: string[], body: unknown) {
      if (parts[0] !== 'batches') return false;
      if (request.method === 'POST' && parts.length === 1) {
        const operations = (body as { operations?: Operation[] }).operations;
        if (!Array.isArray(operations) || operations.some((each) => !each.method || !each.path))
          return (
            send(response, 400, {
              title: 'Invalid Resource',
              detail: "operations: each needs a method and a path (this server's words).",
            }),
            true
          );
        const id = `b${batches.size + 1}`;
        const batch: Batch = { status: 'pending', total: operations.length, results: [] };
        batches.set(id, batch);
        const authorization = request.headers.authorization ?? '';
        void holding.then(() => setTimeout(() => void run(id, batch, operations, authorization), 20));
        send(response, 200, viewOf(id, batch));
        return true;
      }
      const batch = request.method === 'GET' && parts.length === 2 ? batches.get(parts[1]!) : undefined;
      if (!batch)
        return (
          send(response, 404, { title: 'Resource Not Found', detail: 'The requested resource could not be found.' }),
          true
        );
      polls += 1;
      send(response, 200, viewOf(parts[1]!, batch));
      return true;
    },
  };
}
