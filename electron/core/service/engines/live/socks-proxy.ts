// SMTP conversations sent out through a SOCKS5 proxy, for machines whose own network blocks port 25: the
// proxy's machine opens the connection to the mail server, DNS stays local (the proxy is given an
// address, never a name). A failure of the proxy itself (not there, wrong password, will not go to
// port 25) is told apart from the mail server's, so the engine can move the work to another egress
// instead of counting it against the address. A proxy is named by its label, which never holds the
// password.
import { connect, type Socket } from 'node:net';
import type { SocksClient } from 'socks';
import { createRequire } from 'node:module';
import { lazyPackage } from '../../../lazy-package.ts';
import { SmtpFailure } from './smtp-session.ts';
import { maskUrlCredentials } from '../../../../common/url-credentials.ts';

const require = createRequire(import.meta.url);

const socks = lazyPackage<{ SocksClient: typeof SocksClient }>(() => require('socks'));

export type ProxyEndpoint = {
  /** `socks5://host:port`, for messages and budget keys: never the user name or password. */
  label: string;
  host: string;
  port: number;
  userId?: string;
  password?: string;
};

export type ProxyFailureKind = 'unreachable' | 'auth' | 'not_allowed' | 'broken';
/** The proxy, not the mail server, failed: its work belongs with another egress. */
export class ProxyFailure extends Error {
  readonly kind: ProxyFailureKind;
  readonly proxy: string;
  constructor(kind: ProxyFailureKind, proxy: string, message: string) {
    super(`Proxy ${proxy}: ${message}`);
    this.kind = kind;
    this.proxy = proxy;
  }
}

/** Parses `socks5://[user:pass@]host:port`; refuses anything else with a sentence that says what is wanted. */
export function parseProxyUrl(text: string): ProxyEndpoint {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`A proxy is given as socks5://[user:password@]host:port, not "${maskUrlCredentials(text)}".`);
  }
  if (url.protocol !== 'socks5:' && url.protocol !== 'socks5h:') {
    throw new Error(`Only SOCKS5 proxies are supported (socks5://host:port), not ${url.protocol.replace(/:$/, '')}.`);
  }
  const port = Number(url.port);
  if (!url.hostname || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new Error(`A proxy needs a host and a port (socks5://host:1080), not "${maskUrlCredentials(text)}".`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    label: `socks5://${url.host}`,
    host,
    port,
    ...(url.username ? { userId: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
  };
}

/** Socks5 reply codes after which the fault is the proxy's: it will not make such connections at all. */
const refusedByProxy = /NotAllowed|no accepted authentication|Authentication failed|invalid Socks5/i;

/**
 * A TCP connection to `address:port` through the proxy, ready for the SMTP banner. Throws ProxyFailure when
 * the proxy fails, SmtpFailure (not greeted) when the proxy reports that the mail server could not be
 * reached, as a direct connection would.
 */
export async function connectThroughProxy(
  proxy: ProxyEndpoint,
  address: string,
  port: number,
  timeoutMs: number,
): Promise<Socket> {
  const toProxy = await reachProxy(proxy, timeoutMs);
  try {
    const { socket } = await socks().SocksClient.createConnection({
      proxy: {
        host: proxy.host,
        port: proxy.port,
        type: 5,
        ...(proxy.userId !== undefined ? { userId: proxy.userId, password: proxy.password ?? '' } : {}),
      },
      command: 'connect',
      destination: { host: address, port },
      existing_socket: toProxy,
      timeout: timeoutMs,
    });
    return socket;
  } catch (error) {
    toProxy.destroy();
    throw classify(proxy, address, port, error);
  }
}

/**
 * Whether the proxy itself still answers, asked when a conversation through it broke: a mail server that
 * hung up is the server's answer, a proxy that went away is ours to put right (undefined: it answers).
 */
export async function proxyFailureNow(proxy: ProxyEndpoint, timeoutMs: number): Promise<ProxyFailure | undefined> {
  try {
    (await reachProxy(proxy, timeoutMs)).destroy();
    return undefined;
  } catch (error) {
    if (error instanceof ProxyFailure) return error;
    throw error;
  }
}

export async function reachProxy(proxy: ProxyEndpoint, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: proxy.host, port: proxy.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new ProxyFailure('unreachable', proxy.label, `did not answer within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new ProxyFailure('unreachable', proxy.label, `could not be reached (${error.code ?? error.message})`));
    });
  });
}

function classify(proxy: ProxyEndpoint, address: string, port: number, error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/Authentication failed|no accepted authentication/i.test(message)) {
    return new ProxyFailure('auth', proxy.label, 'refused the user name and password');
  }
  if (/NotAllowed/i.test(message)) {
    return new ProxyFailure('not_allowed', proxy.label, `will not connect to port ${port}`);
  }
  if (refusedByProxy.test(message) || /Socket closed/i.test(message)) {
    return new ProxyFailure('broken', proxy.label, `broke off the SOCKS5 handshake (${message})`);
  }
  if (/rejected connection/i.test(message)) {
    // The proxy is fine; the mail server could not be reached from it, as a refused direct connection.
    return new SmtpFailure('refused', `${address} via ${proxy.label}: ${message.replace(/^.* - /, '')}`, false);
  }
  // Timed out after the proxy had answered: the mail server is silent from there, as a blocked port looks.
  return new SmtpFailure('timeout', `${address} via ${proxy.label}: ${message}`, false);
}
