// The tools a person connected, kept in the data folder's `connectors.json` by name: the kind, the API's
// address and the user, never the secret. The secret is in the key vault (the CLI's and the web host's:
// a file only this user may read, under keys/), by the connection's name.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { AppError } from '../../common/app-error.ts';
import type { KeyVault } from '../connections/key-vault.ts';
import { connectionViewSchema, type ConnectionView } from '../../common/connector-schemas.ts';
import type { Connector } from './connector.ts';
import { hubspotConnector } from './hubspot-connector.ts';
import { mailchimpConnector } from './mailchimp-connector.ts';
import { mailmanConnector } from './mailman-connector.ts';

/** The file keeps what the Mailing tools screen shows of a connection: one schema for both. */
const savedConnection = connectionViewSchema;
export type SavedConnection = ConnectionView;

const fileSchema = z.object({ connections: z.array(savedConnection) });

/** A name as `sift sync NAME` types it: letters, digits, dots, dashes and underscores. */
export const connectionNamePattern = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

const secretId = (name: string) => `connector_${name}`;

export type SavedConnections = {
  list(): SavedConnection[];
  get(name: string): SavedConnection | undefined;
  /** Keeps the connection and its secret, replacing one of the same name. */
  save(connection: SavedConnection, secret: string): void;
  /** Forgets the connection and its secret; answers whether there was one. */
  remove(name: string): boolean;
  /** The tool's adapter with the kept secret. */
  open(name: string): Connector;
};

export function savedConnections(dataDir: string, vault: KeyVault): SavedConnections {
  const path = join(dataDir, 'connectors.json');
  const read = (): SavedConnection[] => {
    if (!existsSync(path)) return [];
    let text: unknown;
    try {
      text = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      text = undefined; // not JSON at all (a cut write, an edit gone wrong): said below like any other
    }
    const parsed = fileSchema.safeParse(text);
    if (!parsed.success)
      throw new AppError(
        'bad_request',
        `${path} is not a file of connections Sift can read: move it away (or mend it) to connect again. Nothing in it was changed.`,
      );
    return parsed.data.connections;
  };
  const write = (connections: SavedConnection[]) => {
    writeFileSync(`${path}.new`, `${JSON.stringify({ connections }, null, 2)}\n`, { mode: 0o600 });
    renameSync(`${path}.new`, path);
  };
  const get = (name: string) => read().find((connection) => connection.name === name);
  return {
    list: read,
    get,
    save(connection, secret) {
      vault.put(secretId(connection.name), secret);
      write([...read().filter((other) => other.name !== connection.name), connection]);
    },
    remove(name) {
      const before = read();
      const after = before.filter((connection) => connection.name !== name);
      vault.remove(secretId(name));
      if (after.length === before.length) return false;
      write(after);
      return true;
    },
    open(name) {
      const connection = get(name);
      if (!connection)
        throw new AppError('not_found', `No connection named "${name}": \`sift connections\` lists them.`);
      const secret = vault.get(secretId(name));
      if (secret === undefined)
        throw new AppError(
          'not_found',
          `The secret of "${name}" is not kept on this computer any more: connect it again.`,
        );
      return connectorFor(connection.kind, connection.apiUrl, connection.user ?? '', secret);
    },
  };
}

/** The adapter for a kind of tool. */
export function connectorFor(kind: SavedConnection['kind'], apiUrl: string, user: string, secret: string): Connector {
  switch (kind) {
    case 'mailman':
      return mailmanConnector(apiUrl, user, secret);
    case 'mailchimp':
      return mailchimpConnector(apiUrl || undefined, secret);
    case 'hubspot':
      return hubspotConnector(apiUrl || undefined, secret);
  }
}
