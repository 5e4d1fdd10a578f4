// `sift connect`, `sift connections` and `sift audiences`: the tools whose lists Sift cleans, connected
// once (the secret checked there and then, and kept in the key vault, never on a command line), listed
// without their secrets, and their lists named as `sift sync` takes them.
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { withoutControls } from '../common/terminal-text.ts';
import { fileVault } from '../core/connections/key-vault.ts';
import { ConnectorError, connectorKinds, toolNames, type ConnectorKind } from '../core/connectors/connector.ts';
import { connectionNamePattern } from '../common/connector-schemas.ts';
import { connectorFor, savedConnections, type SavedConnections } from '../core/connectors/saved-connections.ts';
import { openScheduleStore } from '../core/connectors/schedule-store.ts';
import { CliExit, exitCodes, type CliIo } from './cli-io.ts';
import { privateDataDir } from './data-folder.ts';

export const connectUsage = `sift connect hubspot --name NAME [--api-url URL]              (the private app's token from SIFT_HUBSPOT_TOKEN, or asked)
       sift connect mailchimp --name NAME [--api-url URL]            (the API key from SIFT_MAILCHIMP_KEY, or asked)
       sift connect mailman --name NAME --api-url URL --user USER   (the password from SIFT_MAILMAN_PASSWORD, or asked)
       sift connect imap --name NAME --host HOST [--port N] --user USER [--folder F] [--plain]
                                                                     (a bounce mailbox; the password from SIFT_IMAP_PASSWORD, or asked)
       sift connections [--json] | sift connections remove NAME
       sift audiences NAME [LIST] [--json]                             (with LIST: a Mailchimp audience's segments and tags)`;

/** Where each kind's secret is read from, when not typed at the terminal. */
const secretVariables: Record<ConnectorKind, string> = {
  mailman: 'SIFT_MAILMAN_PASSWORD',
  mailchimp: 'SIFT_MAILCHIMP_KEY',
  hubspot: 'SIFT_HUBSPOT_TOKEN',
};

/** The saved connections of the data folder, their secrets in the same vault as the web host's keys. */
export function connectionsOf(dataDir: string): SavedConnections {
  return savedConnections(dataDir, fileVault(join(dataDir, 'keys')));
}

/** A tool's refusal or silence as the command's exit: a refused secret is 3, the rest 5. */
export function connectorExit(error: unknown): unknown {
  if (!(error instanceof ConnectorError)) return error;
  return new CliExit(error.kind === 'authentication' ? exitCodes.authentication : exitCodes.service, error.message);
}

/** Asks for a secret at the terminal without showing it. */
async function askSecret(question: string): Promise<string> {
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const shown = lines as unknown as { _writeToOutput: (text: string) => void };
  process.stderr.write(question);
  shown._writeToOutput = () => undefined;
  try {
    return await new Promise<string>((resolve) => lines.question('', resolve));
  } finally {
    lines.close();
    process.stderr.write('\n');
  }
}

async function secretFor(kind: ConnectorKind, io: CliIo): Promise<string> {
  const variable = secretVariables[kind];
  const fromEnv = io.env[variable];
  if (fromEnv) return fromEnv;
  if (!io.interactive || !process.stdin.isTTY)
    throw new CliExit(exitCodes.usage, `Set ${variable} (a secret is never taken on the command line).`);
  const question = { mailchimp: 'Mailchimp API key: ', hubspot: "HubSpot private app's access token: " }[
    kind as string
  ];
  const typed = await askSecret(question ?? `Password for ${kind}: `);
  if (!typed) throw new CliExit(exitCodes.usage, 'No password was typed: nothing is saved.');
  return typed;
}

export async function runConnect(argv: string[], io: CliIo): Promise<number> {
  if (argv[0] === 'imap') return (await import('./connect-mailbox.ts')).connectMailbox(argv.slice(1), io, askSecret);
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, 'api-url': { type: 'string' }, user: { type: 'string' } },
  });
  const [kind] = positionals;
  if (positionals.length !== 1 || !connectorKinds.includes(kind as ConnectorKind))
    throw new CliExit(exitCodes.usage, `Usage: ${connectUsage}`);
  const name = values.name;
  if (!name || !connectionNamePattern.test(name))
    throw new CliExit(exitCodes.usage, '--name takes a name of letters, digits, dots, dashes and underscores.');
  if (kind === 'mailman' && !values['api-url'])
    throw new CliExit(exitCodes.usage, `--api-url is needed: Mailman's REST address.`);
  if (kind === 'mailman' && !values.user) throw new CliExit(exitCodes.usage, "--user is needed: Mailman's REST user.");
  const secret = await secretFor(kind as ConnectorKind, io);
  const connections = connectionsOf(privateDataDir(io));
  try {
    const connector = connectorFor(kind as ConnectorKind, values['api-url'] ?? '', values.user ?? '', secret);
    const reaches = await connector.check();
    connections.save(
      {
        name,
        kind: kind as ConnectorKind,
        apiUrl: values['api-url'] ?? '',
        ...(values.user ? { user: values.user } : {}),
        reaches,
        connectedAt: Date.now(),
      },
      secret,
    );
    io.out(`Connected "${name}": ${withoutControls(reaches)}.\n`);
    return exitCodes.done;
  } catch (error) {
    throw connectorExit(error);
  }
}

export async function runConnections(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  const dataDir = privateDataDir(io);
  const connections = connectionsOf(dataDir);
  if (positionals[0] === 'remove') {
    if (positionals.length !== 2) throw new CliExit(exitCodes.usage, `Usage: ${connectUsage}`);
    const name = positionals[1]!;
    if (!connections.remove(name)) throw new CliExit(exitCodes.usage, `No connection named "${name}".`);
    const store = openScheduleStore(dataDir);
    const dropped = store.unscheduleConnection(name);
    store.close();
    const also = dropped ? ` and its ${dropped === 1 ? 'schedule' : `${dropped} schedules`}` : '';
    io.out(`Removed "${name}", its secret${also}.\n`);
    return exitCodes.done;
  }
  if (positionals.length > 0) throw new CliExit(exitCodes.usage, `Usage: ${connectUsage}`);
  const listed = connections.list();
  if (values.json) io.out(`${JSON.stringify(listed, null, 2)}\n`);
  else if (listed.length === 0) io.out('No connections yet: `sift connect mailman --name NAME …` makes one.\n');
  else
    for (const each of listed)
      io.out(`${each.name.padEnd(16)}${each.kind.padEnd(10)}${withoutControls(each.reaches)}\n`);
  return exitCodes.done;
}

export async function runAudiences(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false } },
  });
  if (positionals.length < 1 || positionals.length > 2) throw new CliExit(exitCodes.usage, `Usage: ${connectUsage}`);
  const [name, list] = positionals as [string, string | undefined];
  try {
    const connector = connectionsOf(privateDataDir(io)).open(name);
    if (list !== undefined) {
      if (!connector.segments)
        throw new CliExit(exitCodes.usage, `${toolNames[connector.kind]} lists have no segments Sift reads.`);
      const segments = await connector.segments(list);
      if (values.json) io.out(`${JSON.stringify(segments, null, 2)}\n`);
      else if (segments.length === 0) io.out(`${list} has no segments or tags.\n`);
      else
        for (const each of segments)
          io.out(
            `${withoutControls(each.id).padEnd(12)}${each.kind.padEnd(9)}${String(each.size).padStart(8)}  ${withoutControls(each.name)}\n`,
          );
      return exitCodes.done;
    }
    const audiences = await connector.audiences();
    if (values.json) io.out(`${JSON.stringify(audiences, null, 2)}\n`);
    else
      for (const each of audiences)
        io.out(
          `${withoutControls(each.id).padEnd(32)}${String(each.size).padStart(8)}  ${withoutControls(each.name)}\n`,
        );
    return exitCodes.done;
  } catch (error) {
    throw connectorExit(error);
  }
}
