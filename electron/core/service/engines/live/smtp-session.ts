// One SMTP conversation with one mail server, one command at a time: banner, EHLO (or HELO), STARTTLS
// when offered, and whatever commands the prober sends. It refuses to send DATA or BDAT, or any line
// that would smuggle in a second command, so no message can ever be delivered through it. What the server
// may send is bounded (RFC 5321 §4.5.3.1.5 allows a reply line 512 octets): a line over 1 KB, a reply over
// 100 lines or 64 KB, or a reply nobody asked for ends the conversation as a protocol error, so a server
// that floods or speaks out of turn can neither grow the service's memory nor shift one answer onto the
// next question.
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { withoutControls } from '../../../../common/terminal-text.ts';

export type SmtpReply = { code: number; enhanced?: string; text: string };

export type SmtpFailureKind = 'refused' | 'timeout' | 'dropped' | 'protocol';
/** The conversation could not go on: the server was not there, too slow, or hung up. */
export class SmtpFailure extends Error {
  readonly kind: SmtpFailureKind;
  /** Whether the server had spoken at all: a timeout before the banner is how a blocked port looks. */
  readonly greeted: boolean;
  constructor(kind: SmtpFailureKind, message: string, greeted: boolean) {
    super(message);
    this.kind = kind;
    this.greeted = greeted;
  }
}

export type SmtpSession = {
  banner: SmtpReply;
  /** Sends one command and reads its reply. */
  send(command: string): Promise<SmtpReply>;
  /** EHLO, falling back to HELO; then STARTTLS if the server offers it. Returns the last greeting's reply. */
  hello(name: string): Promise<{ reply: SmtpReply; tls: 'none' | 'ok' | 'certificate_not_trusted' }>;
  /** QUIT, politely and briefly; the socket is closed whatever the server does. */
  close(): Promise<void>;
};

const forbidden = /^(DATA|BDAT)\b/i;
const enhancedCode = /^([245]\.\d{1,3}\.\d{1,3})\s/;

const replyLimits = { lineBytes: 1024, lines: 100, replyBytes: 64 * 1024 };

export function parseReply(lines: string[]): SmtpReply {
  const code = Number(lines[0]!.slice(0, 3));
  const text = withoutControls(
    lines
      .map((line) => line.slice(4))
      .join(' ')
      .trim(),
  );
  const enhanced = enhancedCode.exec(text)?.[1];
  return { code, ...(enhanced ? { enhanced } : {}), text };
}

export async function openSmtpSession(options: {
  address: string;
  port: number;
  servername: string;
  timeoutMs: number;
  /** A connection already made to the server (through a proxy); else one is opened to address:port. */
  socket?: Socket;
}): Promise<SmtpSession> {
  let socket: Socket | TLSSocket = options.socket ?? connect({ host: options.address, port: options.port });
  socket.setNoDelay(true);
  let greeted = false;
  /** The start of a line whose end has not come yet. */
  let partial = '';
  let replyLines: string[] = [];
  let replyBytes = 0;
  /** Replies owed: the banner, then one per command sent. */
  let owed = 1;
  const replies: SmtpReply[] = [];
  let waiter: { resolve: (reply: SmtpReply) => void; reject: (error: Error) => void } | undefined;
  let ended: SmtpFailure | undefined;

  const broke = (why: string) => {
    fail(new SmtpFailure('protocol', `${options.servername} ${why}`, true));
    socket.destroy();
  };
  const onLine = (line: string) => {
    replyBytes += line.length;
    replyLines.push(line);
    if (replyLines.length > replyLimits.lines || replyBytes > replyLimits.replyBytes) {
      return broke(`sent a reply of over ${replyLimits.lines} lines or ${replyLimits.replyBytes / 1024} KB`);
    }
    // The last line of a reply has a space (or nothing) after its code.
    if (line.length > 3 && line[3] === '-') return;
    const reply = parseReply(replyLines);
    replyLines = [];
    replyBytes = 0;
    greeted = true;
    if (owed === 0) return broke('spoke out of turn (a reply before its command was sent)');
    owed -= 1;
    if (waiter) {
      const { resolve } = waiter;
      waiter = undefined;
      resolve(reply);
    } else replies.push(reply);
  };
  const onData = (chunk: Buffer) => {
    if (ended) return;
    // Only the new bytes are scanned for a line's end; what came before had none.
    const text = chunk.toString('latin1');
    let from = 0;
    for (let newline = text.indexOf('\n'); newline !== -1 && !ended; newline = text.indexOf('\n', from)) {
      const line = (partial + text.slice(from, newline)).replace(/\r$/, '');
      partial = '';
      from = newline + 1;
      if (line.length > replyLimits.lineBytes) return broke(`sent a reply line of over ${replyLimits.lineBytes} bytes`);
      onLine(line);
    }
    if (ended) return;
    partial += text.slice(from);
    if (partial.length > replyLimits.lineBytes) broke(`sent over ${replyLimits.lineBytes} bytes without a line's end`);
  };
  const fail = (failure: SmtpFailure) => {
    ended ??= failure;
    if (waiter) {
      const { reject } = waiter;
      waiter = undefined;
      reject(ended);
    }
  };
  const watch = (target: Socket | TLSSocket) => {
    target.on('data', onData);
    target.on('error', (error: NodeJS.ErrnoException) =>
      fail(
        new SmtpFailure(
          error.code === 'ECONNREFUSED' ? 'refused' : 'dropped',
          `${options.servername}: ${error.code ?? error.message}`,
          greeted,
        ),
      ),
    );
    target.on('close', () => fail(new SmtpFailure('dropped', `${options.servername} closed the connection`, greeted)));
  };
  watch(socket);

  function nextReply(): Promise<SmtpReply> {
    const queued = replies.shift();
    if (queued) return Promise.resolve(queued);
    if (ended) return Promise.reject(ended);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiter = undefined;
        const failure = new SmtpFailure('timeout', `${options.servername} did not answer in time`, greeted);
        ended ??= failure;
        socket.destroy();
        reject(failure);
      }, options.timeoutMs);
      waiter = {
        resolve: (reply) => (clearTimeout(timer), resolve(reply)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
    });
  }

  async function send(command: string): Promise<SmtpReply> {
    if (forbidden.test(command) || /[\r\n]/.test(command)) throw new Error(`Sift never sends this: ${command}`);
    if (ended) throw ended;
    owed += 1;
    socket.write(`${command}\r\n`);
    const reply = await nextReply();
    if (reply.code >= 300 && reply.code < 400) {
      // Only DATA earns a 3xx: a server that says "send the message" now would take any further line as
      // one, so Sift hangs up at once, without another word (not even QUIT).
      ended = new SmtpFailure(
        'dropped',
        `${options.servername} asked for a message (${reply.code}); Sift hung up`,
        true,
      );
      socket.destroy();
    }
    return reply;
  }

  async function startTls(): Promise<'ok' | 'certificate_not_trusted'> {
    socket.removeListener('data', onData);
    const plain = socket as Socket;
    // A verifier cannot choose the server's certificate: an untrusted one is noted, not refused.
    const secure = tlsConnect({ socket: plain, servername: options.servername, rejectUnauthorized: false });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new SmtpFailure('timeout', 'TLS handshake timed out', true)),
        options.timeoutMs,
      );
      secure.once('secureConnect', () => (clearTimeout(timer), resolve()));
      secure.once('error', (error) => (clearTimeout(timer), reject(new SmtpFailure('dropped', error.message, true))));
    });
    socket = secure;
    watch(secure);
    return secure.authorized ? 'ok' : 'certificate_not_trusted';
  }

  const banner = await nextReply().catch((error: unknown) => {
    socket.destroy();
    throw error;
  });

  return {
    banner,
    send,
    async hello(name) {
      let reply = await send(`EHLO ${name}`);
      if (reply.code >= 500) return { reply: await send(`HELO ${name}`), tls: 'none' };
      if (reply.code !== 250 || !/\bSTARTTLS\b/i.test(reply.text)) return { reply, tls: 'none' };
      const ready = await send('STARTTLS');
      if (ready.code !== 220) return { reply, tls: 'none' };
      const tls = await startTls();
      reply = await send(`EHLO ${name}`);
      return { reply, tls };
    },
    async close() {
      if (!ended) {
        owed += 1;
        socket.write('QUIT\r\n');
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          nextReply().catch(() => undefined),
          new Promise((resolve) => (timer = setTimeout(resolve, 1000))),
        ]);
        clearTimeout(timer);
      }
      ended ??= new SmtpFailure('dropped', 'closed', greeted);
      socket.destroy();
    },
  };
}
