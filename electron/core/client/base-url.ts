// The service's address as a person gives it (`http://127.0.0.1:8080`, `https://api.example.com/verifier/v1/`),
// checked once and made into the API root every call is built on: `{base_url}/v1`, never with `/v1` twice,
// and joined by plain concatenation onto an origin, so no call can become a protocol-relative `//path`.
import { isIPv4 } from 'node:net';
import { baseUrlMayEndWithApiPrefix } from '../wire/assumptions.ts';
import { apiPrefix, type KeyMode } from '../wire/spec.ts';
import { ServiceClientError } from './client-errors.ts';

/** `{base_url}/v1` without a trailing slash, and the host errors name. */
export type ApiRoot = { href: string; host: string };

/** Refuses, with a reason, a base URL Sift must not send a key to. Messages name at most the host: the rest may hold secrets. */
export function apiRootFrom(baseUrl: string, mode: KeyMode): ApiRoot {
  const refuse = (why: string, code = 'invalid_base_url') =>
    new ServiceClientError('configuration', `The service base URL ${why}`, { code });
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw refuse('must be an http or https URL, such as https://api.example.com.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw refuse(`must be an http or https URL, not ${url.protocol.slice(0, -1)}.`);
  }
  if (url.username || url.password) {
    throw refuse('must not hold a user name or password (user:pass@): the API key is the only credential.');
  }
  if (url.search || url.hash || /[?#]/.test(baseUrl)) {
    throw refuse('must not have a query string or fragment (?… or #…): give only the service’s address.');
  }
  if (url.protocol === 'http:' && mode === 'live' && !isLoopback(url.hostname)) {
    throw refuse(
      `for ${url.host} must use https with a live key: over http the key would travel in clear. ` +
        '(http is fine for a service on this computer, or with a sandbox key.)',
      'insecure_base_url',
    );
  }
  let path = url.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  if (!(baseUrlMayEndWithApiPrefix && path.endsWith(apiPrefix))) path += apiPrefix;
  return { href: `${url.origin}${path}`, host: url.host };
}

/** The URL of one call: the root, then a path from the wire module, then the query. */
export function apiUrl(root: ApiRoot, path: string, query: Record<string, string | undefined> = {}): string {
  const url = new URL(`${root.href}${path}`);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

/** 127.0.0.0/8, ::1 and localhost: a key sent there never leaves this computer. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || (isIPv4(host) && host.startsWith('127.'));
}
