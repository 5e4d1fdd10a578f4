// The licences of everything inside a `sift` file: Node itself (whose LICENSE covers V8, OpenSSL, SQLite
// and its other parts), and every package of Sift's production dependencies, which the bundle and the
// built renderer are made of.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

type PackageLicence = { name: string; version: string; licence: string; text: string | null };

const licenceFile = /^(licen[cs]e|copying|notice)(\..*)?$/i;

/** Every package npm installed for Sift's production dependencies, with its licence file where it has one. */
function productionPackages(root: string): PackageLicence[] {
  const listing = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 16 * 1024 ** 2,
  }).toString();
  const seen = new Map<string, PackageLicence>();
  for (const folder of listing.split('\n').filter((line) => line.includes(`node_modules${sep}`))) {
    const manifestPath = join(folder, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      name?: string;
      version?: string;
      license?: unknown;
    };
    const name = manifest.name ?? relative(join(root, 'node_modules'), folder);
    const version = manifest.version ?? '';
    const file = readdirSync(folder).find((entry) => licenceFile.test(entry));
    seen.set(`${name}@${version}`, {
      name,
      version,
      licence: typeof manifest.license === 'string' ? manifest.license : 'see its licence text',
      text: file ? readFileSync(join(folder, file), 'utf8').trim() : null,
    });
  }
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** LICENSES.txt: Node's licence, then each package's. */
export function licencesText(root: string, nodeVersion: string, nodeLicence: string): string {
  const rule = '='.repeat(78);
  const parts = [
    `Licences of what this Sift file is made of.\n\nNode.js ${nodeVersion} (the runtime inside the file)\n${rule}\n${readFileSync(nodeLicence, 'utf8').trim()}`,
  ];
  for (const pkg of productionPackages(root)) {
    const text = pkg.text ?? `Licensed under ${pkg.licence}; the package ships no licence text of its own.`;
    parts.push(`${pkg.name} ${pkg.version} (${pkg.licence})\n${rule}\n${text}`);
  }
  return `${parts.join('\n\n\n')}\n`;
}
