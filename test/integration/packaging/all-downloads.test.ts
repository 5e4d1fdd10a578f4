// `npm run dist` whole: an archive for each of the four computers and a server package for each Linux
// architecture, every file listed in SHA256SUMS, each archive holding the executable for its computer
// with Sift's blob injected, the first-start text and the licences.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDownloads, type DistResult } from '../../../packaging/dist.ts';
import { targets } from '../../../packaging/targets.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'sift-dist-'));
let dist: DistResult;

beforeAll(async () => {
  execFileSync(
    join(root, 'node_modules', '.bin', 'vite'),
    ['build', '--logLevel', 'error', '--outDir', join(scratch, 'renderer'), '--emptyOutDir'],
    { cwd: root },
  );
  dist = await buildDownloads({
    root,
    targets,
    debs: true,
    rendererDir: join(scratch, 'renderer'),
    outDir: join(scratch, 'downloads'),
    workDir: join(scratch, 'work'),
  });
}, 900_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What each executable's first bytes must say: its format and processor. */
function formatOf(bytes: Buffer): string {
  if (bytes.readUInt32BE(0) === 0x7f454c46) return `elf-${{ 0x3e: 'x64', 0xb7: 'arm64' }[bytes.readUInt16LE(18)]}`;
  if (bytes.readUInt32LE(0) === 0xfeedfacf) return `macho-${bytes.readUInt32LE(4) === 0x01000007 ? 'x64' : '?'}`;
  if (bytes.toString('latin1', 0, 2) === 'MZ') {
    const pe = bytes.readUInt32LE(0x3c);
    return `pe-${bytes.readUInt16LE(pe + 4) === 0x8664 ? 'x64' : '?'}`;
  }
  return 'unknown';
}
const expectedFormat = {
  'linux-x64': 'elf-x64',
  'linux-arm64': 'elf-arm64',
  'darwin-x64': 'macho-x64',
  'win-x64': 'pe-x64',
};

describe('npm run dist', () => {
  it('writes an archive per computer and a .deb per Linux architecture, all in SHA256SUMS, which verifies', () => {
    const names = [...dist.archives, ...dist.debs].map((file) => basename(file)).sort();
    const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(names).toEqual(
      [
        `sift-${version}-darwin-x64.tar.gz`,
        `sift-${version}-linux-arm64.tar.gz`,
        `sift-${version}-linux-x64.tar.gz`,
        `sift-${version}-win-x64.zip`,
        `sift_${version}_amd64.deb`,
        `sift_${version}_arm64.deb`,
      ].sort(),
    );
    const check = execFileSync('sha256sum', ['--check', 'SHA256SUMS'], { cwd: dist.outDir }).toString();
    expect(check.trim().split('\n').sort()).toEqual([...names, 'CHANGES.txt'].map((name) => `${name}: OK`).sort());
  });

  it('puts in each archive the executable for its computer, with Sift inside, the first-start text and the licences', async () => {
    for (const target of targets) {
      const archive = dist.archives.find((file) => basename(file).includes(`-${target.id}.`))!;
      const folder = basename(archive).replace(/\.(tar\.gz|zip)$/, '');
      let entries: Map<string, Buffer>;
      if (target.archive === 'zip') {
        // Debian's unzip, as a person on Windows would open it: the archive's own listing, each file whole.
        const names = execFileSync('unzip', ['-Z1', archive]).toString().trim().split('\n');
        entries = new Map(
          names.map((name) => [name, execFileSync('unzip', ['-p', archive, name], { maxBuffer: 1 << 30 })]),
        );
      } else {
        const names = execFileSync('tar', ['tzf', archive]).toString().trim().split('\n');
        entries = new Map(
          names.map((name) => [name, execFileSync('tar', ['xzOf', archive, name], { maxBuffer: 1 << 30 })]),
        );
      }
      expect([...entries.keys()].sort(), target.id).toEqual(
        [`${folder}/FIRST-START.txt`, `${folder}/LICENSES.txt`, `${folder}/${target.executable}`].sort(),
      );
      const executable = entries.get(`${folder}/${target.executable}`)!;
      expect(formatOf(executable), target.id).toBe(expectedFormat[target.id]);
      // postject flips the fuse when it injects the blob; the bundle's own text is in the blob.
      expect(executable.includes('NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2:1'), target.id).toBe(true);
      expect(executable.includes('electron/core/own-files.ts'), target.id).toBe(true);
      expect(entries.get(`${folder}/LICENSES.txt`)!.toString()).toContain('Node.js 26');
      expect(entries.get(`${folder}/FIRST-START.txt`)!.toString()).toContain(target.executable);
    }
  });

  it('says on macOS and Windows what was not done to the file, and how to open it anyway', () => {
    const mac = dist.archives.find((file) => file.includes('darwin'))!;
    const text = execFileSync('tar', ['xzOf', mac, `${basename(mac, '.tar.gz')}/FIRST-START.txt`]).toString();
    expect(text).toContain('not signed or notarised');
    const zip = dist.archives.find((file) => file.endsWith('.zip'))!;
    const windows = execFileSync('unzip', ['-p', zip, `${basename(zip, '.zip')}/FIRST-START.txt`]).toString();
    expect(windows).toContain('not signed');
    expect(windows).toContain('SmartScreen');
  });
});
