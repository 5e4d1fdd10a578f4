// The refusals' CSV is written as the exports are: a new file renamed into place, so a link left where it
// goes (an `--out` folder another account can write to) is replaced, and what it pointed at is untouched.
import { lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SyncStore } from '../../../../electron/core/connectors/sync-store.ts';
import { writeRefusals } from '../../../../electron/core/connectors/sync-outcome.ts';

const dir = mkdtempSync(join(tmpdir(), 'sift-refusals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store holding one refusal: all writeRefusals reads of it. */
const store = {
  refused: (_sync: number, after: number) =>
    after > 0
      ? []
      : [{ row: 1, email: 'ann@example.com', memberId: 'm1', change: 'tag:sift-invalid', words: 'Not Found' }],
} as unknown as SyncStore;

describe("a sync's refusals file", () => {
  it('replaces a link placed where it goes, and never writes through it', async () => {
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me\n');
    const path = join(dir, 'aud1.refused.csv');
    symlinkSync(victim, path);
    symlinkSync(victim, `${path}.partial`);
    await writeRefusals(store, 1, path);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(lstatSync(path).isSymbolicLink()).toBe(false);
    expect(readFileSync(path, 'utf8')).toBe(
      'email,member_id,change,refused_with\nann@example.com,m1,tag:sift-invalid,Not Found\n',
    );
  });
});
