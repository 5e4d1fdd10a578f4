// The do-not-mail list from a terminal: `sift suppress add` takes entries and files, `list` shows and
// searches them, `remove` and `clear --yes` take them off; `sift clean` leaves out what is on it and what
// a one-off `--suppress FILE` names, says so in its funnel, and writes them to list.suppressed.csv.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSiftHere } from '../../support/run-sift-here.ts';

describe('sift suppress', () => {
  it('keeps a do-not-mail list that sift clean honours, with a one-off list beside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-suppress-cli-'));
    const env = { SIFT_DATA_DIR: join(dir, 'data') };
    const unsubscribes = join(dir, 'unsubscribes.txt');
    await writeFile(unsubscribes, 'gone@shop.example\nrival.example\nnot an entry\n');

    const added = await runSiftHere(['suppress', 'add', unsubscribes, 'Legal@Firm.example'], env);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('unsubscribes.txt: 2 added, 0 already listed.');
    expect(added.stdout).toContain('Left out 1 line that is neither an address nor a domain');
    expect(added.stdout).toContain('1 added, 0 already listed.');
    const refused = await runSiftHere(['suppress', 'add', 'nonsense'], env);
    expect(refused.code).toBe(2);

    const listed = await runSiftHere(['suppress', 'list', '--json'], env);
    expect(JSON.parse(listed.stdout).map((entry: { value: string }) => entry.value)).toEqual([
      'legal@firm.example',
      'rival.example',
      'gone@shop.example',
    ]);
    const searched = await runSiftHere(['suppress', 'list', '--search', 'shop'], env);
    expect(searched.stdout.trim().split('\n')).toHaveLength(1);
    expect(searched.stderr).toContain('1 shown; the list holds 2 addresses and 1 domain.');

    const list = join(dir, 'members.csv');
    await writeFile(
      list,
      'Email\nvalid.a@shop.example\nGONE@shop.example\nvalid.b@rival.example\nvalid.c@mall.example\nvalid.d@once.example\n',
    );
    const oneOff = join(dir, 'once.csv');
    await writeFile(oneOff, 'email\nvalid.d@once.example\n');
    const clean = await runSiftHere(['clean', list, '--per-status', '--suppress', oneOff, '--json'], env);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stderr).toContain('2 addresses to check');
    const report = JSON.parse(clean.stdout);
    expect(report.summary).toMatchObject({ rows: 5, suppressed: 3, to_check: 2 });
    const suppressedFile = await readFile(join(dir, 'members.demo.suppressed.csv'), 'utf8');
    expect(suppressedFile).toContain('GONE@shop.example');
    expect(suppressedFile).toContain('valid.d@once.example');
    expect(await readFile(report.cleaned, 'utf8')).not.toMatch(/gone|rival|once/i);

    expect((await runSiftHere(['clean', list, '--suppress', join(dir, 'missing.csv')], env)).code).toBe(2);

    const removed = await runSiftHere(['suppress', 'remove', '@Rival.example', 'nobody@x.example'], env);
    expect(removed.stdout).toContain('1 removed; 1 was not listed.');
    expect((await runSiftHere(['suppress', 'clear'], env)).code).toBe(2);
    const cleared = await runSiftHere(['suppress', 'clear', '--yes'], env);
    expect(cleared.stdout).toContain('Forgot 2 entries');
  }, 120_000);
});
