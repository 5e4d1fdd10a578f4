// A webhook receiver on loopback that records each delivery's raw bytes and answers what the test scripts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type Received = { body: Buffer; signature: string | undefined; at: number };

export async function startReceiver(answer: (attempt: number) => number) {
  const received: Received[] = [];
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    received.push({
      body: Buffer.concat(chunks),
      signature: request.headers['service-signature'] as string | undefined,
      at: Date.now(),
    });
    response.writeHead(answer(received.length));
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
