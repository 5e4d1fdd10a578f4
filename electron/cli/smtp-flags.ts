// `sift service` flags for the local engine: who it says it is, which resolvers it asks, and how hard it
// may probe. Each bad value is refused with a sentence that says what was expected.
import { isIP } from 'node:net';
import { checkSyntax } from '../core/email/syntax.ts';
import type { SmtpSettings } from '../core/service/engines/live/smtp-settings.ts';
import { parseProxyUrl } from '../core/service/engines/live/socks-proxy.ts';
import { parsePort, UsageError } from './cli-options.ts';

export const smtpFlagOptions = {
  helo: { type: 'string' },
  'mail-from': { type: 'string' },
  'sending-address': { type: 'string' },
  resolver: { type: 'string', multiple: true },
  'smtp-port': { type: 'string' },
  'per-host-rate': { type: 'string' },
  'per-host-concurrency': { type: 'string' },
  concurrency: { type: 'string' },
  'smtp-timeout': { type: 'string' },
  'greylist-retry': { type: 'string' },
  proxy: { type: 'string', multiple: true },
} as const;

export const smtpFlagsUsage = `Local engine (live keys), see the README:
  --helo NAME                 name given in EHLO; its DNS should point back at this machine (or SIFT_HELO)
  --mail-from ADDRESS         envelope sender of every probe, on a domain you own (or SIFT_MAIL_FROM)
  --sending-address IP        the public address checks leave from, looked up in DNS blocklists at start
                              (default: what the HELO name resolves to; or SIFT_SENDING_ADDRESS)
  --resolver HOST[:PORT]      DNS server to ask (repeatable; default: the system's)
  --smtp-port N               mail servers' port (default 25)
  --per-host-rate N           probes per second to one mail host (default 2)
  --per-host-concurrency N    connections at once to one mail host (default 2)
  --concurrency N             connections at once overall (default 20)
  --smtp-timeout SECONDS      for each step of a conversation (default 15)
  --greylist-retry MINUTES,…  waits before retrying a deferred address (default 5,10,20,40)
  --proxy socks5://[USER:PASSWORD@]HOST:PORT
                              send every SMTP conversation out through this SOCKS5 proxy (repeatable:
                              a pool); or SIFT_PROXY, space-separated, which \`ps\` does not show`;

type SmtpFlagValues = {
  [K in keyof typeof smtpFlagOptions]?: K extends 'resolver' | 'proxy' ? string[] : string;
};

function positive(value: string, flag: string, integer: boolean): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0 || (integer && !Number.isInteger(number))) {
    throw new UsageError(`${flag} must be a ${integer ? 'whole ' : ''}number above 0, got "${value}".`);
  }
  return number;
}

/** `127.0.0.1`, `127.0.0.1:5353`, `::1` or `[::1]:5353`: node's resolver takes addresses, not names. */
function resolverAddress(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(value);
  const [host, port] = bracketed
    ? [bracketed[1]!, bracketed[2]]
    : isIP(value)
      ? [value, undefined]
      : [value.slice(0, value.lastIndexOf(':')), value.slice(value.lastIndexOf(':') + 1)];
  if (!isIP(host)) throw new UsageError(`--resolver must be an IP address with an optional :PORT, got "${value}".`);
  if (port !== undefined) parsePort(port, '--resolver port');
  return value;
}

/** Each proxy parsed, once each; a bad one is refused with its password masked. */
function proxiesFrom(texts: string[]): SmtpSettings['proxies'] {
  const proxies = texts.map((text) => {
    try {
      return parseProxyUrl(text);
    } catch (error) {
      throw new UsageError(`--proxy: ${(error as Error).message}`);
    }
  });
  return proxies.filter((proxy, i) => proxies.findIndex((other) => other.label === proxy.label) === i);
}

export function smtpSettingsFromFlags(
  values: SmtpFlagValues,
  env: NodeJS.ProcessEnv = process.env,
): Partial<SmtpSettings> {
  const settings: Partial<SmtpSettings> = {};
  const proxyTexts = [...(values.proxy ?? []), ...(env.SIFT_PROXY ?? '').split(/\s+/).filter(Boolean)];
  if (proxyTexts.length > 0) settings.proxies = proxiesFrom(proxyTexts);
  // SIFT_HELO and SIFT_MAIL_FROM: the server package's settings file (/etc/sift/sift.env) sets them.
  const helo = values.helo ?? (env.SIFT_HELO || undefined);
  const mailFrom = values['mail-from'] ?? (env.SIFT_MAIL_FROM || undefined);
  if (helo !== undefined) {
    if (!/^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(helo)) {
      throw new UsageError(`--helo (or SIFT_HELO) must be a host name such as mail.example.com, got "${helo}".`);
    }
    settings.helo = helo;
  }
  if (mailFrom !== undefined) {
    if (!checkSyntax(mailFrom).ok) {
      throw new UsageError(`--mail-from (or SIFT_MAIL_FROM) must be an email address, got "${mailFrom}".`);
    }
    settings.mailFrom = mailFrom;
  }
  const sending = values['sending-address'] ?? (env.SIFT_SENDING_ADDRESS || undefined);
  if (sending !== undefined) {
    if (!isIP(sending)) {
      throw new UsageError(`--sending-address (or SIFT_SENDING_ADDRESS) must be an IP address, got "${sending}".`);
    }
    settings.sendingAddress = sending;
  }
  if (values.resolver) settings.resolvers = values.resolver.map(resolverAddress);
  if (values['smtp-port'] !== undefined) {
    settings.port = parsePort(values['smtp-port'], '--smtp-port');
    if (settings.port === 0) throw new UsageError('--smtp-port must be from 1 to 65535.');
  }
  if (values['per-host-rate'] !== undefined)
    settings.perHostRate = positive(values['per-host-rate'], '--per-host-rate', false);
  if (values['per-host-concurrency'] !== undefined) {
    settings.perHostConcurrency = positive(values['per-host-concurrency'], '--per-host-concurrency', true);
  }
  if (values.concurrency !== undefined) settings.concurrency = positive(values.concurrency, '--concurrency', true);
  if (values['smtp-timeout'] !== undefined) {
    settings.timeoutMs = positive(values['smtp-timeout'], '--smtp-timeout', false) * 1000;
  }
  if (values['greylist-retry'] !== undefined) {
    settings.greylistRetryMs = values['greylist-retry']
      .split(',')
      .map((minutes) => positive(minutes.trim(), '--greylist-retry (each, in minutes)', false) * 60_000);
  }
  return settings;
}
