// A file of named settings whose secrets are kept apart, in the key vault, by name: the mailing tools a
// person connected (connectors.json) and the bounce mailboxes (outcomes/mailboxes.json) are kept so. The
// file never holds a secret; a file Sift cannot read is said in words and left as it is.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { z } from 'zod';
import { AppError } from '../../common/app-error.ts';
import type { KeyVault } from './key-vault.ts';

export type NamedSecretsFile<T extends { name: string }> = {
  list(): T[];
  get(name: string): T | undefined;
  /** Keeps the entry and its secret, replacing one of the same name. */
  save(entry: T, secret: string): void;
  /** Forgets the entry and its secret; answers whether there was one. */
  remove(name: string): boolean;
  /** The entry's kept secret, if it is still kept. */
  secret(name: string): string | undefined;
};

export function namedSecretsFile<T extends { name: string }>(options: {
  path: string;
  /** The file's one field, the array of entries (`connections`). */
  field: string;
  entry: z.ZodType<T>;
  /** What is said when the file is not one Sift can read. */
  unreadable: string;
  /** The key vault's name for an entry's secret. */
  secretId: (name: string) => string;
  vault: KeyVault;
}): NamedSecretsFile<T> {
  const { path, field, vault, secretId } = options;
  const fileSchema = z.object({ [field]: z.array(options.entry) });
  const read = (): T[] => {
    if (!existsSync(path)) return [];
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      json = undefined; // not JSON at all (a cut write, an edit gone wrong): said below like any other
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) throw new AppError('bad_request', options.unreadable);
    return parsed.data[field] as T[];
  };
  const write = (entries: T[]) => {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(`${path}.new`, `${JSON.stringify({ [field]: entries }, null, 2)}\n`, { mode: 0o600 });
    renameSync(`${path}.new`, path);
  };
  return {
    list: read,
    get: (name) => read().find((entry) => entry.name === name),
    save(entry, secret) {
      vault.put(secretId(entry.name), secret);
      write([...read().filter((other) => other.name !== entry.name), entry]);
    },
    remove(name) {
      const before = read();
      const after = before.filter((entry) => entry.name !== name);
      vault.remove(secretId(name));
      if (after.length === before.length) return false;
      write(after);
      return true;
    },
    secret: (name) => vault.get(secretId(name)),
  };
}
