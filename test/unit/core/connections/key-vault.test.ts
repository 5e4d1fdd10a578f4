// Where main keeps a hosted service's key: encrypted with the OS keyring when there is one, in memory
// for this run only when there is not, and in a file only this user may read in the web host.
import { mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsStorage } from '../../../../electron/core/connections/app-settings.ts';
import { ciphertextsIn, fileVault, safeStorageVault } from '../../../../electron/core/connections/key-vault.ts';

const key = 'svc_live_vaultTestKey0123456789abcd';

function fakeSafeStorage(available: boolean) {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (plain: string) => Buffer.from([...Buffer.from(plain)].map((byte) => byte ^ 0x5a)),
    decryptString: (encrypted: Buffer) => Buffer.from([...encrypted].map((byte) => byte ^ 0x5a)).toString(),
  };
}

describe('key vault', () => {
  it('keeps the key encrypted in the settings file when the keyring is there', () => {
    const file = { store: {} as Record<string, unknown> };
    const settings = settingsStorage(file);
    const vault = safeStorageVault(fakeSafeStorage(true), ciphertextsIn(settings));
    expect(vault.protection).toBe('encrypted');
    vault.put('con_1', key);
    expect(JSON.stringify(file.store)).not.toContain(key);
    expect(Object.keys(settings.read().encryptedKeys)).toEqual(['con_1']);
    // Another vault over the same file (the next run) reads it back.
    expect(safeStorageVault(fakeSafeStorage(true), ciphertextsIn(settings)).get('con_1')).toBe(key);
    vault.remove('con_1');
    expect(settings.read().encryptedKeys).toEqual({});
  });

  it('keeps the key in memory for this run only when there is no keyring', () => {
    const file = { store: {} as Record<string, unknown> };
    const vault = safeStorageVault(fakeSafeStorage(false), ciphertextsIn(settingsStorage(file)));
    expect(vault.protection).toBe('this-run-only');
    vault.put('con_1', key);
    expect(vault.get('con_1')).toBe(key);
    expect(JSON.stringify(file.store)).not.toContain(key);
    expect(safeStorageVault(fakeSafeStorage(false), ciphertextsIn(settingsStorage(file))).get('con_1')).toBe(undefined);
  });

  it('writes a file only its user may read in the web host', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'sift-vault-')), 'keys');
    const vault = fileVault(dir);
    expect(vault.protection).toBe('file-0600');
    vault.put('con_1', key);
    const [name] = await readdir(dir);
    expect((await stat(join(dir, name!))).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(fileVault(dir).get('con_1')).toBe(key);
    vault.remove('con_1');
    expect(vault.get('con_1')).toBeUndefined();
  });
});
