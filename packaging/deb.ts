// The server package: sift_<version>_<arch>.deb with the binary in /usr/bin, the `sift` system user, the
// data in /var/lib/sift, the settings in /etc/sift/sift.env (a conffile, so upgrades keep it) and a
// hardened systemd unit. Built with dpkg-deb from the files in packaging/deb/.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BuildInfo } from '../electron/core/own-files.ts';
import type { Target } from './targets.ts';

export type DebInputs = {
  root: string;
  target: Target;
  executable: string;
  build: BuildInfo;
  licences: string;
  workDir: string;
  outDir: string;
};

const maintainer = 'Sift developers <sift@users.noreply.github.com>';
const dependencies = 'adduser, libc6 (>= 2.28), libstdc++6 (>= 5.2), libgcc-s1, libatomic1';

function control(inputs: DebInputs, installedKb: number): string {
  return `Package: sift
Version: ${inputs.build.version}
Architecture: ${inputs.target.debArch}
Maintainer: ${maintainer}
Installed-Size: ${installedKb}
Depends: ${dependencies}
Section: mail
Priority: optional
Description: email list cleaner and verification service
 Sift checks email addresses without sending mail: syntax, the domain's
 mail servers, and each mailbox by an SMTP conversation that ends before
 any message. This package runs Sift's own verification service as a
 systemd unit (sift.service) for the Sift app and the sift command line
 to use over HTTPS behind a reverse proxy.
`;
}

const copyright = `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: sift
Comment: /usr/bin/sift is Node.js with Sift's code and the packages it uses
 inside it. The licence of Node.js and of each package, in full, as the
 download archives ship them, is in /usr/share/doc/sift/LICENSES.txt.gz.

Files: *
Copyright: 2026 Sift developers
License: other
 Sift's own code, with Node.js (MIT and the licences of its parts) and npm
 packages under the MIT, ISC, BSD, Apache-2.0 and other licences, each named
 with its text in /usr/share/doc/sift/LICENSES.txt.gz.
`;

const changelog = (build: BuildInfo) => `sift (${build.version}) unstable; urgency=medium

  * Built from commit ${build.commit}.

 -- ${maintainer}  Thu, 01 Jan 2026 00:00:00 +0000
`;

/** Writes the package and answers its path. */
export async function buildDeb(inputs: DebInputs): Promise<string> {
  const { root, target, workDir, build } = inputs;
  const from = (name: string) => join(root, 'packaging', 'deb', name);
  const tree = join(workDir, 'tree');
  rmSync(workDir, { recursive: true, force: true });
  const place = (path: string, mode: number, source: { file?: string; text?: string | Buffer }) => {
    const full = join(tree, path);
    mkdirSync(join(full, '..'), { recursive: true });
    if (source.file) copyFileSync(source.file, full);
    else writeFileSync(full, source.text ?? '');
    chmodSync(full, mode);
  };
  place('usr/bin/sift', 0o755, { file: inputs.executable });
  place('lib/systemd/system/sift.service', 0o644, { file: from('sift.service') });
  place('etc/sift/sift.env', 0o640, { file: from('sift.env') });
  place('usr/share/man/man1/sift.1.gz', 0o644, { text: gzipSync(readFileSync(from('sift.1')), { level: 9 }) });
  place('usr/share/doc/sift/copyright', 0o644, { text: copyright });
  place('usr/share/doc/sift/LICENSES.txt.gz', 0o644, { text: gzipSync(inputs.licences, { level: 9 }) });
  place('usr/share/doc/sift/changelog.gz', 0o644, { text: gzipSync(changelog(build), { level: 9 }) });
  place('usr/share/lintian/overrides/sift', 0o644, { file: from('lintian-overrides') });
  for (const script of ['postinst', 'prerm', 'postrm']) place(`DEBIAN/${script}`, 0o755, { file: from(script) });
  place('DEBIAN/conffiles', 0o644, { text: '/etc/sift/sift.env\n' });
  const installedKb = Math.ceil(
    ['usr/bin/sift', 'lib/systemd/system/sift.service', 'etc/sift/sift.env'].reduce(
      (sum, path) => sum + statSync(join(tree, path)).size,
      0,
    ) / 1024,
  );
  place('DEBIAN/control', 0o644, { text: control(inputs, installedKb) });
  // Folders 0755 whatever the umask, as dpkg expects them.
  execFileSync('find', [tree, '-type', 'd', '-exec', 'chmod', '0755', '{}', '+']);
  const output = join(inputs.outDir, `sift_${build.version}_${target.debArch}.deb`);
  execFileSync('dpkg-deb', ['--root-owner-group', '-Zxz', '--build', tree, output], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return output;
}
