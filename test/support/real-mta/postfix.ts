// Postfix as a small site runs it, in a folder of its own (config, queue, log): virtual mailboxes per
// domain, a catch-all domain, STARTTLS with a self-signed certificate, and, per instance, postgrey, a
// recipient rate limit or a refusal of the client by policy. Its default error limits stay: a client is
// slowed after 10 errors in a session (smtpd_soft_error_limit) and cut off at 20.
import { spawn, spawnSync } from 'node:child_process';
import { appendFile, copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  foreground,
  ownBy,
  readLog,
  selfSignedCertificate,
  serverFolder,
  stopGroup,
  untilListening,
  type RunningServer,
} from './mta-process.ts';
import { inOwnResolver } from './rbldnsd.ts';

export type PostfixOptions = {
  /** The server's name (myhostname) and its loopback address; more addresses for more listeners. */
  name: string;
  ip: string;
  port: number;
  /** Domain → its mailboxes' local parts; `*` accepts every address (a catch-all). */
  domains: Record<string, string[] | '*'>;
  tls?: boolean;
  /** A postgrey greylisting every new triplet for this many seconds. */
  greylistSeconds?: number;
  /** smtpd_client_recipient_rate_limit, per `anvil_rate_time_unit`. */
  recipientRate?: { max: number; perSeconds: number };
  /** More listeners (ip → the reply every RCPT from our client gets there), as unrelated sites that refuse us. */
  refusingListeners?: Record<string, string>;
  /** `reject_rbl_client` this zone, looked up through `resolvConf` (the blocklist server). */
  rblClient?: string;
  resolvConf?: string;
};

/** One smtpd per address and port, in master.cf's own syntax; each may override main.cf settings. */
const listener = (ip: string, port: number, overrides: string[] = []) =>
  `${ip}:${port} inet n - n - - smtpd${overrides.map((setting) => ` -o ${setting}`).join('')}`;

export async function startPostfix(options: PostfixOptions): Promise<RunningServer> {
  const folder = await serverFolder(`postfix-${options.name}`);
  const etc = join(folder, 'etc');
  await mkdir(join(folder, 'queue'), { recursive: true });
  await mkdir(join(folder, 'data'), { recursive: true });
  await mkdir(etc);
  await ownBy(join(folder, 'data'), 'postfix');
  const mailboxes = Object.entries(options.domains).flatMap(([domain, locals]) =>
    locals === '*' ? [`@${domain}=ok`] : locals.map((local) => `${local}@${domain}=ok`),
  );
  const main = [
    'compatibility_level = 3.6',
    `queue_directory = ${join(folder, 'queue')}`,
    `data_directory = ${join(folder, 'data')}`,
    'mail_owner = postfix',
    `myhostname = ${options.name}`,
    'mydestination =',
    'mynetworks = 127.255.255.255/32',
    'inet_interfaces = loopback-only',
    'inet_protocols = ipv4',
    `maillog_file_prefixes = ${folder}`,
    `maillog_file = ${join(folder, 'maillog')}`,
    `virtual_mailbox_domains = ${Object.keys(options.domains).join(' ')}`,
    `virtual_mailbox_maps = inline:{ ${mailboxes.join(', ')} }`,
    'virtual_transport = discard',
    'smtpd_relay_restrictions = reject_unauth_destination',
    // Our client has no reverse DNS on loopback: name lookups would only slow every session.
    'smtpd_peername_lookup = no',
  ];
  if (options.tls) {
    const { cert, key } = selfSignedCertificate(folder, options.name);
    main.push(`smtpd_tls_cert_file = ${cert}`, `smtpd_tls_key_file = ${key}`, 'smtpd_tls_security_level = may');
  }
  let postgrey: ReturnType<typeof spawn> | undefined;
  if (options.greylistSeconds !== undefined) {
    const grey = join(folder, 'postgrey');
    await mkdir(grey);
    await ownBy(grey, 'postgrey');
    const policyPort = options.port + 1;
    postgrey = spawn(
      '/usr/sbin/postgrey',
      [`--inet=127.0.0.1:${policyPort}`, `--delay=${options.greylistSeconds}`, `--dbdir=${grey}`, '--max-age=1'],
      { stdio: 'ignore', detached: true },
    );
    main.push(`smtpd_recipient_restrictions = check_policy_service inet:127.0.0.1:${policyPort}`);
  }
  if (options.rblClient) main.push(`smtpd_recipient_restrictions = reject_rbl_client ${options.rblClient}`);
  if (options.recipientRate) {
    main.push(
      `smtpd_client_recipient_rate_limit = ${options.recipientRate.max}`,
      `anvil_rate_time_unit = ${options.recipientRate.perSeconds}s`,
      // Loopback is exempt by default (smtpd_client_event_limit_exceptions = $mynetworks): ours is not.
      'smtpd_client_event_limit_exceptions =',
    );
  }
  const refusals = Object.entries(options.refusingListeners ?? {});
  for (const [i, [, reply]] of refusals.entries()) {
    await writeFile(join(folder, `refuse-${i}`), `127.0.0.1 ${reply}\n`);
    main.push(`refuse_${i} = check_client_access texthash:${join(folder, `refuse-${i}`)}`);
  }
  await writeFile(join(etc, 'main.cf'), `${main.join('\n')}\n`);
  await copyFile('/etc/postfix/master.cf', join(etc, 'master.cf'));
  // Debian's master.cf chroots smtpd; here nothing is chrooted, and our listeners replace its port 25 one.
  const postconf = (...args: string[]) => spawnSync('postconf', ['-c', etc, ...args], { encoding: 'utf8' });
  postconf('-F', '*/*/chroot = n');
  postconf('-MX', 'smtp/inet');
  const listeners = [
    listener(options.ip, options.port),
    ...refusals.map(([ip], i) => listener(ip, options.port, [`smtpd_client_restrictions=$refuse_${i}`])),
  ];
  await appendFile(join(etc, 'master.cf'), `${listeners.join('\n')}\n`);
  const output = { text: '' };
  const start: [string, string[]] = ['/usr/sbin/postfix', ['-c', etc, 'start-fg']];
  const master = foreground(...(options.resolvConf ? inOwnResolver(options.resolvConf, ...start) : start), output);
  const log = () => readLog(join(folder, 'maillog'));
  for (const ip of [options.ip, ...refusals.map(([ip]) => ip)]) {
    await untilListening(ip, options.port, `Postfix ${options.name}`, () => output.text);
  }
  return {
    name: options.name,
    ip: options.ip,
    log,
    async stop() {
      spawnSync('/usr/sbin/postfix', ['-c', etc, 'stop']);
      await stopGroup(master);
      if (postgrey) await stopGroup(postgrey);
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Each session's summary line ("disconnect from … rcpt=1/3 … commands=4/6"), as Postfix logs it. */
export function postfixSessions(log: string): { rcptFailed: number; commands: string }[] {
  return [...log.matchAll(/ disconnect from \S+ (.*)$/gm)].map((match) => {
    const rcpt = /\brcpt=(\d+)(?:\/(\d+))?/.exec(match[1]!);
    const failed = rcpt ? Number(rcpt[2] ?? rcpt[1]) - Number(rcpt[1]) : 0;
    return { rcptFailed: failed, commands: match[1]! };
  });
}
