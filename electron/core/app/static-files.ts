// Serving the built renderer, for the web host and for Electron's app:// protocol alike.
import { extname, join, normalize, sep } from 'node:path';
import { downloadsFolder, outcomesExportFolder } from '../jobs/store/index.ts';

export { isDownloadPath } from '../jobs/store/index.ts';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.tsv': 'text/tab-separated-values; charset=utf-8',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function contentTypeFor(path: string): string {
  return contentTypes[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The file under `root` that a URL path names, or null when the path is malformed or
 * would leave `root` (`..`, encoded slashes, NUL bytes, absolute paths).
 */
export function resolveStaticPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\') || decoded.split('/').includes('..')) return null;
  const relative = normalize(decoded === '/' || decoded === '' ? '/index.html' : decoded).replace(/^[/\\]+/, '');
  const rootWithSep = normalize(root).replace(/[/\\]*$/, sep);
  const full = join(rootWithSep, relative);
  return full.startsWith(rootWithSep) ? full : null;
}

/** An exported file named by `downloads/<jobId or outcomes>/<file name>`, or null for anything else. */
export function resolveDownloadPath(exportsDir: string, urlPath: string): string | null {
  const folders = `job_[0-9a-f]{16}|${outcomesExportFolder}`;
  const match = new RegExp(`^/?${downloadsFolder}/(${folders})/([^/\\\\]+)$`).exec(urlPath);
  if (!match) return null;
  let name: string;
  try {
    name = decodeURIComponent(match[2]!);
  } catch {
    return null;
  }
  if (
    name.includes('/') ||
    name.includes('\\') ||
    name.includes('\0') ||
    name.startsWith('.') ||
    // The outputs Sift writes; the report is HTML, always sent as an attachment (never shown in the app's origin).
    !/\.(csv|tsv|xlsx|json|html)$/.test(name)
  )
    return null;
  return join(exportsDir, match[1]!, name);
}

/** `attachment` with the name in plain ASCII and in UTF-8, as browsers expect. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
