// The single executable `npm run dist` builds for this machine, run as a person who downloaded it would:
// from an empty folder whose PATH has no Node, against the repository's own `sift` on the same lists.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSift } from '../../support/run-sift.ts';
import { untilPrinted } from '../../support/printed.ts';
import { builtSift, testSigningKeyPath, type BuiltSift } from '../../support/sift-binary.ts';
import { publicKeyText, signSums, sumsSigned } from '../../../electron/core/updates/release-files.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let sift: BuiltSift;
const scratch = mkdtempSync(join(tmpdir(), 'sift-binary-'));
/** A PATH with nothing on it: no node, no npm. */
const emptyPath = join(scratch, 'empty-path');
mkdirSync(emptyPath);

beforeAll(async () => {
  sift = await builtSift();
}, 240_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The binary, run from its own empty folder with only an empty PATH and a home of its own. */
function runBinary(args: string[], cwd: string, env: Record<string, string> = {}) {
  return runSift(
    args,
    {
      PATH: emptyPath,
      HOME: join(cwd, 'home'),
      SIFT_DATA_DIR: join(cwd, 'data'),
      NODE_COMPILE_CACHE: undefined,
      NODE_OPTIONS: undefined,
      ...env,
    },
    120_000,
    {
      path: sift.executable,
      cwd,
    },
  );
}

const fixtures = [
  'test/fixtures/contacts.csv',
  'test/fixtures/newsletter.csv',
  ...readdirSync('test/fixtures/import')
    .filter((name) => /\.(csv|txt)$/.test(name))
    .map((name) => `test/fixtures/import/${name}`),
];

/** Every file `sift clean` wrote beside the list, by name, as bytes. */
function outputsOf(folder: string, list: string): Map<string, Buffer> {
  return new Map(
    readdirSync(folder)
      .filter((name) => name !== list && name !== 'data' && name !== 'home')
      .map((name) => [name, readFileSync(join(folder, name))]),
  );
}

describe('the single executable', () => {
  it('runs with no Node on the PATH and says its version and commit', async () => {
    expect(spawnSync('node', ['--version'], { env: { PATH: emptyPath } }).error).toMatchObject({ code: 'ENOENT' });
    const folder = mkdtempSync(join(scratch, 'version-'));
    const run = await runBinary(['--version'], folder);
    expect(run.code).toBe(0);
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(run.stdout.trim()).toMatch(
      new RegExp(`^sift ${version.replace(/\./g, '\\.')} \\([0-9a-f]{12}(-modified)?\\)$`),
    );
  });

  it('cleans the messy fixture lists into files byte-identical to the repository’s own sift clean', async () => {
    for (const fixture of fixtures) {
      const name = basename(fixture);
      const fromRepo = mkdtempSync(join(scratch, 'repo-'));
      const fromBinary = mkdtempSync(join(scratch, 'binary-'));
      copyFileSync(fixture, join(fromRepo, name));
      copyFileSync(fixture, join(fromBinary, name));
      const repoRun = await runSift(['clean', join(fromRepo, name), '--per-status'], {
        SIFT_DATA_DIR: join(fromRepo, 'data'),
      });
      const binaryRun = await runBinary(['clean', name, '--per-status'], fromBinary);
      expect(binaryRun.code, `${name}: ${binaryRun.stderr}`).toBe(repoRun.code);
      expect(binaryRun.stderr.replaceAll(fromBinary, 'DIR')).toBe(repoRun.stderr.replaceAll(fromRepo, 'DIR'));
      const expected = outputsOf(fromRepo, name);
      const got = outputsOf(fromBinary, name);
      expect([...got.keys()].sort(), name).toEqual([...expected.keys()].sort());
      for (const [file, bytes] of expected) expect(got.get(file)!.equals(bytes), `${name}: ${file}`).toBe(true);
    }
  }, 180_000);

  it('cleans a 30,000-row list through its import, service, export and cache threads as the repository does', async () => {
    const rows = ['email,name'];
    for (let i = 0; i < 30_000; i += 1)
      rows.push(`${i % 7 === 0 ? 'info' : `person${i}`}@domain${i % 97}.example.com,Person ${i}`);
    const text = `${rows.join('\n')}\n`;
    const fromRepo = mkdtempSync(join(scratch, 'repo-large-'));
    const fromBinary = mkdtempSync(join(scratch, 'binary-large-'));
    writeFileSync(join(fromRepo, 'large.csv'), text);
    writeFileSync(join(fromBinary, 'large.csv'), text);
    const repoRun = await runSift(['clean', join(fromRepo, 'large.csv')], { SIFT_DATA_DIR: join(fromRepo, 'data') });
    const binaryRun = await runBinary(['clean', 'large.csv'], fromBinary);
    expect(binaryRun.code, binaryRun.stderr).toBe(0);
    expect(repoRun.code).toBe(0);
    const expected = outputsOf(fromRepo, 'large.csv');
    const got = outputsOf(fromBinary, 'large.csv');
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [file, bytes] of expected) expect(got.get(file)!.equals(bytes), file).toBe(true);
    // The cache thread kept every verdict: the same list again is answered from it, nothing sent.
    const again = await runBinary(['clean', 'large.csv', '--restart', '--json'], fromBinary);
    expect(again.code, again.stderr).toBe(0);
    const summary = JSON.parse(again.stdout).summary;
    // Every verdict but unknown (never kept) comes from the cache; only the unknown ones are asked again.
    expect(summary.cached).toBe(summary.valid + summary.invalid + summary.catch_all);
    expect(summary.cached).toBeGreaterThan(20_000);
  }, 180_000);

  it('answers verify, suppress, cache and a bad command as the repository does', async () => {
    const fromRepo = mkdtempSync(join(scratch, 'repo-commands-'));
    const fromBinary = mkdtempSync(join(scratch, 'binary-commands-'));
    for (const args of [
      ['verify', 'ann@example.com'],
      ['verify', 'not an address'],
      ['suppress', 'add', 'ann@example.com', 'spam.example'],
      ['suppress', 'list'],
      ['cache', 'stats', '--json'],
      ['frobnicate'],
      ['clean', '--help'],
      ['help', 'update'],
      ['service', '--bogus'],
    ]) {
      const repoRun = await runSift(args, { SIFT_DATA_DIR: join(fromRepo, 'data') });
      const binaryRun = await runBinary(args, fromBinary);
      const said = (run: typeof repoRun, folder: string) => ({
        code: run.code,
        out: run.stdout.replaceAll(folder, 'DIR'),
        err: run.stderr.replaceAll(folder, 'DIR'),
      });
      expect(said(binaryRun, fromBinary), args.join(' ')).toEqual(said(repoRun, fromRepo));
    }
  }, 120_000);

  it('runs sift service, which answers GET /v1/account with a key it made', async () => {
    const folder = mkdtempSync(join(scratch, 'service-'));
    const made = await runBinary(['service', 'keys', 'create', '--data', join(folder, 'service')], folder);
    expect(made.code, made.stderr).toBe(0);
    const key = /(svc_test_\S+|svc_live_\S+)/.exec(made.stdout)![1]!;
    const child = spawn(sift.executable, ['service', '--port', '0', '--data', join(folder, 'service')], {
      cwd: folder,
      env: { PATH: emptyPath, HOME: join(folder, 'home') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [, baseUrl] = await untilPrinted(child, /service at (http:\/\/127\.0\.0\.1:\d+\S*)/, 'the base URL');
      const root = baseUrl!.replace(/\/v1\/?$/, '');
      const response = await fetch(`${root}/v1/account`, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ mode: 'sandbox' });
    } finally {
      child.kill('SIGINT');
    }
  }, 60_000);

  it('trusts an update signed with the key it was built with, and no other, whatever the environment says', async () => {
    const cwd = mkdtempSync(join(scratch, 'update-'));
    const sums = Buffer.from(`${'ab'.repeat(32)}  sift-9.9.9-linux-x64.tar.gz\n`);
    const testKey = readFileSync(testSigningKeyPath, 'utf8');
    const otherKey = readFileSync(join('test', 'fixtures', 'update-signing', 'other-key.pem'), 'utf8');
    let signature = signSums(sums, testKey);
    const feed = createServer((request, response) => {
      if (request.url === '/SHA256SUMS') response.end(sums);
      else if (request.url === '/SHA256SUMS.sig') response.end(signature);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    const env = { SIFT_UPDATE_URL: `http://127.0.0.1:${(feed.address() as AddressInfo).port}/` };
    try {
      const check = await runBinary(['update', '--check'], cwd, env);
      expect(check.stdout, check.stderr).toContain('Sift 9.9.9 is ready');
      signature = signSums(sums, otherKey);
      // The single file reads no key from its environment: only the one built into it.
      const refused = await runBinary(['update', '--check'], cwd, {
        ...env,
        SIFT_UPDATE_PUBLIC_KEY: publicKeyText(otherKey),
      });
      expect(refused.code).toBe(5);
      expect(refused.stderr).toContain("is not signed by Sift's key");
    } finally {
      feed.close();
    }
  }, 60_000);

  it('comes as an archive that SHA256SUMS verifies, holding the binary, a first-start text and the licences', () => {
    const check = execFileSync('sha256sum', ['--check', 'SHA256SUMS'], { cwd: sift.outDir }).toString();
    expect(check.trim().split('\n').sort()).toEqual([`${basename(sift.archive)}: OK`, 'CHANGES.txt: OK'].sort());
    // Signed with the key the test build was given; the file trusts it (sift-update.test.ts asks it).
    const signature = readFileSync(join(sift.outDir, 'SHA256SUMS.sig'), 'utf8');
    const key = publicKeyText(readFileSync(testSigningKeyPath, 'utf8'));
    expect(sumsSigned(readFileSync(sift.checksums), signature, key)).toBe(true);
    const listing = execFileSync('tar', ['tzvf', sift.archive]).toString().trim().split('\n');
    const folder = basename(sift.archive, '.tar.gz');
    expect(listing.map((line) => line.split(/\s+/).at(-1)).sort()).toEqual(
      [`${folder}/FIRST-START.txt`, `${folder}/LICENSES.txt`, `${folder}/sift`].sort(),
    );
    expect(listing.find((line) => line.endsWith('/sift'))).toMatch(/^-rwxr-xr-x/);
    const licences = execFileSync('tar', ['xzOf', sift.archive, `${folder}/LICENSES.txt`]).toString();
    for (const name of ['Node.js 26', 'papaparse', 'react ', 'zod ', 'exceljs ']) expect(licences).toContain(name);
    const firstStart = execFileSync('tar', ['xzOf', sift.archive, `${folder}/FIRST-START.txt`]).toString();
    expect(firstStart).toContain('./sift');
    expect(firstStart).toContain('~/.config/Sift');
    expect(firstStart).toContain('sift update --check');
  });
});
