// OpenSMTPD, from its Debian package unpacked beside Postfix: one instance (its spool and control socket
// are fixed paths), its mailboxes in a table, everything else refused as an invalid recipient.
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  foreground,
  openSmtpdBinary,
  serverFolder,
  stopGroup,
  untilListening,
  type RunningServer,
} from './mta-process.ts';

export async function startOpenSmtpd(options: {
  name: string;
  ip: string;
  port: number;
  domain: string;
  mailboxes: string[];
}): Promise<RunningServer> {
  const folder = await serverFolder('opensmtpd');
  const config = join(folder, 'smtpd.conf');
  const users = options.mailboxes.map((local) => `"${local}@${options.domain}"`).join(', ');
  await writeFile(
    config,
    [
      `table users { ${users} }`,
      `listen on ${options.ip} port ${options.port} hostname ${options.name}`,
      // Never used (no message is ever sent), but a match needs an action: one that delivers nowhere here.
      'action "nowhere" relay host smtp://127.0.0.1:9',
      `match from any for domain "${options.domain}" rcpt-to <users> action "nowhere"`,
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const output = { text: '' };
  // -d: in the foreground, its log on stderr, which is this server's log.
  const daemon = foreground(openSmtpdBinary, ['-d', '-f', config], output);
  await untilListening(options.ip, options.port, `OpenSMTPD ${options.name}`, () => output.text);
  return {
    name: options.name,
    ip: options.ip,
    log: async () => output.text,
    async stop() {
      await stopGroup(daemon);
      await rm(folder, { recursive: true, force: true });
    },
  };
}
