// Data folders made by earlier code open whole with this version: one from the commit before each schema
// change of each store, and one per release (test/fixtures/data-folders, made by make-data-folder.ts).
// Each list reopens as the same job, sends nothing, and exports the same rows and numbers as that version
// did; the do-not-mail list and the verdict cache answer; the service's key works and its batch is there,
// billed as it was; every store brought up to date has its copy from before.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import Papa from 'papaparse';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fixtureBounces,
  fixtureListPath,
  fixtureListTime,
  fixtureSettings,
} from '../../fixtures/data-folders/fixture-list.ts';
import { untilPrinted } from '../../support/printed.ts';
import { appStoreFiles } from '../../../electron/core/app/data-stores.ts';
import { userVersionOnDisk } from '../../../electron/core/storage/store-versions.ts';
import { runSift } from '../../support/run-sift.ts';

const folders = new URL('../../fixtures/data-folders/', import.meta.url).pathname;
const kept = readdirSync(folders)
  .filter((name) => name.endsWith('.tar.gz'))
  .map((name) => name.replace(/\.tar\.gz$/, ''))
  .sort();
const sift = new URL('../../../electron/cli/sift.ts', import.meta.url).pathname;
const thisVersion = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

type Fixture = { label: string; version: string; steps: string[]; key?: string; batch?: string };

/** The folder unpacked, and its list put back where that version read it, as it was then. */
function unpack(label: string) {
  const dir = mkdtempSync(join(tmpdir(), `sift-${label}-`));
  execFileSync('tar', ['xzf', join(folders, `${label}.tar.gz`), '-C', dir]);
  rmSync(dirname(fixtureListPath), { recursive: true, force: true });
  mkdirSync(dirname(fixtureListPath), { recursive: true });
  copyFileSync(join(dir, 'beside-list', 'people.csv'), fixtureListPath);
  utimesSync(fixtureListPath, fixtureListTime, fixtureListTime);
  const info = JSON.parse(readFileSync(join(dir, 'fixture.json'), 'utf8')) as Fixture;
  return { dir, data: join(dir, 'data'), info };
}

/** A file the clean wrote, by its kind (`cleaned.csv`), whatever that version named it. */
function written(folder: string, kind: string): string {
  const name = readdirSync(folder).find((file) => file.endsWith(`.${kind}`));
  expect(name, `${kind} in ${folder}`).toBeDefined();
  return readFileSync(join(folder, name!), 'utf8');
}

/**
 * What an earlier version's annotated cell reads as today, where Sift changed how it shows the same fact
 * on purpose: a demo verdict's reason says it is a demo (issue 27, d59a2d3), and an address that cannot
 * be one is `bad_syntax`, no longer `invalid` (list files' schema 2).
 */
function shownSince(column: string, value: string, now: Record<string, string>): string {
  if (column === 'sift_reason' && now.sift_source === 'demo' && !value.startsWith('demo'))
    return value === '' ? 'demo' : `demo:${value}`;
  if (column === 'sift_result' && value === 'invalid' && now.sift_reason === 'syntax') return 'bad_syntax';
  return value;
}

/** Whether version `a` comes before `b` (x.y.z). */
const isBefore = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true }) < 0;

const rowsOf = (text: string) => Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true }).data;

// The list sits where the kept folders name it, outside the run's own temporary folder: removed here.
afterAll(() => rmSync(dirname(fixtureListPath), { recursive: true, force: true }));

describe('data folders from earlier versions', () => {
  it('include one for this release, so a release is never cut without its folder', () => {
    expect(kept).toContain(`release-${thisVersion}`);
  });

  it.each(kept)(
    '%s opens whole: the list, the do-not-mail list, the cache and the service',
    async (label) => {
      const { dir, data, info } = unpack(label);
      const env = { SIFT_DATA_DIR: data };
      const listFiles = () =>
        existsSync(join(data, 'jobs'))
          ? readdirSync(join(data, 'jobs')).filter((name) => name.endsWith('.sqlite'))
          : [];
      // Sift 0.1's first catalog kept every list in jobs.sqlite: its list moves to a file of its own.
      const jobsBefore = listFiles().length > 0 ? listFiles() : undefined;
      const older = appStoreFiles(data).filter(({ path, known }) => (userVersionOnDisk(path) ?? known) < known);

      const again = await runSift(['clean', fixtureListPath], env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toContain('This list was cleaned before: writing its files again, nothing is sent');
      expect(listFiles()).toHaveLength(1);
      if (jobsBefore) expect(listFiles()).toEqual(jobsBefore);

      // The same rows and numbers as that version exported; what later versions show differently on purpose
      // is listed in `shownSince` (columns added since are new, not changed).
      const beside = dirname(fixtureListPath);
      const then = join(dir, 'beside-list');
      const [oldRows, newRows] = [rowsOf(written(then, 'annotated.csv')), rowsOf(written(beside, 'annotated.csv'))];
      expect(newRows).toHaveLength(oldRows.length);
      oldRows.forEach((row, i) => {
        for (const [column, value] of Object.entries(row)) {
          expect(shownSince(column, value, newRows[i]!), `${label} row ${i} ${column}`).toBe(newRows[i]![column]);
        }
      });
      const [oldSummary, newSummary] = [then, beside].map(
        (folder) => JSON.parse(written(folder, 'summary.json')) as Record<string, number>,
      );
      for (const name of ['valid', 'catch_all', 'unknown', 'duplicates', 'role', 'disposable', 'billed'])
        if (name in oldSummary!) expect(newSummary![name], `${label} ${name}`).toBe(oldSummary![name]);
      // The funnel's first count was `submitted` before it was `rows` (5f43144).
      expect(newSummary!.rows).toBe(oldSummary!.rows ?? oldSummary!.submitted);
      // Bad syntax, once counted as invalid, has a count of its own (list files' schema 2).
      expect(newSummary!.invalid! + (newSummary!.bad_syntax ?? 0)).toBe(
        oldSummary!.invalid! + (oldSummary!.bad_syntax ?? 0),
      );
      // The cleaned list, the file a person imports again, is the very one that version wrote, wherever
      // its rules are this version's (from this release on; the annotated copy and the summary gain columns).
      if (!isBefore(info.version, '0.2.0')) expect(written(beside, 'cleaned.csv')).toBe(written(then, 'cleaned.csv'));
      // Exported again, the same bytes.
      const first = written(beside, 'annotated.csv');
      expect((await runSift(['clean', fixtureListPath], env)).code).toBe(0);
      expect(written(beside, 'annotated.csv')).toBe(first);

      if (info.steps.includes('suppress')) {
        const listed = await runSift(['suppress', 'list', '--json'], env);
        expect(listed.stdout).toContain('gone@firm.example');
      }
      if (info.steps.includes('outcomes')) {
        // The bounces read back are there as they were (ids and all), and on the do-not-mail list; the same
        // file read again adds none, so what kept each outcome once still does.
        const outcomes = async () =>
          (JSON.parse((await runSift(['outcomes', 'list', '--json'], env)).stdout) as Record<string, unknown>[]).map(
            ({ id, source, address, kind, words }) => ({ id, source, address, kind, words }),
          );
        const before = await outcomes();
        expect(before).toEqual([
          { id: 2, source: 'esp', address: 'full@elsewhere.example', kind: 'soft', words: '452 4.2.2 Mailbox full' },
          {
            id: 1,
            source: 'esp',
            address: 'left@elsewhere.example',
            kind: 'hard',
            words: '550 5.1.1 <left@elsewhere.example>: User unknown',
          },
        ]);
        expect((await runSift(['suppress', 'list', '--json'], env)).stdout).toContain('left@elsewhere.example');
        const bounces = join(dir, 'bounces.csv');
        writeFileSync(bounces, fixtureBounces);
        expect((await runSift(['outcomes', 'import', bounces, '--name', 'esp'], env)).code).toBe(0);
        expect(await outcomes()).toEqual(before);
      }
      if (existsSync(join(data, 'verdict-cache.sqlite'))) {
        const stats = JSON.parse((await runSift(['cache', 'stats', '--json'], env)).stdout) as { entries: number };
        expect(stats.entries).toBeGreaterThan(0);
      }
      // Each store brought up to date was copied first.
      for (const { path } of older) expect(existsSync(`${path}.before-${thisVersion}`), path).toBe(true);

      if (info.steps.includes('hosted') || info.steps.includes('proxy')) {
        // The app of this version reads the settings: the hosted service (its key in the vault), the proxy.
        const app = spawn(
          process.execPath,
          ['--disable-warning=ExperimentalWarning', sift, 'app', '--no-open', '--data', data],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        try {
          const [, link] = await untilPrinted(app, /running at (\S+)/, 'the app');
          const url = new URL(link!);
          const settings = (await (
            await fetch(`${url.origin}/api/calls/settings:get`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-sift-token': url.searchParams.get('token')! },
              body: '{}',
            })
          ).json()) as {
            value: { hosted: { baseUrl: string; maskedKey: string } | null; engine: { proxies?: string[] } };
          };
          if (info.steps.includes('hosted')) {
            expect(settings.value.hosted).toMatchObject({
              baseUrl: fixtureSettings.hosted.baseUrl,
              maskedKey: 'svc_live_…1234',
            });
            const vault = readdirSync(join(data, 'keys')).filter((name) => name.startsWith('con_'));
            expect(vault.map((name) => readFileSync(join(data, 'keys', name), 'utf8').trim())).toContain(
              fixtureSettings.hosted.apiKey,
            );
          }
          if (info.steps.includes('proxy'))
            expect(settings.value.engine.proxies).toEqual(['socks5://bob:•••@127.0.0.1:1080']);
        } finally {
          const ended = new Promise((resolve) => app.once('exit', resolve));
          app.kill('SIGINT');
          await ended;
        }
      }

      if (info.key && info.batch) {
        const service = spawn(
          process.execPath,
          ['--disable-warning=ExperimentalWarning', sift, 'service', '--data', join(data, 'service'), '--port', '0'],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        try {
          const [, baseUrl] = await untilPrinted(service, /service at (http:\/\/127\.0\.0\.1:\d+)/, 'sift service');
          const headers = { Authorization: `Bearer ${info.key}` };
          expect((await fetch(`${baseUrl}/v1/account`, { headers })).status).toBe(200);
          const batch = (await (await fetch(`${baseUrl}/v1/batches/${info.batch}`, { headers })).json()) as {
            status: string;
            summary: { billed: number };
          };
          expect(batch).toMatchObject({ status: 'complete', summary: { billed: 0 } });
        } finally {
          const ended = new Promise((resolve) => service.once('exit', resolve));
          service.kill('SIGINT');
          await ended;
        }
      }
    },
    60_000,
  );
});
