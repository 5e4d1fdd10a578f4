// app:// serves the built renderer with the same CSP and path guard as the web host.
import type { Protocol, CustomScheme } from 'electron';
import { contentSecurityPolicy } from '../common/content-security-policy.ts';
import { fileResponse } from '../core/app/file-response.ts';
import {
  contentDisposition,
  contentTypeFor,
  isDownloadPath,
  resolveDownloadPath,
  resolveStaticPath,
} from '../core/app/static-files.ts';
import { basename } from 'node:path';
import { appHost, appScheme } from './app-origin.ts';

export const appSchemePrivileges: CustomScheme = {
  scheme: appScheme,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
};

async function serveAppRequest(
  dirs: { rendererDir: string; exportsDir: string },
  requestUrl: string,
): Promise<Response> {
  const url = new URL(requestUrl);
  const download = isDownloadPath(url.pathname);
  const path =
    url.host !== appHost
      ? null
      : download
        ? resolveDownloadPath(dirs.exportsDir, url.pathname)
        : resolveStaticPath(dirs.rendererDir, url.pathname);
  const headers = {
    'Content-Type': contentTypeFor(path ?? ''),
    'Content-Security-Policy': contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    // Electron shows its save dialog for an attachment.
    ...(download && path ? { 'Content-Disposition': contentDisposition(basename(path)) } : {}),
  };
  return (path ? await fileResponse(path, headers) : null) ?? new Response('Not found', { status: 404 });
}

export function registerAppProtocol(protocol: Protocol, dirs: { rendererDir: string; exportsDir: string }): void {
  protocol.handle(appScheme, (request) => serveAppRequest(dirs, request.url));
}
