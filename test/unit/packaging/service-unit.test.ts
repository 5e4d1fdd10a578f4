// The server package's systemd unit: the hardening directives issue 43 asks for, and its exposure score
// as `systemd-analyze security` gives it, never above the figure docs/security.md records (at most 2.0).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const unitPath = new URL('../../../packaging/deb/sift.service', import.meta.url).pathname;
const unit = readFileSync(unitPath, 'utf8');
const readme = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');
const analyzer = spawnSync('systemd-analyze', ['--version']).status === 0;
/** CI runs as root and installs systemd's tools (.ci/run): there the score is always measured. */
const required = process.getuid?.() === 0 || process.env.SIFT_REAL_MTA === 'required';

describe('the service unit', () => {
  it('has the sandboxing directives, and leaves Node its JIT', () => {
    for (const line of [
      'SystemCallFilter=@system-service',
      'ProtectProc=invisible',
      'ProcSubset=pid',
      'PrivateUsers=true',
      'RemoveIPC=true',
      'PrivateMounts=true',
      'UMask=0077',
      'NoNewPrivileges=true',
      'ProtectSystem=strict',
      'CapabilityBoundingSet=',
    ])
      expect(unit.split('\n')).toContain(line);
    expect(unit).not.toMatch(/^MemoryDenyWriteExecute=/m);
  });

  it.runIf(analyzer || required)('scores no higher than docs/security.md records, which is 2.0 or lower', () => {
    const recorded = /`systemd-analyze security` scores the unit \*\*(\d+\.\d)\*\*/.exec(readme);
    expect(recorded, 'docs/security.md records the score').not.toBeNull();
    // Offline, on a copy: the analyser reads the file only, and names the score after the file.
    const copy = join(mkdtempSync(join(tmpdir(), 'sift-unit-')), 'sift.service');
    copyFileSync(unitPath, copy);
    const analysed = spawnSync('systemd-analyze', ['security', '--offline=true', '--no-pager', copy], {
      encoding: 'utf8',
    });
    const score = /Overall exposure level for sift\.service: (\d+\.\d)/.exec(analysed.stdout);
    expect(score, analysed.stderr).not.toBeNull();
    expect(Number(score![1])).toBeLessThanOrEqual(Number(recorded![1]));
    expect(Number(recorded![1])).toBeLessThanOrEqual(2.0);
  });
});
