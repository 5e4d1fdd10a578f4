// app:// serves the built renderer with the same CSP and path guard as the web host.
import { readFile } from 'node:fs/promises';
import type { Protocol, CustomScheme } from 'electron';
import { contentSecurityPolicy, contentTypeFor, resolveStaticPath } from '../core/host/static-files.ts';
import { appHost, appScheme } from './app-origin.ts';

export const appSchemePrivileges: CustomScheme = {
  scheme: appScheme,
  privileges: { standard: true, secure: true, supportFetchAPI: true },
};

export async function serveAppRequest(rendererDir: string, requestUrl: string): Promise<Response> {
  const url = new URL(requestUrl);
  const path = url.host === appHost ? resolveStaticPath(rendererDir, url.pathname) : null;
  const content = path ? await readFile(path).catch(() => null) : null;
  if (!path || !content) return new Response('Not found', { status: 404 });
  return new Response(content, {
    headers: {
      'Content-Type': contentTypeFor(path),
      'Content-Security-Policy': contentSecurityPolicy,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

export function registerAppProtocol(protocol: Protocol, rendererDir: string): void {
  protocol.handle(appScheme, (request) => serveAppRequest(rendererDir, request.url));
}
