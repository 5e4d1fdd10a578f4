// app:// serves the built renderer with the same CSP and path guard as the web host.
import { readFile } from 'node:fs/promises';
import type { Protocol, CustomScheme } from 'electron';
import {
  contentDisposition,
  contentSecurityPolicy,
  contentTypeFor,
  resolveDownloadPath,
  resolveStaticPath,
} from '../core/host/static-files.ts';
import { basename } from 'node:path';
import { appHost, appScheme } from './app-origin.ts';

export const appSchemePrivileges: CustomScheme = {
  scheme: appScheme,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
};

export async function serveAppRequest(
  dirs: { rendererDir: string; exportsDir: string },
  requestUrl: string,
): Promise<Response> {
  const url = new URL(requestUrl);
  const download = url.pathname.startsWith('/downloads/');
  const path =
    url.host !== appHost
      ? null
      : download
        ? resolveDownloadPath(dirs.exportsDir, url.pathname)
        : resolveStaticPath(dirs.rendererDir, url.pathname);
  const content = path ? await readFile(path).catch(() => null) : null;
  if (!path || !content) return new Response('Not found', { status: 404 });
  return new Response(content, {
    headers: {
      'Content-Type': contentTypeFor(path),
      'Content-Security-Policy': contentSecurityPolicy,
      'X-Content-Type-Options': 'nosniff',
      // Electron shows its save dialog for an attachment.
      ...(download ? { 'Content-Disposition': contentDisposition(basename(path)) } : {}),
    },
  });
}

export function registerAppProtocol(protocol: Protocol, dirs: { rendererDir: string; exportsDir: string }): void {
  protocol.handle(appScheme, (request) => serveAppRequest(dirs, request.url));
}
