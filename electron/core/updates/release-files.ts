// A release's files as `npm run dist` writes them and `sift update` reads them: SHA256SUMS over every
// download, SHA256SUMS.sig (an Ed25519 signature over SHA256SUMS's bytes, base64) and CHANGES.txt. Only
// what SHA256SUMS lists, and only when its signature verifies with the key built into this file, is used.
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export const releaseFiles = { sums: 'SHA256SUMS', signature: 'SHA256SUMS.sig', changes: 'CHANGES.txt' } as const;

/** The signature `npm run dist` writes beside SHA256SUMS, from an Ed25519 private key (PEM). */
export function signSums(sums: Buffer, privateKeyPem: string): string {
  return sign(null, sums, createPrivateKey(privateKeyPem)).toString('base64');
}

/** The public half of a signing key, as a build carries it: base64 of its SPKI DER. */
export function publicKeyText(privateKeyPem: string): string {
  return createPublicKey(createPrivateKey(privateKeyPem)).export({ type: 'spki', format: 'der' }).toString('base64');
}

const keyFrom = (text: string): KeyObject =>
  createPublicKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'spki' });

/** Whether `signature` (SHA256SUMS.sig's text) is the key's signature over `sums`. */
export function sumsSigned(sums: Buffer, signature: string, publicKey: string): boolean {
  try {
    return verify(null, sums, keyFrom(publicKey), Buffer.from(signature.trim(), 'base64'));
  } catch {
    return false;
  }
}

/** SHA256SUMS's lines: file name → its SHA-256 in hex. */
export function parseSums(sums: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const line of sums.split('\n')) {
    const match = /^([0-9a-f]{64}) [ *](\S+)$/.exec(line.trim());
    if (match) files.set(match[2]!, match[1]!);
  }
  return files;
}

/** This computer's download: `sift-<version>-<os>-<arch>.<tar.gz|zip>`, and the executable inside it. */
export function downloadFor(version: string, platform = process.platform, arch = process.arch) {
  const os = platform === 'win32' ? 'win' : platform;
  const folder = `sift-${version}-${os}-${arch}`;
  return {
    archive: `${folder}.${platform === 'win32' ? 'zip' : 'tar.gz'}`,
    executable: `${folder}/${platform === 'win32' ? 'sift.exe' : 'sift'}`,
  };
}

/** The version of this computer's archive among a release's files, if the release has one. */
export function releasedVersion(names: Iterable<string>, platform = process.platform, arch = process.arch) {
  const os = platform === 'win32' ? 'win' : platform;
  const pattern = new RegExp(`^sift-(\\d+\\.\\d+\\.\\d+)-${os}-${arch}\\.(?:tar\\.gz|zip)$`);
  for (const name of names) {
    const match = pattern.exec(name);
    if (match) return match[1]!;
  }
  return undefined;
}

/** Whether version `a` comes after `b` (x.y.z, numbers compared part by part). */
export function isNewer(a: string, b: string): boolean {
  const [pa, pb] = [a, b].map((version) => version.split('.').map(Number));
  for (let i = 0; i < 3; i += 1) if ((pa![i] ?? 0) !== (pb![i] ?? 0)) return (pa![i] ?? 0) > (pb![i] ?? 0);
  return false;
}
