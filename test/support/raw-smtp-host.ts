// A hand-written mail server for the engine's tests, scripted line by line: real replies quoted verbatim
// (multi-line, odd codes, out of turn), and hostile ones that never stop talking. Every flood is bounded
// (at most 64 MB and 20 s per connection) and stops when the client hangs up; what it managed to write
// is logged, so a test can see that the client stopped listening.
import { createServer, type Socket } from 'node:net';

/** What the server writes: text as it is (CRLFs included), a flood, or nothing. */
type RawAnswer = string | { flood: 'continuation' | 'endless-line' } | undefined;
/** Called with undefined when a client connects, then with each command line it sends. */
export type RawScript = (command: string | undefined) => RawAnswer;

export type RawHostLog = {
  connections: number;
  commands: string[];
  rcpts: { at: number; address: string }[];
  written: number;
};

const floodBytes = 64 * 1024 * 1024;
const floodMs = 20_000;

export async function startRawHost(
  ip: string,
  port: number,
  script: RawScript,
  log: RawHostLog,
  now: () => number,
): Promise<() => Promise<void>> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    log.connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    const say = (answer: RawAnswer) => {
      if (answer === undefined || socket.destroyed) return;
      if (typeof answer === 'string') {
        log.written += answer.length;
        socket.write(answer);
      } else flood(socket, answer.flood, log);
    };
    say(script(undefined));
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n'); end !== -1; end = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        log.commands.push(line);
        if (/^RCPT TO:/i.test(line))
          log.rcpts.push({ at: now(), address: line.slice(9).replace(/[<>]/g, '').toLowerCase() });
        if (/^QUIT/i.test(line)) {
          socket.end('221 2.0.0 Bye\r\n');
          return;
        }
        say(script(line));
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, ip, () => (server.removeListener('error', reject), resolve()));
  });
  return () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

/** Writes without end (bounded) until the client goes: reply lines that never finish, or one line that never ends. */
function flood(socket: Socket, kind: 'continuation' | 'endless-line', log: RawHostLog): void {
  const chunk =
    kind === 'continuation'
      ? '250-flood flood flood flood flood flood flood flood flood flood\r\n'.repeat(1024)
      : 'x'.repeat(64 * 1024);
  const stopAt = Date.now() + floodMs;
  let sent = 0;
  const more = () => {
    while (!socket.destroyed && sent < floodBytes && Date.now() < stopAt) {
      sent += chunk.length;
      log.written += chunk.length;
      if (!socket.write(chunk)) return void socket.once('drain', more);
    }
    if (!socket.destroyed) socket.destroy();
  };
  if (kind === 'endless-line') {
    socket.write('250-');
  }
  more();
}
