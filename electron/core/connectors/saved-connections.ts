// The tools a person connected, kept in the data folder's `connectors.json` by name: the kind, the API's
// address and the user, never the secret. The secret is in the key vault (the CLI's and the web host's:
// a file only this user may read, under keys/), by the connection's name.
import { join } from 'node:path';
import { AppError } from '../../common/app-error.ts';
import type { KeyVault } from '../connections/key-vault.ts';
import { namedSecretsFile } from '../connections/named-secrets-file.ts';
import { connectionViewSchema, type ConnectionView } from '../../common/connector-schemas.ts';
import type { Connector } from './connector.ts';
import { hubspotConnector } from './hubspot-connector.ts';
import { mailchimpConnector } from './mailchimp-connector.ts';
import { mailmanConnector } from './mailman-connector.ts';

/** The file keeps what the Mailing tools screen shows of a connection: one schema for both. */
const savedConnection = connectionViewSchema;
export type SavedConnection = ConnectionView;

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
  const file = namedSecretsFile({
    path,
    field: 'connections',
    entry: savedConnection,
    unreadable: `${path} is not a file of connections Sift can read: move it away (or mend it) to connect again. Nothing in it was changed.`,
    secretId: (name) => `connector_${name}`,
    vault,
  });
  return {
    ...file,
    open(name) {
      const connection = file.get(name);
      if (!connection)
        throw new AppError('not_found', `No connection named "${name}": \`sift connections\` lists them.`);
      const secret = file.secret(name);
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
