// Proves a SOCKS5 proxy before any mail server is named: its greeting (RFC 1928 §3) and its user name
// and password step (RFC 1929), then a goodbye. Needs no DNS, so `sift service` and Settings can always
// tell a wrong password, a proxy that is not there, or one that asks for no password at all.
import type { Socket } from 'node:net';
import { ProxyFailure, reachProxy, type ProxyEndpoint } from './socks-proxy.ts';

export type ProxyProof =
  | { auth: 'password' }
  /** A password is set, but the proxy let us in without one: anyone who reaches it may use it. */
  | { auth: 'none_needed' }
  | { auth: 'none' };

const noAuth = 0x00;
const userPassword = 0x02;
const noneAcceptable = 0xff;

/** Reads exactly `length` bytes, or fails as the proxy breaking off. */
function readBytes(socket: Socket, length: number, proxy: ProxyEndpoint, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const done = (error?: Error) => {
      clearTimeout(timer);
      socket.removeListener('data', onData);
      socket.removeListener('close', onClose);
      socket.removeListener('error', onClose);
      if (error) reject(error);
      else resolve(buffered.subarray(0, length));
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length >= length) done();
    };
    const onClose = () => done(new ProxyFailure('broken', proxy.label, 'hung up during the SOCKS5 handshake'));
    const timer = setTimeout(
      () => done(new ProxyFailure('unreachable', proxy.label, 'did not answer the SOCKS5 greeting in time')),
      timeoutMs,
    );
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.once('error', onClose);
  });
}

/** The greeting and, where the proxy asks for it, the password; throws ProxyFailure naming what went wrong. */
export async function proveProxy(proxy: ProxyEndpoint, timeoutMs: number): Promise<ProxyProof> {
  const socket = await reachProxy(proxy, timeoutMs);
  try {
    const hasPassword = proxy.userId !== undefined;
    const offered = hasPassword ? [noAuth, userPassword] : [noAuth];
    socket.write(Buffer.from([5, offered.length, ...offered]));
    const [version, method] = await readBytes(socket, 2, proxy, timeoutMs);
    if (version !== 5)
      throw new ProxyFailure('broken', proxy.label, 'is not a SOCKS5 proxy (its greeting was not SOCKS5)');
    if (method === noneAcceptable) {
      throw hasPassword
        ? new ProxyFailure('auth', proxy.label, 'takes no user name and password (it offers no way in that Sift knows)')
        : new ProxyFailure('auth', proxy.label, 'asks for a user name and password, and none is set for it');
    }
    if (method === noAuth) return { auth: hasPassword ? 'none_needed' : 'none' };
    if (method !== userPassword)
      throw new ProxyFailure('broken', proxy.label, `chose a way in Sift did not offer (${method})`);
    const user = Buffer.from(proxy.userId ?? '');
    const password = Buffer.from(proxy.password ?? '');
    socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([password.length]), password]));
    const [, status] = await readBytes(socket, 2, proxy, timeoutMs);
    if (status !== 0) throw new ProxyFailure('auth', proxy.label, 'refused the user name and password');
    return { auth: 'password' };
  } finally {
    socket.destroy();
  }
}
