// The bounce mailboxes a person connected (`sift connect imap`), kept in the data folder's
// outcomes/mailboxes.json by name: host, port, TLS, user and folders, never the password, which is in the
// key vault under the mailbox's name.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { AppError } from '../../common/app-error.ts';
import type { KeyVault } from '../connections/key-vault.ts';

const mailboxSchema = z.object({
  name: z.string(),
  host: z.string(),
  port: z.number().int().min(1).max(65535),
  /** IMAP over TLS (port 993); plain only to this computer (mailbox-reader.ts). */
  tls: z.boolean(),
  user: z.string(),
  /** The folder bounces arrive in. */
  folder: z.string(),
  /** Where Sift moves the bounces it kept: never deleted. */
  handledFolder: z.string(),
  connectedAt: z.number().int(),
});
export type MailboxSettings = z.infer<typeof mailboxSchema>;

const fileSchema = z.object({ mailboxes: z.array(mailboxSchema) });

/** Sift's folder for bounces it has read. */
export const defaultHandledFolder = 'Sift-bounces-read';

const secretId = (name: string) => `mailbox_${name}`;

export function mailboxConnections(dataDir: string, vault: KeyVault) {
  const path = join(dataDir, 'outcomes', 'mailboxes.json');
  const read = (): MailboxSettings[] => {
    if (!existsSync(path)) return [];
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      json = undefined;
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success)
      throw new AppError(
        'bad_request',
        `${path} is not a file of mailboxes Sift can read: move it away (or mend it). Nothing in it was changed.`,
      );
    return parsed.data.mailboxes;
  };
  const write = (mailboxes: MailboxSettings[]) => {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(`${path}.new`, `${JSON.stringify({ mailboxes }, null, 2)}\n`, { mode: 0o600 });
    renameSync(`${path}.new`, path);
  };
  const get = (name: string) => read().find((mailbox) => mailbox.name === name);
  return {
    list: read,
    get,
    save(mailbox: MailboxSettings, password: string) {
      vault.put(secretId(mailbox.name), password);
      write([...read().filter((other) => other.name !== mailbox.name), mailbox]);
    },
    remove(name: string): boolean {
      const before = read();
      vault.remove(secretId(name));
      if (!before.some((mailbox) => mailbox.name === name)) return false;
      write(before.filter((mailbox) => mailbox.name !== name));
      return true;
    },
    password(name: string): string {
      const secret = vault.get(secretId(name));
      if (secret === undefined)
        throw new AppError(
          'not_found',
          `The password of "${name}" is not kept any more: connect it again (sift connect imap).`,
        );
      return secret;
    },
  };
}
