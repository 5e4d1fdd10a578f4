// A small internet on loopback for the local engine's tests: a DNS server (dns2) answering MX, A,
// null-MX and NXDOMAIN for test domains, and SMTP servers (smtp-server) on 127.0.0.x, each scripted per
// mailbox. Every server logs what it was sent, with times from the test's clock, so tests can assert
// verdicts, that DATA never came, and how fast each host was probed.
import { Resolver } from 'node:dns/promises';
import { createServer as createTcpServer } from 'node:net';
import dns2 from 'dns2';
import { SMTPServer } from 'smtp-server';
import { startRawHost, type RawScript } from './raw-smtp-host.ts';

const { Packet } = dns2;

type MailboxScript = 'accept' | 'reject' | 'greylist' | 'busy' | 'full' | 'policy';
export type HostScript = {
  ip: string;
  /**
   * How the server greets: normally; 421 busy; accepts the connection and never speaks; nothing listens;
   * or "pushy": a hand-written server that answers RCPT with 354, as if DATA had been sent, to coax a
   * message out of the verifier (it logs every line it is sent afterwards).
   */
  greeting?: 'normal' | 'busy' | 'silent' | 'closed' | 'pushy';
  /** Per local part; anything not listed gets `others`. */
  mailboxes?: Record<string, MailboxScript>;
  others?: MailboxScript;
  /** How long a greylisted address is deferred (by the test's clock) after it was first tried. */
  greylistMs?: number;
  /** Hang up after this many RCPTs on a connection. */
  dropAfterRcpts?: number;
  /** Offer STARTTLS (the server's own self-signed certificate). */
  startTls?: boolean;
  /** More MX names for this same server, as hosted mail gives each customer its own name on shared servers. */
  aliases?: string[];
  /** The name its address resolves back to (PTR); the host's own name when not given. */
  ptr?: string;
  /** Refuses the client itself at every RCPT with this reply (a blocklist hit, as Postfix's RBL checks say it). */
  refuseClient?: { code: number; text: string };
  /** Postfix's recipient rate limit: past `max` RCPTs within `perMs` (all clients), 450 4.7.1. */
  rcptRateLimit?: { max: number; perMs: number };
  /** A hand-written server answering each line as scripted (real replies verbatim, floods, out of turn). */
  raw?: RawScript;
};
export type DomainScript = { mx: string[] } | { a: string } | 'null_mx' | 'nxdomain';

export type HostLog = {
  connections: number;
  /** The most connections that were open at once, in all and from each client address. */
  peakOpen: number;
  peakOpenFrom: Record<string, number>;
  /** Connections turned away because they came from an address not accepted (see `acceptOnlyFrom`). */
  refused: number;
  /** Each RCPT, with the address of the client that sent it. */
  rcpts: { at: number; address: string; from?: string }[];
  /** Per connection that sent a RCPT: how many RCPTs were refused or deferred on it. */
  failedPerConnection: number[];
  /** How many RCPTs the recipient rate limit turned away. */
  rateLimited: number;
  commands: string[];
  /** Bytes a raw host wrote (its floods included). */
  written: number;
};

export type MailWorld = {
  resolver: string;
  smtpPort: number;
  logs: Record<string, HostLog>;
  /**
   * From now on, every server answers only connections from these addresses (a proxy's egress); others are
   * refused with a 554 greeting, or with `firewall` cut off before any greeting, as a network that blocks
   * port 25 looks from inside it.
   */
  acceptOnlyFrom(addresses: string[] | undefined, options?: { firewall?: boolean }): void;
  close(): Promise<void>;
};

type Access = { acceptFrom?: string[]; firewall?: boolean };
const turnedAway = (access: Access, from: string | undefined) =>
  access.acceptFrom !== undefined && !access.acceptFrom.includes(from ?? '');

const dnsTtl = 300;

export async function startMailWorld(options: {
  hosts: Record<string, HostScript>;
  domains: Record<string, DomainScript>;
  now?: () => number;
  /** Names under these zones (DNS blocklists, say) are asked of another DNS server, as a recursive resolver would. */
  forward?: { zones: string[]; to: string };
}): Promise<MailWorld> {
  const now = options.now ?? Date.now;
  const dns = dns2.createServer({
    udp: true,
    handle: async (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question!.name.toLowerCase();
      const forward = options.forward;
      if (forward?.zones.some((zone) => name === zone || name.endsWith(`.${zone}`))) {
        return send(await forwarded(response, question!, forward.to));
      }
      const domain = options.domains[name];
      const host = Object.entries(options.hosts).find(
        ([hostName, script]) => hostName === name || script.aliases?.includes(name),
      )?.[1];
      const answer = (record: Record<string, unknown>) =>
        response.answers.push({ name: question!.name, class: Packet.CLASS.IN, ttl: dnsTtl, ...record } as never);
      if (question!.type === Packet.TYPE.MX && domain) {
        if (domain === 'null_mx') answer({ type: Packet.TYPE.MX, exchange: '', priority: 0 });
        else if (domain !== 'nxdomain' && 'mx' in domain) {
          domain.mx.forEach((exchange, i) => answer({ type: Packet.TYPE.MX, exchange, priority: 10 * (i + 1) }));
        }
      } else if (question!.type === Packet.TYPE.A) {
        if (host) answer({ type: Packet.TYPE.A, address: host.ip });
        else if (domain && typeof domain === 'object' && 'a' in domain)
          answer({ type: Packet.TYPE.A, address: domain.a });
      }
      const reverse = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\.in-addr\.arpa$/.exec(name);
      const pointedAt = reverse
        ? Object.entries(options.hosts).find(([, script]) => script.ip === reverse.slice(1).reverse().join('.'))
        : undefined;
      if (question!.type === Packet.TYPE.PTR && pointedAt) {
        answer({ type: Packet.TYPE.PTR, domain: pointedAt[1].ptr ?? pointedAt[0] });
      }
      const known = domain !== undefined || host !== undefined || pointedAt !== undefined;
      if (!known || domain === 'nxdomain') response.header.rcode = 3; // NXDOMAIN
      send(response);
    },
  });
  await dns.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const dnsPort = (dns.addresses() as { udp: { port: number } }).udp.port;

  const logs: Record<string, HostLog> = {};
  const closers: (() => Promise<void>)[] = [() => dns.close()];
  const access: Access = {};
  const smtpPort = await listenEverywhere(options.hosts, logs, now, closers, access);
  return {
    resolver: `127.0.0.1:${dnsPort}`,
    smtpPort,
    logs,
    acceptOnlyFrom(addresses, { firewall = false } = {}) {
      if (addresses) Object.assign(access, { acceptFrom: addresses, firewall });
      else delete access.acceptFrom;
    },
    async close() {
      await Promise.all(closers.map((close) => close()));
    },
  };
}

/** A question answered by another server (A and TXT, as blocklists are asked), or NXDOMAIN when it has none. */
async function forwarded(
  response: ReturnType<typeof Packet.createResponseFromRequest>,
  question: { name: string; type: number },
  to: string,
) {
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([to]);
  const answer = (record: Record<string, unknown>) =>
    response.answers.push({ name: question.name, class: Packet.CLASS.IN, ttl: dnsTtl, ...record } as never);
  try {
    if (question.type === Packet.TYPE.A) {
      for (const address of await resolver.resolve4(question.name)) answer({ type: Packet.TYPE.A, address });
    } else if (question.type === Packet.TYPE.TXT) {
      for (const parts of await resolver.resolveTxt(question.name))
        answer({ type: Packet.TYPE.TXT, data: parts.join('') });
    }
  } catch {
    response.header.rcode = 3; // NXDOMAIN
  }
  return response;
}

/** One port for every host (the engine has one SMTP port), each host on its own loopback address. */
async function listenEverywhere(
  hosts: Record<string, HostScript>,
  logs: Record<string, HostLog>,
  now: () => number,
  closers: (() => Promise<void>)[],
  access: Access,
): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    const started: (() => Promise<void>)[] = [];
    try {
      for (const [name, script] of Object.entries(hosts)) {
        logs[name] = {
          connections: 0,
          peakOpen: 0,
          peakOpenFrom: {},
          refused: 0,
          rcpts: [],
          commands: [],
          failedPerConnection: [],
          rateLimited: 0,
          written: 0,
        };
        if (script.greeting === 'closed') continue;
        started.push(await startHost(name, script, port, logs[name], now, access));
      }
      closers.push(...started);
      return port;
    } catch (error) {
      await Promise.all(started.map((close) => close()));
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  throw new Error('No free port for the test mail servers');
}

type Listener = {
  once(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
  listen(port: number, host: string, callback: () => void): unknown;
};

async function listen(server: Listener, port: number, ip: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, ip, () => {
      server.removeListener('error', onError);
      resolve();
    });
  });
}

const rejection = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

async function startHost(
  name: string,
  script: HostScript,
  port: number,
  log: HostLog,
  now: () => number,
  access: Access,
): Promise<() => Promise<void>> {
  if (script.greeting === 'pushy') return startRawHost(script.ip, port, pushy(name), log, now);
  if (script.raw) return startRawHost(script.ip, port, script.raw, log, now);
  if (script.greeting === 'silent') {
    const sockets = new Set<import('node:net').Socket>();
    const silent = createTcpServer((socket) => {
      log.connections += 1;
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await listen(silent, port, script.ip);
    return () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        silent.close(() => resolve());
      });
  }
  const firstTried = new Map<string, number>();
  const rcptsOn = new Map<string, number>();
  const open = new Map<string, string>();
  /** Per session id: its index in `log.failedPerConnection`. */
  const failedIndex = new Map<string, number>();
  const recentRcpts: number[] = [];
  const server = new SMTPServer({
    name,
    authOptional: true,
    disabledCommands: ['AUTH'],
    hideSTARTTLS: !script.startTls,
    hideENHANCEDSTATUSCODES: true,
    logger: {
      level: () => undefined,
      trace: () => undefined,
      debug: (_entry: unknown, ...parts: unknown[]) => {
        if (parts[0] === 'C:') log.commands.push(String(parts[1]));
      },
      info: () => undefined,
      warn: () => undefined,
      error: () => undefined,
      fatal: () => undefined,
    } as never,
    onConnect(session, callback) {
      if (turnedAway(access, session.remoteAddress)) {
        log.refused += 1;
        return callback(rejection(554, '5.7.1 Connections from your address are not accepted'));
      }
      log.connections += 1;
      open.set(session.id, session.remoteAddress);
      log.peakOpen = Math.max(log.peakOpen, open.size);
      const fromThere = [...open.values()].filter((from) => from === session.remoteAddress).length;
      log.peakOpenFrom[session.remoteAddress] = Math.max(log.peakOpenFrom[session.remoteAddress] ?? 0, fromThere);
      if (script.greeting === 'busy') return callback(rejection(421, 'Too busy, try later'));
      callback();
    },
    onRcptTo(address, session, callback) {
      const email = address.address.toLowerCase();
      log.rcpts.push({ at: now(), address: email, from: session.remoteAddress });
      const onThisConnection = (rcptsOn.get(session.id) ?? 0) + 1;
      rcptsOn.set(session.id, onThisConnection);
      if (script.dropAfterRcpts !== undefined && onThisConnection > script.dropAfterRcpts) {
        // Hang up mid-dialogue, without a reply: smtp-server keeps its connections in a set.
        const connections = (server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> })
          .connections;
        for (const connection of connections) if (connection.id === session.id) connection._socket.destroy();
        return;
      }
      if (!failedIndex.has(session.id)) failedIndex.set(session.id, log.failedPerConnection.push(0) - 1);
      const refuse = (error: Error) => {
        log.failedPerConnection[failedIndex.get(session.id)!]! += 1;
        callback(error);
      };
      if (script.refuseClient) return refuse(rejection(script.refuseClient.code, script.refuseClient.text));
      if (script.rcptRateLimit) {
        const { max, perMs } = script.rcptRateLimit;
        while (recentRcpts.length > 0 && recentRcpts[0]! <= now() - perMs) recentRcpts.shift();
        if (recentRcpts.length >= max) {
          log.rateLimited += 1;
          return refuse(rejection(450, `4.7.1 Error: too many recipients from [${session.remoteAddress}]`));
        }
        recentRcpts.push(now());
      }
      const local = email.slice(0, email.lastIndexOf('@'));
      const mailbox = script.mailboxes?.[local] ?? script.others ?? 'reject';
      if (mailbox === 'accept') return callback();
      return respond(mailbox, email, refuse, () => callback());
    },
    onClose(session) {
      open.delete(session.id);
    },
    onData(stream, _session, callback) {
      log.commands.push('DATA (message body received)');
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  function respond(mailbox: MailboxScript, email: string, refuse: (error: Error) => void, accept: () => void) {
    if (mailbox === 'reject') return refuse(rejection(550, '5.1.1 No such user here'));
    if (mailbox === 'full') return refuse(rejection(552, '5.2.2 Mailbox full'));
    if (mailbox === 'policy') return refuse(rejection(550, '5.7.1 Recipient address rejected: Access denied'));
    if (mailbox === 'busy') return refuse(rejection(421, '4.7.0 Too many connections, slow down'));
    const first = firstTried.get(email) ?? now();
    firstTried.set(email, first);
    if (now() - first >= (script.greylistMs ?? 5 * 60_000)) return accept();
    refuse(rejection(451, '4.7.1 Greylisted, please try again later'));
  }
  server.on('error', () => undefined);
  // Behind a firewall, a connection from elsewhere is reset before the server sees it.
  (server as unknown as { server: import('node:net').Server }).server.prependListener('connection', (socket) => {
    if (!access.firewall || !turnedAway(access, socket.remoteAddress)) return;
    log.refused += 1;
    socket.on('error', () => undefined);
    socket.resetAndDestroy();
  });
  await listen(server, port, script.ip);
  return () => new Promise((resolve) => server.close(() => resolve()));
}

/** A server that answers RCPT with 354, as if DATA had been sent, to coax a message out of the verifier. */
const pushy =
  (name: string): RawScript =>
  (command) => {
    if (command === undefined) return `220 ${name} ESMTP\r\n`;
    if (/^RCPT TO:/i.test(command)) return '354 Start mail input; end with <CRLF>.<CRLF>\r\n';
    return `250 ${name} OK\r\n`;
  };
