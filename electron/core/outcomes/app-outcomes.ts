// The outcomes as the app reaches them (History's panel, the Mailing tools screen, the results): each call
// opens what it needs and closes it, so nothing is held between calls, and no answer holds a password.
import { existsSync } from 'node:fs';
import { AppError } from '../../common/app-error.ts';
import type { KeyVault } from '../connections/key-vault.ts';
import type { Connector } from '../connectors/connector.ts';
import { savedConnections } from '../connectors/saved-connections.ts';
import { accuracyLedger, ledgerSentence } from './ledger.ts';
import { checkMailbox, readMailbox, refusePlainElsewhere } from './mailbox-reader.ts';
import { defaultHandledFolder, mailboxConnections, type MailboxSettings } from './mailbox-connections.ts';
import { importOutcomeFile } from './outcome-file.ts';
import { exportOutcomes } from './outcome-export.ts';
import { openOutcomeStore, type OutcomeStore } from './outcome-store.ts';
import { forgetSource } from './record-outcomes.ts';
import { outcomeStoreFile } from './outcome-store-schema.ts';
import { readToolOutcomes } from './tool-outcomes.ts';
import { shareAgainIfShared, shareWithTeam } from './team-sharing.ts';
import type { ServiceClient } from '../client/service-client.ts';

/** The outcomes as History's panel sees them; each call opens the store, so nothing is held between calls. */
export function outcomesIn(dataDir: string) {
  const using = async <T>(use: (store: OutcomeStore) => T | Promise<T>): Promise<T> => {
    const store = openOutcomeStore(dataDir);
    try {
      return await use(store);
    } finally {
      store.close();
    }
  };
  return {
    ledger: () =>
      using((store) => {
        const ledger = accuracyLedger(dataDir, store);
        const sources = store.sources().map(({ name, kind, readAt }) => ({ name, kind, readAt }));
        return { ...ledger, sentence: ledgerSentence(ledger.byVerdict), sources };
      }),
    /** Forgets a source's outcomes and the do-not-mail entries its bounces made. */
    forget: (name: string) =>
      using((store) => {
        const forgot = forgetSource(dataDir, store, name);
        if (!forgot) throw new AppError('not_found', `No outcomes from "${name}".`);
        return forgot;
      }),
    /** Sends what was read here to the team's service, and reads and acts on what teammates read. */
    share: (client: ServiceClient) => using((store) => shareWithTeam(dataDir, store, client)),
    /**
     * After a read, an import or a forgetting: shared again where this folder has shared with the service
     * before (asked once; never unasked). Answers whether it was.
     */
    shareAgain: (client: ServiceClient) =>
      using(async (store) => (await shareAgainIfShared(dataDir, store, client))?.offered === true),
    /** Writes every outcome to `path`; answers how many. */
    exportTo: (path: string) => using((store) => exportOutcomes(store, path)),
    importFile: (path: string, fileName: string, kind?: 'hard' | 'soft') =>
      using((store) =>
        importOutcomeFile(dataDir, store, `file:${fileName}`, path, fileName, {
          ...(kind ? { kind } : {}),
        }),
      ),
  };
}
export type OutcomesView = ReturnType<typeof outcomesIn>;

/**
 * A connected tool's list read back (`name:audience` is its source, as `sift outcomes read NAME LIST`
 * names it): what happened since the last read.
 */
export async function readToolBounces(
  dataDir: string,
  name: string,
  audience: string,
  connector: Connector,
  options: Parameters<typeof readToolOutcomes>[5] = {},
) {
  const store = openOutcomeStore(dataDir);
  try {
    const source = store.ensureSource(`${name}:${audience}`, connector.kind);
    return await readToolOutcomes(dataDir, store, source, connector, audience, options);
  } finally {
    store.close();
  }
}

/**
 * The bounce mailboxes as the app and `sift connect imap` keep them: connected (the password tried, then
 * kept in `vault`), read, removed; no answer holds a password. A mailbox's own failures are thrown as
 * MailboxErrors, for each front end to say in its way.
 */
export function mailboxesIn(dataDir: string, vault: KeyVault) {
  const mailboxes = mailboxConnections(dataDir, vault);
  const views = () => {
    const store = existsSync(outcomeStoreFile(dataDir)) ? openOutcomeStore(dataDir) : undefined;
    try {
      return mailboxes.list().map(({ name, host, port, tls, user, folder }) => ({
        name,
        host,
        port,
        tls,
        user,
        folder,
        readAt: store?.source(name)?.readAt ?? null,
      }));
    } finally {
      store?.close();
    }
  };
  /** A name a mailing tool's connection has is refused: `sift outcomes read NAME` must know which it is. */
  const refuseName = (name: string) => {
    if (savedConnections(dataDir, vault).get(name))
      throw new AppError(
        'bad_request',
        `"${name}" is already the name of a mailing tool's connection: choose another.`,
      );
  };
  return {
    views,
    get: mailboxes.get,
    refuseName,
    /** Tries the password, then keeps the mailbox; answers how many messages its folder holds. */
    async connect(request: {
      name: string;
      host: string;
      port?: number;
      user: string;
      password: string;
      folder: string;
      plain: boolean;
    }) {
      refuseName(request.name);
      const tls = !request.plain;
      const settings: MailboxSettings = {
        name: request.name,
        host: request.host,
        port: request.port ?? (tls ? 993 : 143),
        tls,
        user: request.user,
        folder: request.folder,
        handledFolder: defaultHandledFolder,
        connectedAt: Date.now(),
      };
      refusePlainElsewhere(settings);
      const messages = await checkMailbox(settings, request.password);
      mailboxes.save(settings, request.password);
      return { messages, mailboxes: views() };
    },
    /** Reads what is new in the mailbox since the last read. */
    async read(name: string, options: Parameters<typeof readMailbox>[5] = {}) {
      const settings = mailboxes.get(name);
      if (!settings) throw new AppError('not_found', `No bounce mailbox named "${name}".`);
      const store = openOutcomeStore(dataDir);
      try {
        const source = store.ensureSource(name, 'imap');
        return await readMailbox(dataDir, store, source, settings, mailboxes.password(name), options);
      } finally {
        store.close();
      }
    },
    remove(name: string) {
      mailboxes.remove(name);
      return views();
    },
  };
}
export type MailboxesView = ReturnType<typeof mailboxesIn>;
