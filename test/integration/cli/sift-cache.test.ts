// The verdict cache from a terminal: a list cleaned again says before sending how many addresses are
// known already, `--no-cache` sends them all, `sift cache stats` and `clear` show and forget what is kept,
// and a mistyped flag is refused before anything happens.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { runSiftHere } from '../../support/run-sift-here.ts';

describe('sift cache', () => {
  it('reuses, shows and forgets verdicts, and refuses mistyped flags', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sift-cache-cli-'));
    const env = { SIFT_DATA_DIR: join(dir, 'data') };
    const list = join(dir, 'people.csv');
    const addresses = Array.from(
      { length: 40 },
      (_, i) => `${['valid', 'invalid', 'unknown'][i % 3]}${i}@firm.example`,
    );
    await writeFile(list, `email\n${addresses.join('\n')}\n`);

    const empty = await runSiftHere(['cache', 'stats'], env);
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('Verdict cache: empty.');

    const first = await runSiftHere(['clean', list], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain('40 addresses to check');
    expect(first.stderr).not.toContain('known from earlier lists');

    // 27 valid or invalid verdicts are kept; the 13 unknown ones never are.
    const stats = JSON.parse((await runSiftHere(['cache', 'stats', '--json'], env)).stdout) as Record<string, number>;
    expect(stats).toMatchObject({ entries: 27, sandbox: 27, live: 0 });

    const again = await runSiftHere(['clean', list, '--restart', '--json'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('13 addresses to check');
    expect(again.stderr).toContain('27 known from earlier lists (the verdict cache): not sent, free.');
    expect(JSON.parse(again.stdout).summary).toMatchObject({ to_check: 40, cached: 27, unverified: 0 });

    const fresh = await runSiftHere(['clean', list, '--restart', '--no-cache'], env);
    expect(fresh.stderr).toContain('40 addresses to check');
    expect(fresh.stderr).not.toContain('known from earlier lists');
    // Three cleans, three starts of Sift's own service on three ports: its records know it by one name.
    const namesIn = (file: string, query: string) => {
      const db = new DatabaseSync(join(dir, 'data', file), { readOnly: true });
      try {
        return db
          .prepare(query)
          .all()
          .map((row) => Object.values(row)[0]);
      } finally {
        db.close();
      }
    };
    expect(namesIn('service-reach.sqlite', 'SELECT service_url FROM reach')).toEqual(['sift:own-service']);
    expect(namesIn('verdict-cache.sqlite', 'SELECT url FROM services')).toEqual(['sift:own-service']);

    for (const [flags, message] of [
      [['--max-age', 'soon'], '--max-age takes a number of days'],
      [['--max-age=-1'], '--max-age takes a number of days'],
      [['--max-age', '5', '--no-cache'], 'Give --no-cache or --max-age, not both.'],
    ] as const) {
      const refused = await runSiftHere(['clean', list, '--restart', ...flags], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(message);
    }
    expect((await runSiftHere(['cache', 'empty'], env)).code).toBe(2);

    const cleared = await runSiftHere(['cache', 'clear'], env);
    expect(cleared.stdout).toContain('Forgot 27 kept verdicts.');
    const afterClear = await runSiftHere(['clean', list, '--restart'], env);
    expect(afterClear.stderr).toContain('40 addresses to check');
  }, 120_000);
});
