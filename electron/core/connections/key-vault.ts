// Where a hosted service's API key is kept in main, never in the renderer:
//   encrypted      Electron's safeStorage (the OS keyring), the ciphertext in the settings file
//   this-run-only  no keyring: in memory, gone when Sift quits (the Settings screen says so)
//   file-0600      the loopback web host (no Electron): a file only this user may read, not encrypted
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SettingsStorage } from './app-settings.ts';

type KeyProtection = 'encrypted' | 'this-run-only' | 'file-0600';

export type KeyVault = {
  readonly protection: KeyProtection;
  put(id: string, key: string): void;
  get(id: string): string | undefined;
  remove(id: string): void;
};

/** Electron's safeStorage, as far as the vault needs it (tests pass a fake). */
export type SafeStorage = {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
};

/** Where the encrypted keys are persisted (the settings file), by connection id, base64. */
export type CiphertextStore = {
  read(): Record<string, string>;
  write(ciphertexts: Record<string, string>): void;
};

function memoryVault(): KeyVault {
  const keys = new Map<string, string>();
  return {
    protection: 'this-run-only',
    put: (id, key) => void keys.set(id, key),
    get: (id) => keys.get(id),
    remove: (id) => void keys.delete(id),
  };
}

/** The encrypted keys kept in the settings file, beside the rest of the settings. */
export function ciphertextsIn(settings: SettingsStorage): CiphertextStore {
  return {
    read: () => settings.read().encryptedKeys,
    write: (encryptedKeys) => settings.write({ ...settings.read(), encryptedKeys }),
  };
}

/** The OS keyring when Electron has one; otherwise keys live for this run only. */
export function safeStorageVault(safeStorage: SafeStorage, ciphertexts: CiphertextStore): KeyVault {
  if (!safeStorage.isEncryptionAvailable()) return memoryVault();
  return {
    protection: 'encrypted',
    put(id, key) {
      ciphertexts.write({ ...ciphertexts.read(), [id]: safeStorage.encryptString(key).toString('base64') });
    },
    get(id) {
      const stored = ciphertexts.read()[id];
      return stored === undefined ? undefined : safeStorage.decryptString(Buffer.from(stored, 'base64'));
    },
    remove(id) {
      const { [id]: _gone, ...rest } = ciphertexts.read();
      ciphertexts.write(rest);
    },
  };
}

/** A file per key under `dir`, readable and writable by this user only. */
export function fileVault(dir: string): KeyVault {
  const pathOf = (id: string) => join(dir, `${id.replace(/[^A-Za-z0-9_-]/g, '')}.key`);
  return {
    protection: 'file-0600',
    put(id, key) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(pathOf(id), key, { mode: 0o600 });
      // An existing file keeps its old mode on write: set it again.
      chmodSync(pathOf(id), 0o600);
    },
    get(id) {
      try {
        return readFileSync(pathOf(id), 'utf8');
      } catch {
        return undefined;
      }
    },
    remove: (id) => rmSync(pathOf(id), { force: true }),
  };
}
