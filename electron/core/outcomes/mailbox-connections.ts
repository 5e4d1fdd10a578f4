// The bounce mailboxes a person connected (`sift connect imap`), kept in the data folder's
// outcomes/mailboxes.json by name: host, port, TLS, user and folders, never the password, which is in the
// key vault under the mailbox's name.
import { join } from 'node:path';
import { z } from 'zod';
import { AppError } from '../../common/app-error.ts';
import type { KeyVault } from '../connections/key-vault.ts';
import { namedSecretsFile } from '../connections/named-secrets-file.ts';

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

/** Sift's folder for bounces it has read. */
export const defaultHandledFolder = 'Sift-bounces-read';

export function mailboxConnections(dataDir: string, vault: KeyVault) {
  const path = join(dataDir, 'outcomes', 'mailboxes.json');
  const file = namedSecretsFile({
    path,
    field: 'mailboxes',
    entry: mailboxSchema,
    unreadable: `${path} is not a file of mailboxes Sift can read: move it away (or mend it). Nothing in it was changed.`,
    secretId: (name) => `mailbox_${name}`,
    vault,
  });
  return {
    list: file.list,
    get: file.get,
    save: file.save,
    remove: file.remove,
    password(name: string): string {
      const secret = file.secret(name);
      if (secret === undefined)
        throw new AppError(
          'not_found',
          `The password of "${name}" is not kept any more: connect it again (sift connect imap).`,
        );
      return secret;
    },
  };
}
