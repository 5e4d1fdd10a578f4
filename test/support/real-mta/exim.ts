// Exim, from its Debian package unpacked beside Postfix, in a folder of its own: local parts per domain
// in an ACL, STARTTLS with the certificate it makes itself, one connection at a time per client
// (smtp_accept_max_per_host), or, for a site that refuses us, a refusal at connect, a DNS blocklist ACL
// (`dnslists`, with or without a message) or a host denied in the ACL (Exim's default refusal).
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  eximBinary,
  foreground,
  ownBy,
  readLog,
  serverFolder,
  stopGroup,
  untilListening,
  type RunningServer,
} from './mta-process.ts';
import { inOwnResolver } from './rbldnsd.ts';

export type EximOptions = {
  name: string;
  ip: string;
  port: number;
  /** Its domains, each with the same mailboxes (a host serving several customers). */
  domains: string[];
  mailboxes: string[];
  maxPerHost?: number;
  /** Refuse every client at connect with this reply text (a 550). */
  refuseAtConnect?: string;
  /** Accept postmaster@ before any check, as Debian's exim4 ACL does (acl_check_rcpt, CHECK_RCPT_POSTMASTER). */
  postmasterFirst?: boolean;
  /** Refuse listed clients at RCPT (`deny dnslists`), with this message or Exim's default; needs `resolvConf`. */
  dnslist?: { zone: string; message?: string };
  /** Refuse these client hosts at RCPT with Exim's default reply (`deny hosts`, no message). */
  denyHosts?: string;
  /** A resolv.conf naming the blocklist server, for Exim's own lookups. */
  resolvConf?: string;
};

export async function startExim(options: EximOptions): Promise<RunningServer> {
  const folder = await serverFolder(`exim-${options.name}`);
  // Exim writes its log and spool as its own user, after dropping root.
  for (const own of ['log', 'spool']) {
    await mkdir(join(folder, own));
    await ownBy(join(folder, own), 'Debian-exim');
  }
  const config = join(folder, 'exim.conf');
  const lines = [
    `primary_hostname = ${options.name}`,
    `spool_directory = ${folder}/spool`,
    `log_file_path = ${folder}/log/%slog`,
    `pid_file_path = ${folder}/exim.pid`,
    'log_selector = +smtp_connection +smtp_incomplete_transaction +smtp_protocol_error +smtp_syntax_error',
    `daemon_smtp_ports = ${options.port}`,
    `local_interfaces = ${options.ip}`,
    `smtp_accept_max_per_host = ${options.maxPerHost ?? 0}`,
    'host_lookup =',
    'rfc1413_hosts =',
    `domainlist local_domains = ${options.domains.join(' : ')}`,
    ...(options.refuseAtConnect ? ['acl_smtp_connect = acl_check_connect'] : []),
    'acl_smtp_rcpt = acl_check_rcpt',
    'acl_smtp_data = acl_check_data',
    'begin acl',
    'acl_check_connect:',
    `  deny message = ${options.refuseAtConnect ?? 'not used'}`,
    'acl_check_rcpt:',
    '  deny message = 5.7.1 Relaying not permitted',
    '       !domains = +local_domains',
    ...(options.postmasterFirst ? ['  accept local_parts = postmaster', '       domains = +local_domains'] : []),
    ...(options.dnslist
      ? [
          `  deny dnslists = ${options.dnslist.zone}`,
          ...(options.dnslist.message ? [`       message = ${options.dnslist.message}`] : []),
        ]
      : []),
    ...(options.denyHosts ? [`  deny hosts = ${options.denyHosts}`] : []),
    `  accept local_parts = ${options.mailboxes.join(' : ')}`,
    '  deny message = 5.1.1 No such user here',
    'acl_check_data:',
    '  deny message = No messages here',
    'begin routers',
    'nowhere:',
    '  driver = redirect',
    '  data = :blackhole:',
  ];
  await writeFile(config, `${lines.join('\n')}\n`, { mode: 0o644 });
  const output = { text: '' };
  const args = ['-C', config, '-bdf'];
  const daemon = options.resolvConf
    ? foreground(...inOwnResolver(options.resolvConf, eximBinary, args), output)
    : foreground(eximBinary, args, output);
  await untilListening(options.ip, options.port, `Exim ${options.name}`, () => output.text);
  return {
    name: options.name,
    ip: options.ip,
    log: () => readLog(join(folder, 'log', 'mainlog')),
    async stop() {
      await stopGroup(daemon);
      await rm(folder, { recursive: true, force: true });
    },
  };
}
