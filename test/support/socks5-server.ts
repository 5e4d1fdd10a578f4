// A small SOCKS5 server (RFC 1928, user/password per RFC 1929) on loopback for the live engine's tests:
// it makes its outgoing connections from its own loopback address (its "egress"), so a mail world that
// accepts only that address proves a conversation came through it; it counts connections and can be
// killed mid-batch, as a proxy machine that goes away.
import { connect, createServer, type Socket } from 'node:net';

export type Socks5Server = {
  /** `socks5://[user:password@]127.0.0.1:port` */
  url: string;
  /** `socks5://127.0.0.1:port`, as Sift names it. */
  label: string;
  /** Connections relayed to a target, and each target as `address:port`. */
  relayed: string[];
  /** Drops every open connection and stops listening: later connections are refused. */
  kill(): Promise<void>;
};

const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);

export async function startSocks5Server(options: {
  egress: string;
  user?: string;
  password?: string;
}): Promise<Socks5Server> {
  const sockets = new Set<Socket>();
  const relayed: string[] = [];
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  };

  const server = createServer((client) => {
    track(client);
    let buffer = Buffer.alloc(0);
    let stage: 'greeting' | 'auth' | 'request' | 'relaying' = 'greeting';
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (stage === 'greeting') {
          if (buffer.length < 2 || buffer.length < 2 + buffer[1]!) return;
          const methods = [...buffer.subarray(2, 2 + buffer[1]!)];
          buffer = buffer.subarray(2 + buffer[1]!);
          const wanted = options.user === undefined ? 0 : 2;
          if (!methods.includes(wanted)) return void client.end(Buffer.from([5, 0xff]));
          client.write(Buffer.from([5, wanted]));
          stage = wanted === 2 ? 'auth' : 'request';
        } else if (stage === 'auth') {
          if (buffer.length < 2) return;
          const userLength = buffer[1]!;
          if (buffer.length < 3 + userLength) return;
          const passwordLength = buffer[2 + userLength]!;
          if (buffer.length < 3 + userLength + passwordLength) return;
          const user = buffer.subarray(2, 2 + userLength).toString();
          const password = buffer.subarray(3 + userLength, 3 + userLength + passwordLength).toString();
          buffer = buffer.subarray(3 + userLength + passwordLength);
          if (user !== options.user || password !== options.password) return void client.end(Buffer.from([1, 1]));
          client.write(Buffer.from([1, 0]));
          stage = 'request';
        } else if (stage === 'request') {
          // Only CONNECT to an IPv4 address: Sift resolves names itself and gives the proxy addresses.
          if (buffer.length < 10) return;
          if (buffer[1] !== 1 || buffer[3] !== 1) return void client.end(reply(7));
          const address = [...buffer.subarray(4, 8)].join('.');
          const port = buffer.readUInt16BE(8);
          buffer = buffer.subarray(10);
          stage = 'relaying';
          client.removeListener('data', onData);
          client.pause();
          const upstream = connect({ host: address, port, localAddress: options.egress });
          track(upstream);
          upstream.once('error', (error: NodeJS.ErrnoException) =>
            client.end(reply(error.code === 'ECONNREFUSED' ? 5 : 4)),
          );
          upstream.once('connect', () => {
            relayed.push(`${address}:${port}`);
            client.write(reply(0));
            if (buffer.length > 0) upstream.write(buffer);
            client.pipe(upstream);
            upstream.pipe(client);
            client.resume();
            client.on('close', () => upstream.destroy());
            upstream.on('close', () => client.destroy());
          });
          return;
        } else return;
      }
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const credentials =
    options.user === undefined
      ? ''
      : `${encodeURIComponent(options.user)}:${encodeURIComponent(options.password ?? '')}@`;
  return {
    url: `socks5://${credentials}127.0.0.1:${port}`,
    label: `socks5://127.0.0.1:${port}`,
    relayed,
    async kill() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
