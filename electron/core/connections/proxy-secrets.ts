// The live checks' SOCKS5 proxies as the app keeps them: the settings file holds each proxy without its
// password (`socks5://user:•••@host:port`), the vault holds the password (encrypted where the system has a
// keychain), keyed by proxy and user. The renderer only ever sees the masked form; sending it back keeps
// the saved password.
import { createHash } from 'node:crypto';
import { AppError } from '../../common/app-error.ts';
import { keptProxyPassword } from '../../common/settings-schemas.ts';
import { parseProxyUrl, type ProxyEndpoint } from '../service/engines/live/socks-proxy.ts';
import type { KeyVault } from './key-vault.ts';

const idOf = (proxy: ProxyEndpoint) =>
  `proxy_${createHash('sha256')
    .update(`${proxy.label}\0${proxy.userId ?? ''}`)
    .digest('hex')
    .slice(0, 24)}`;

/** The proxy as the settings file and the renderer keep it: its password, if any, as •••. */
function maskedTextOf(proxy: ProxyEndpoint): string {
  const user = proxy.userId === undefined ? '' : encodeURIComponent(proxy.userId);
  const password = proxy.password === undefined ? '' : `:${keptProxyPassword}`;
  return `${proxy.label.replace('://', `://${user}${password}${user || password ? '@' : ''}`)}`;
}

function parsed(text: string): ProxyEndpoint {
  try {
    return parseProxyUrl(text);
  } catch (error) {
    throw new AppError('bad_request', (error as Error).message);
  }
}

/**
 * Each proxy with its password: typed now, or the one saved for it (•••). A saved password that is gone
 * (kept for one run only, on a computer with no keychain) is refused, or with `skipLost` the proxy is left
 * out, as the running engine does: it cannot log in without it.
 */
export function proxyEndpointsOf(texts: readonly string[], vault: KeyVault, skipLost = false): ProxyEndpoint[] {
  return texts.flatMap((text) => {
    const proxy = parsed(text);
    if (proxy.password !== keptProxyPassword) return [proxy];
    const saved = vault.get(idOf(proxy));
    if (saved === undefined) {
      if (skipLost) return [];
      throw new AppError(
        'bad_request',
        `The password for ${proxy.label} is not kept on this computer any more: type it again.`,
      );
    }
    return [{ ...proxy, password: saved }];
  });
}

/**
 * Keeps the proxies: passwords into the vault, the masked texts (what the settings file holds) back.
 * Passwords of proxies no longer listed are removed from the vault.
 */
export function keepProxies(texts: readonly string[], previous: readonly string[], vault: KeyVault): string[] {
  const proxies = proxyEndpointsOf(texts, vault);
  const unique = proxies.filter(
    (proxy, i) => proxies.findIndex((other) => other.label === proxy.label && other.userId === proxy.userId) === i,
  );
  for (const proxy of unique) if (proxy.password !== undefined) vault.put(idOf(proxy), proxy.password);
  const kept = new Set(unique.map(idOf));
  for (const text of previous) {
    const id = idOf(parsed(text));
    if (!kept.has(id)) vault.remove(id);
  }
  return unique.map(maskedTextOf);
}
