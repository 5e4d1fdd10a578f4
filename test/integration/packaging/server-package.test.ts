// The server package (npm run dist's .deb): lintian finds no error, and on this machine (as root, as CI
// runs) it installs, runs `sift service` as the `sift` user with its data in /var/lib/sift, keeps the
// settings across a reinstall, keeps the data on removal, and leaves the machine as it was when purged.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInfo } from '../../../electron/core/own-files.ts';
import { buildDeb } from '../../../packaging/deb.ts';
import { licencesText } from '../../../packaging/licences.ts';
import { nodeBinaryFor } from '../../../packaging/node-binaries.ts';
import { nodeVersion, targetById } from '../../../packaging/targets.ts';
import { untilPrinted } from '../../support/printed.ts';
import { builtSift } from '../../support/sift-binary.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'sift-deb-'));
const asRoot = process.getuid?.() === 0 && existsSync('/usr/bin/dpkg');
let deb: string;

/** Absolute: the service's own environment, as the unit gives it, has no sbin on its PATH. */
const runuser = '/usr/sbin/runuser';
const run = (command: string, args: string[]) => execFileSync(command, args, { encoding: 'utf8' });
const installed = () => spawnSync('dpkg-query', ['-W', '-f=${Status}', 'sift'], { encoding: 'utf8' }).stdout;

beforeAll(async () => {
  const target = targetById('linux-x64');
  const { executable } = await builtSift();
  deb = await buildDeb({
    root,
    target,
    executable,
    build: buildInfo(),
    licences: licencesText(root, nodeVersion, nodeBinaryFor(root, target).licence!),
    workDir: join(scratch, 'work'),
    outDir: scratch,
  });
}, 300_000);

afterAll(() => {
  // Whatever a failed step left: the machine as it was.
  if (asRoot && installed().includes('installed')) spawnSync('dpkg', ['--purge', 'sift']);
  rmSync(scratch, { recursive: true, force: true });
});

describe('the server package', () => {
  it('is named for its version and architecture, and lintian finds no error in it', () => {
    expect(deb).toMatch(/sift_\d+\.\d+\.\d+_amd64\.deb$/);
    const said = spawnSync('lintian', ['--tag-display-limit', '0', deb], { encoding: 'utf8' });
    expect(said.error, 'lintian must be installed (apt-get install lintian)').toBeUndefined();
    const errors = `${said.stdout}${said.stderr}`.split('\n').filter((line) => line.startsWith('E:'));
    expect(errors).toEqual([]);
  }, 180_000);

  it('holds the binary, a hardened unit on loopback, and the settings as a kept conffile', () => {
    const contents = run('dpkg-deb', ['--contents', deb]);
    for (const path of ['./usr/bin/sift', './lib/systemd/system/sift.service', './etc/sift/sift.env'])
      expect(contents).toContain(path);
    expect(contents).toMatch(/-rw-r----- root\/root .* \.\/etc\/sift\/sift\.env/);
    const folder = join(scratch, 'unpacked');
    run('dpkg-deb', ['-R', deb, folder]);
    expect(readFileSync(join(folder, 'DEBIAN', 'conffiles'), 'utf8')).toBe('/etc/sift/sift.env\n');
    const service = readFileSync(join(folder, 'lib/systemd/system/sift.service'), 'utf8');
    for (const line of [
      'User=sift',
      'NoNewPrivileges=true',
      'ProtectSystem=strict',
      'ProtectHome=true',
      'PrivateTmp=true',
      'ReadWritePaths=/var/lib/sift',
      'Restart=on-failure',
      'EnvironmentFile=/etc/sift/sift.env',
      'ExecStart=/usr/bin/sift service --data /var/lib/sift',
    ])
      expect(service).toContain(line);
    const verify = spawnSync('systemd-analyze', ['verify', join(folder, 'lib/systemd/system/sift.service')], {
      encoding: 'utf8',
    });
    if (!verify.error) expect(verify.stderr).not.toMatch(/Unknown key|Failed to parse|Invalid/);
    // The packaged unit's exposure score never rises above the figure docs/security.md records.
    const recorded = /`systemd-analyze security` scores the unit \*\*(\d+\.\d)\*\*/.exec(
      readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8'),
    );
    const security = spawnSync(
      'systemd-analyze',
      ['security', '--offline=true', '--no-pager', join(folder, 'lib/systemd/system/sift.service')],
      { encoding: 'utf8' },
    );
    const score = /Overall exposure level for sift\.service: (\d+\.\d)/.exec(security.stdout);
    expect(score, security.stderr).not.toBeNull();
    expect(Number(score![1])).toBeLessThanOrEqual(Number(recorded![1]));
  });

  it.runIf(asRoot)(
    'installs, runs the service as sift in /var/lib/sift, keeps settings and data, and purges clean',
    async () => {
      expect(installed(), 'sift must not be installed before this test').not.toContain('ok installed');
      run('dpkg', ['-i', deb]);
      expect(run('getent', ['passwd', 'sift'])).toContain('/var/lib/sift');
      const data = statSync('/var/lib/sift');
      expect(data.mode & 0o777).toBe(0o700);
      const settings = statSync('/etc/sift/sift.env');
      expect(settings.mode & 0o777).toBe(0o640);
      expect(settings.uid).toBe(0);
      expect(settings.gid).toBe(Number(run('getent', ['group', 'sift']).split(':')[2]));

      // As the unit runs it: the sift user, the settings file's environment (here on a free port).
      const made = run(runuser, [
        '-u',
        'sift',
        '--',
        '/usr/bin/sift',
        'service',
        'keys',
        'create',
        '--live',
        '--data',
        '/var/lib/sift',
      ]);
      const key = /(svc_live_\S+)/.exec(made)![1]!;
      const child = spawn(runuser, ['-u', 'sift', '--', '/usr/bin/sift', 'service', '--data', '/var/lib/sift'], {
        env: {
          PATH: '/usr/bin:/bin',
          SIFT_PORT: '0',
          SIFT_HELO: 'mail.example.com',
          SIFT_MAIL_FROM: 'verify@example.com',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const [, baseUrl, helo, mailFrom] = await untilPrinted(
          child,
          /service at (http:\/\/127\.0\.0\.1:\d+)[\s\S]*EHLO (\S+) and MAIL FROM:<([^>]*)>/,
          'the base URL and the sender',
        );
        expect([helo, mailFrom]).toEqual(['mail.example.com', 'verify@example.com']);
        const response = await fetch(`${baseUrl}/v1/account`, { headers: { Authorization: `Bearer ${key}` } });
        expect(response.status).toBe(200);
      } finally {
        // runuser passes SIGTERM on (as systemd stops a unit); the service has stopped when it exits.
        const ended = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await ended;
      }
      const sift = Number(run('id', ['-u', 'sift']));
      expect(statSync('/var/lib/sift/service.sqlite').uid).toBe(sift);
      expect(statSync('/var/lib/sift/service.sqlite').mode & 0o077).toBe(0);

      // A changed setting survives a reinstall of the package.
      writeFileSync(
        '/etc/sift/sift.env',
        `${readFileSync('/etc/sift/sift.env', 'utf8')}\nSIFT_HELO=kept.example.com\n`,
      );
      run('dpkg', ['-i', deb]);
      expect(readFileSync('/etc/sift/sift.env', 'utf8')).toContain('SIFT_HELO=kept.example.com');

      run('dpkg', ['-r', 'sift']);
      expect(existsSync('/usr/bin/sift')).toBe(false);
      expect(existsSync('/var/lib/sift/service.sqlite')).toBe(true);

      run('dpkg', ['--purge', 'sift']);
      expect(existsSync('/var/lib/sift')).toBe(false);
      expect(existsSync('/etc/sift')).toBe(false);
      expect(spawnSync('getent', ['passwd', 'sift']).status).not.toBe(0);
      expect(spawnSync('getent', ['group', 'sift']).status).not.toBe(0);
    },
    120_000,
  );
});
