// Putting a new file in the running one's place on Windows, where a running .exe can only be renamed: if
// the new file cannot then take the name, the old one gets it back, so there is always a sift.exe.
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { swapIn } from '../../../../electron/core/updates/self-replace.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function folder() {
  dir = mkdtempSync(join(tmpdir(), 'sift-swap-'));
  const [exe, fresh, previous] = ['sift.exe', '.sift-update.new.exe', 'sift.previous.exe'].map((name) =>
    join(dir, name),
  );
  writeFileSync(exe!, 'old');
  writeFileSync(fresh!, 'new');
  return { exe: exe!, fresh: fresh!, previous: previous! };
}

describe('swapping the new file in on Windows', () => {
  it('renames the running file away, then the new one into its name', () => {
    const { exe, fresh, previous } = folder();
    swapIn(fresh, exe, previous, 'win32');
    expect(readFileSync(exe, 'utf8')).toBe('new');
    expect(readFileSync(previous, 'utf8')).toBe('old');
  });

  it('puts the old file back when the second rename fails, and says so', () => {
    const { exe, fresh, previous } = folder();
    let renames = 0;
    // A stand-in for Windows refusing the second rename (another process holding the new file, say).
    const rename = (from: string, to: string) => {
      renames += 1;
      if (renames === 2) throw Object.assign(new Error('EBUSY: resource busy or locked'), { code: 'EBUSY' });
      renameSync(from, to);
    };
    expect(() => swapIn(fresh, exe, previous, 'win32', rename)).toThrow(
      /could not take sift\.exe's place .*the old one is back/,
    );
    expect(readFileSync(exe, 'utf8')).toBe('old');
    expect(readdirSync(dir).sort()).toEqual(['.sift-update.new.exe', 'sift.exe']);
  });
});
