// Reads a bounce mailbox over IMAP (imapflow): only the messages that arrived since the last read (by
// UID, under the folder's UIDVALIDITY, RFC 9051 §2.3.1.1), a page at a time so a mailbox of any size is
// read in bounded memory, each page kept before the next is asked for, so a dropped connection or a kill
// goes on from the last page kept. Bounces are moved to a folder of Sift's once kept, never deleted; mail
// that is no bounce is left where it is, and so is a message too large to be one (skipped by its size,
// never fetched).
import { ImapFlow } from 'imapflow';
import type { BouncedRecipient, MessageRead } from './bounce-message.ts';
import { startBounceParser } from './bounce-parser.ts';
import { pages, uidSet } from './mailbox-pages.ts';
import type { OutcomeSource, OutcomeStore } from './outcome-store.ts';
import { outcomeRecorder, type ReadOutcome } from './record-outcomes.ts';
import type { MailboxSettings } from './mailbox-connections.ts';

/** A bounce is a few kilobytes with the original attached; past this it is someone's mail, not a bounce. */
const largestBounce = 2 * 1024 * 1024;
/** What is kept of each bounce to open later: its report comes first; the original message may be cut. */
const keptBytes = 256 * 1024;
/**
 * Bounces kept are moved once this many wait (and at the end of a read): Dovecot rewrites a Maildir's
 * UID list with every MOVE, so a MOVE per page costs a large folder its size each time.
 */
const movedAtOnce = 20_000;

export type MailboxProgress = { read: number; total: number; bounces: number; others: number; tooLarge: number };
export type MailboxRead = MailboxProgress & {
  hard: number;
  soft: number;
  refused: number;
  suppressed: number;
  restarted: boolean;
};

export class MailboxError extends Error {
  override readonly name = 'MailboxError';
  readonly kind: 'authentication' | 'connection' | 'folder';
  constructor(kind: MailboxError['kind'], message: string) {
    super(message);
    this.kind = kind;
  }
}

const loopback = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i;

/** Plain IMAP only to this computer: a password sent in the clear elsewhere is read by anyone on the way. */
export function refusePlainElsewhere(settings: Pick<MailboxSettings, 'host' | 'tls'>): void {
  if (!settings.tls && !loopback.test(settings.host))
    throw new MailboxError('connection', `Plain IMAP is only for this computer; ${settings.host} is read over TLS.`);
}

function clientFor(settings: MailboxSettings, password: string): ImapFlow {
  refusePlainElsewhere(settings);
  return new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.tls,
    doSTARTTLS: settings.tls ? undefined : false,
    auth: { user: settings.user, pass: password },
    logger: false,
    connectionTimeout: 20_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
    maxLiteralSize: largestBounce + 64 * 1024,
  });
}

/** What imapflow threw, in words; the password is never in them. */
function mailboxFailure(error: unknown, settings: MailboxSettings): MailboxError {
  if (error instanceof MailboxError) return error;
  const failure = error as { authenticationFailed?: boolean; code?: string; message?: string };
  if (failure.authenticationFailed)
    return new MailboxError(
      'authentication',
      `${settings.host} refused the user name or password for ${settings.user}.`,
    );
  const why = failure.code ?? failure.message ?? String(error);
  const where = `The mailbox at ${settings.host}:${settings.port}`;
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(why))
    return new MailboxError('connection', `${where} has a TLS certificate this computer does not trust (${why}).`);
  if (why === 'ECONNREFUSED') return new MailboxError('connection', `${where} does not answer (${why}).`);
  return new MailboxError('connection', `${where} could not be read (${why}).`);
}

/** Tries the connection and the folder; answers how many messages it holds. */
export async function checkMailbox(settings: MailboxSettings, password: string): Promise<number> {
  const client = clientFor(settings, password);
  try {
    await client.connect();
    const status = await client.status(settings.folder, { messages: true }).catch(() => {
      throw new MailboxError('folder', `${settings.host} has no folder "${settings.folder}".`);
    });
    return (status && status.messages) || 0;
  } catch (error) {
    throw mailboxFailure(error, settings);
  } finally {
    await client.logout().catch(() => client.close());
  }
}

const outcomesOf = (recipients: readonly BouncedRecipient[], at: number): ReadOutcome[] =>
  recipients.map((recipient) => ({
    address: recipient.address,
    kind: recipient.kind,
    reason: recipient.reason,
    ...(recipient.status ? { status: recipient.status } : {}),
    ...(recipient.diagnostic ? { words: recipient.diagnostic } : {}),
    at,
  }));

export async function readMailbox(
  dataDir: string,
  store: OutcomeStore,
  source: OutcomeSource,
  settings: MailboxSettings,
  password: string,
  options: {
    onProgress?: (progress: MailboxProgress) => void;
    signal?: AbortSignal;
    since?: Date;
    /** Messages a page holds (tests make pages small to see a read stop between two). */
    pageMessages?: number;
  } = {},
): Promise<MailboxRead> {
  const client = clientFor(settings, password);
  const recorder = outcomeRecorder(dataDir, store);
  const parser = startBounceParser();
  const result: MailboxRead = {
    read: 0,
    total: 0,
    bounces: 0,
    others: 0,
    tooLarge: 0,
    hard: 0,
    soft: 0,
    refused: 0,
    suppressed: 0,
    restarted: false,
  };
  try {
    await client.connect();
    const lock = await client.getMailboxLock(settings.folder).catch(() => {
      throw new MailboxError('folder', `${settings.host} has no folder "${settings.folder}".`);
    });
    try {
      const mailbox = client.mailbox as { uidValidity: bigint | number };
      const validity = String(mailbox.uidValidity);
      const [kept, keptUid] = (source.cursor ?? '').split(':');
      // A new UIDVALIDITY renumbers every message: read the folder again (kept messages are not added twice).
      result.restarted = source.cursor !== null && kept !== validity;
      const after = kept === validity ? Number(keptUid) : 0;
      await client.mailboxCreate(settings.handledFolder).catch(() => undefined);
      await moveHandled(client, store, source, settings, validity);
      const query = { uid: `${after + 1}:*`, ...(options.since ? { since: options.since } : {}) };
      const found = (await client.search(query, { uid: true })) || [];
      const uids = found.filter((uid) => uid > after).sort((a, b) => a - b);
      result.total = uids.length;
      const sizes = new Map<number, number>();
      let position = 0;
      /** Bounces kept and not yet moved. */
      let waiting = 0;
      // Every size in one call: a command a page would make the server look over the folder each time.
      if (uids.length > 0)
        for await (const message of client.fetch(uidSet(uids), { uid: true, size: true }, { uid: true }))
          sizes.set(message.uid, message.size ?? 0);
      const fetchPage = async (page: readonly number[]) => {
        const fetched: { uid: number; raw: Buffer; at: number }[] = [];
        const query = { uid: true, source: true, internalDate: true } as const;
        for await (const message of client.fetch(uidSet(page), query, { uid: true }))
          if (message.source)
            fetched.push({ uid: message.uid, raw: message.source, at: new Date(message.internalDate ?? 0).getTime() });
        return fetched;
      };
      const all = pages(
        uids.filter((uid) => sizes.get(uid)! <= largestBounce),
        sizes,
        options.pageMessages,
      );
      type Parsed = { page: number[]; fetched: Awaited<ReturnType<typeof fetchPage>>; reads: MessageRead[] };
      /** Keeps a page read: its bounces and the cursor past it, in one transaction, then moves them in time. */
      const keep = async ({ page, fetched, reads }: Parsed) => {
        const messages = [];
        for (const [index, { uid, raw, at }] of fetched.entries()) {
          const read = reads[index]!;
          if (read.kind !== 'bounce') {
            result.others += 1;
            continue;
          }
          result.bounces += 1;
          const when = read.date ?? (at || Date.now());
          messages.push({
            ref: `${validity}:${uid}`,
            at: when,
            subject: read.subject,
            raw: raw.subarray(0, keptBytes),
            outcomes: outcomesOf(read.recipients, when),
          });
        }
        // Pages run in UID order: the page's last UID is past every large one skipped before it.
        const last = page.at(-1)!;
        const recorded = recorder.record(source, { messages, cursor: `${validity}:${last}` });
        result.hard += recorded.hard;
        result.soft += recorded.soft;
        result.refused += recorded.refused;
        result.suppressed += recorded.suppressed;
        while (position < uids.length && uids[position]! <= last) {
          if (sizes.get(uids[position]!)! > largestBounce) result.tooLarge += 1;
          position += 1;
        }
        result.read = position;
        waiting += messages.length;
        if (waiting >= movedAtOnce) {
          await moveHandled(client, store, source, settings, validity);
          waiting = 0;
        }
        options.onProgress?.({ ...result });
      };
      // Three pages at once: the next is fetched (the server works) and this one parsed (on the parser's two
      // threads) while the last one is kept and moved (on this one).
      let coming = all.length > 0 ? fetchPage(all[0]!) : undefined;
      let parsing: Promise<Parsed> | undefined;
      for (const [index, page] of all.entries()) {
        options.signal?.throwIfAborted();
        const fetched = await coming!.catch(async (error: unknown) => {
          // The page already read is kept before the failure is said: the next read goes on after it.
          if (parsing) await keep(await parsing).catch(() => undefined);
          throw error;
        });
        coming = index + 1 < all.length ? fetchPage(all[index + 1]!) : undefined;
        // Not left unhandled while this page is read: a failure is thrown where it is awaited.
        coming?.catch(() => undefined);
        const parsed = parser.read(fetched.map(({ raw }) => raw)).then((reads) => ({ page, fetched, reads }));
        parsed.catch(() => undefined);
        if (parsing) await keep(await parsing);
        parsing = parsed;
      }
      if (parsing) {
        options.signal?.throwIfAborted();
        await keep(await parsing);
      }
      await moveHandled(client, store, source, settings, validity);
      // Large messages after the last page: passed over all the same.
      if (position < uids.length) {
        store.record(source.id, { cursor: `${validity}:${uids.at(-1)}` });
        for (; position < uids.length; position += 1)
          if (sizes.get(uids[position]!)! > largestBounce) result.tooLarge += 1;
        result.read = position;
      }
    } finally {
      lock.release();
    }
  } catch (error) {
    throw mailboxFailure(error, settings);
  } finally {
    recorder.close();
    await parser.close();
    await client.logout().catch(() => client.close());
  }
  return result;
}

/** Moves the bounces kept but still in the folder (this read's, or one that stopped before moving). */
async function moveHandled(
  client: ImapFlow,
  store: OutcomeStore,
  source: OutcomeSource,
  settings: MailboxSettings,
  validity: string,
) {
  const waiting = store.unmoved(source.id).filter((message) => message.ref.startsWith(`${validity}:`));
  if (waiting.length === 0) return;
  const uids = waiting.map((message) => Number(message.ref.slice(validity.length + 1)));
  await client.messageMove(uidSet(uids), settings.handledFolder, { uid: true });
  store.markMoved(waiting.map((message) => message.id));
}
