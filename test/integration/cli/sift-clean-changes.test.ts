// What changed since a list was last checked: a list cleaned twice against a service that answers some
// addresses differently the second time, with every address checked again (--no-cache): the counts of
// changes are exact in the summary file, in what `sift clean` prints, and in the report.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, onTestFinished } from 'vitest';
import { runSiftHere } from '../../support/run-sift-here.ts';
import { startSpecPeer } from '../../support/spec-peer.ts';

const apiKey = 'svc_live_changes_test_key_0123456789';

it('counts what changed since the last check, exactly, in the summary, the output and the report', async () => {
  const verdicts = new Map<string, string>();
  const peer = await startSpecPeer({ apiKey, verdicts });
  onTestFinished(() => peer.close());
  const dir = await mkdtemp(join(tmpdir(), 'sift-changes-'));
  const list = join(dir, 'spring.csv');
  const valid = Array.from({ length: 8 }, (_, i) => `valid.p${i}@example.com`);
  const invalid = ['invalid.q0@example.org', 'invalid.q1@example.org'];
  await writeFile(list, `email\n${[...valid, ...invalid].join('\n')}\n`);
  const env = { SIFT_DATA_DIR: join(dir, 'data'), SIFT_API_KEY: apiKey };
  const clean = (...flags: string[]) => runSiftHere(['clean', list, '--base-url', peer.baseUrl, ...flags], env);

  const first = await clean();
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).not.toContain('Changed since the last check');
  const firstSummary = JSON.parse(await readFile(join(dir, 'spring.summary.json'), 'utf8'));
  expect(firstSummary.changed).toBeUndefined();

  // A quarter later, as far as the service is concerned: two valid went bad, one invalid came back, one
  // valid became catch-all and one stopped answering.
  verdicts.set(valid[0]!, 'invalid');
  verdicts.set(valid[1]!, 'invalid');
  verdicts.set(valid[2]!, 'catch_all');
  verdicts.set(valid[3]!, 'unknown');
  verdicts.set(invalid[0]!, 'valid');
  const second = await clean('--restart', '--no-cache', '--report');
  expect(second.code, second.stderr).toBe(0);
  const summary = JSON.parse(await readFile(join(dir, 'spring.summary.json'), 'utf8'));
  expect(summary.changed).toMatchObject({
    compared: 10,
    was_valid: 8,
    valid_to_invalid: 2,
    invalid_to_valid: 1,
    became_catch_all: 1,
    became_unknown: 1,
    unchanged: 5,
  });
  expect(Date.parse(summary.changed.earlier_checked_at)).toBeLessThanOrEqual(Date.now());
  const sentence =
    'Of the 10 addresses checked before (from ' +
    new Date(summary.changed.earlier_checked_at).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'UTC',
    }) +
    '), 25% of those that were valid are now invalid (2 of 8). 1 invalid became valid; 1 became catch-all; ' +
    '1 no longer answer (unknown); 5 are as they were, earlier the same day.';
  expect(second.stdout).toContain(`Changed since the last check: ${sentence}`);
  const report = await readFile(join(dir, 'spring.report.html'), 'utf8');
  expect(report).toContain('<h2>What changed since the last check</h2>');
  expect(report).toContain(sentence);
  // Nothing of this keeps an address in clear: the cache holds keyed hashes only.
  const cache = await readFile(join(dir, 'data', 'verdict-cache.sqlite')).catch(() => Buffer.alloc(0));
  expect(cache.includes(Buffer.from('example.com'))).toBe(false);
});
