// `sift connect imap`: a bounce mailbox Sift reads outcomes from (`sift outcomes read NAME`). The password
// is tried there and then (one login and a look at the folder) and kept in the key vault, never on the
// command line; IMAP over TLS unless the server is this computer.
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { fileVault } from '../core/connections/key-vault.ts';
import { connectionNamePattern } from '../common/connector-schemas.ts';
import { defaultHandledFolder, mailboxesIn, MailboxError, refusePlainElsewhere } from '../core/outcomes/index.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';
import { parsePort, UsageError } from './cli-options.ts';
import { privateDataDir } from './data-folder.ts';

/** The bounce mailboxes of a data folder, their passwords in the same vault as the tools' secrets. */
export const mailboxesOf = (dataDir: string) => mailboxesIn(dataDir, fileVault(join(dataDir, 'keys')));

export async function connectMailbox(
  argv: string[],
  io: CliIo,
  ask: (question: string) => Promise<string>,
): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      user: { type: 'string' },
      folder: { type: 'string', default: 'INBOX' },
      plain: { type: 'boolean', default: false },
    },
  });
  if (positionals.length > 0) throw new UsageError(`sift connect imap: unexpected "${positionals[0]}".`);
  const { name, host, user } = values;
  if (!name || !connectionNamePattern.test(name))
    throw new CliExit(exitCodes.usage, '--name takes a name of letters, digits, dots, dashes and underscores.');
  if (!host) throw new CliExit(exitCodes.usage, '--host is needed: the IMAP server of the bounce mailbox.');
  if (!user) throw new CliExit(exitCodes.usage, "--user is needed: the bounce mailbox's user name.");
  const tls = !values.plain;
  const port = values.port === undefined ? undefined : parsePort(values.port);
  if (port === 0) throw new CliExit(exitCodes.usage, '--port must be a port from 1 to 65535.');
  // Refused before a password is asked for: plain IMAP elsewhere, a name a tool's connection has.
  try {
    refusePlainElsewhere({ host, tls });
  } catch (error) {
    throw new CliExit(exitCodes.usage, (error as Error).message);
  }
  const dataDir = privateDataDir(io);
  const mailboxes = mailboxesOf(dataDir);
  mailboxes.refuseName(name);
  let password = io.env.SIFT_IMAP_PASSWORD;
  if (!password) {
    if (!io.interactive || !process.stdin.isTTY)
      throw new CliExit(exitCodes.usage, 'Set SIFT_IMAP_PASSWORD (a password is never taken on the command line).');
    password = await ask(`Password for ${user} at ${host}: `);
    if (!password) throw new CliExit(exitCodes.usage, 'No password was typed: nothing is saved.');
  }
  try {
    const request = { name, host, ...(port ? { port } : {}), user, password, folder: values.folder, plain: !tls };
    const { messages, mailboxes: kept } = await mailboxes.connect(request);
    const connected = kept.find((mailbox) => mailbox.name === name)!;
    io.out(
      `Connected "${name}": ${user} at ${host}:${connected.port}${tls ? '' : ' (plain, this computer)'}, ${values.folder} holds ${messages.toLocaleString('en')} messages. ` +
        `Bounces read are moved to "${defaultHandledFolder}"; nothing is deleted.\n`,
    );
    return exitCodes.done;
  } catch (error) {
    if (error instanceof MailboxError)
      throw new CliExit(
        error.kind === 'authentication' ? exitCodes.authentication : exitCodes.service,
        `${error.message} Nothing is saved.`,
      );
    throw error;
  }
}
