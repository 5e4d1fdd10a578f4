// Why a request never got an answer, in words a person can act on. fetch reports these as
// `TypeError: fetch failed` with the system's error (a code such as ECONNREFUSED) as its cause.

type SystemError = { code?: string; message?: string; errors?: SystemError[]; cause?: SystemError };

const tlsFailed = 'the secure (TLS) connection failed';
/** System codes of a TLS handshake that failed (the server spoke another protocol, say). */
const tlsCode = /SSL|TLS|EPROTO/;
const dropped = 'the connection was dropped before an answer came';
const connectTimedOut = ['connecting timed out', 'The host may be down, or a firewall in the way.'] as const;
const untrusted = [tlsFailed, 'Its certificate is not signed by an authority this computer trusts.'] as const;

/** By system error code: what happened, and what a person might do about it. */
const failures: Record<string, readonly [what: string, advice?: string]> = {
  ECONNREFUSED: [
    'the connection was refused',
    'Nothing is listening there: is the service running, and is the base URL right?',
  ],
  ENOTFOUND: ['no host by that name was found', 'Check the base URL.'],
  EAI_AGAIN: ['the host name could not be looked up just now', 'Check the network connection.'],
  ECONNRESET: [dropped],
  UND_ERR_SOCKET: [dropped],
  EPIPE: ['the connection was dropped while the request was being sent'],
  ETIMEDOUT: connectTimedOut,
  UND_ERR_CONNECT_TIMEOUT: connectTimedOut,
  EHOSTUNREACH: ['the host is unreachable from this network'],
  ENETUNREACH: ['its network is unreachable from here'],
  CERT_HAS_EXPIRED: [tlsFailed, 'Its certificate has expired.'],
  CERT_NOT_YET_VALID: [tlsFailed, 'Its certificate is not valid yet: is this computer’s clock right?'],
  DEPTH_ZERO_SELF_SIGNED_CERT: [tlsFailed, 'Its certificate is self-signed, so it cannot be trusted.'],
  SELF_SIGNED_CERT_IN_CHAIN: [tlsFailed, 'Its certificate chain ends in a self-signed certificate.'],
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: untrusted,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: untrusted,
  ERR_TLS_CERT_ALTNAME_INVALID: [tlsFailed, 'Its certificate is for a different host name.'],
};

/** Failures fetch reports by message alone, without a code. */
const byMessage: Record<string, string> = {
  'unexpected redirect':
    'the service answered with a redirect, which Sift does not follow (the key would go along). Give the address it redirects to.',
  'bad port': 'fetch refuses to connect to that port, which belongs to another protocol. Use another port.',
};

/** The innermost system error; an AggregateError (one per address tried) gives its first. */
function systemErrorOf(error: unknown): SystemError {
  let found = (error ?? {}) as SystemError;
  while (found.code === undefined && (found.cause || found.errors?.length)) found = found.cause ?? found.errors![0]!;
  return found;
}

/**
 * Failures another try would meet again: fetch's own refusals (a blocked port, a redirect) and a
 * certificate or protocol the service will still have in a moment. A refused connection or a lost one
 * may pass (a service restarting, a network coming back), so those are tried again.
 */
export function isLastingNetworkFailure(error: unknown): boolean {
  const { code, message } = systemErrorOf(error);
  if (code === undefined) return message !== undefined && byMessage[message] !== undefined;
  return failures[code]?.[0] === tlsFailed || tlsCode.test(code);
}

/** One or two sentences, the first in lower case: "the connection was refused (ECONNREFUSED). Nothing is …". */
export function describeNetworkFailure(error: unknown): string {
  const { code, message } = systemErrorOf(error);
  const known = code === undefined ? undefined : failures[code];
  const [what, advice] =
    known ??
    (code && tlsCode.test(code)
      ? [tlsFailed, 'The server did not answer in TLS: is it an http:// address?']
      : [undefined, undefined]);
  if (what) return `${what} (${code}).${advice ? ` ${advice}` : ''}`;
  if (message && byMessage[message]) return byMessage[message];
  return `${code ?? message ?? String(error)}.`;
}
