import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  metaContentSecurityPolicy,
} from '../../../../electron/common/content-security-policy.ts';
import { resolveStaticPath } from '../../../../electron/core/app/static-files.ts';

const root = '/srv/sift/renderer';

describe('resolveStaticPath', () => {
  it('maps app paths under the root', () => {
    expect(resolveStaticPath(root, '/')).toBe(join(root, 'index.html'));
    expect(resolveStaticPath(root, '/assets/index-abc.js')).toBe(join(root, 'assets/index-abc.js'));
    expect(resolveStaticPath(root, '/icon%20two.svg')).toBe(join(root, 'icon two.svg'));
  });

  it.each([
    '/../package.json',
    '/assets/../../secret',
    '/..%2f..%2fetc%2fpasswd',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/..\\..\\windows',
    '/a%00.js',
    '/%E0%A4%A',
  ])('refuses %s', (path) => {
    expect(resolveStaticPath(root, path)).toBeNull();
  });
});

describe('content security policy', () => {
  it('is strict: own files only, no inline script, no framing', () => {
    expect(contentSecurityPolicy).toContain("default-src 'self'");
    expect(contentSecurityPolicy).toContain("script-src 'self'");
    expect(contentSecurityPolicy).not.toContain('unsafe-inline');
    expect(contentSecurityPolicy).not.toContain('unsafe-eval');
    expect(contentSecurityPolicy).toContain("frame-ancestors 'none'");
  });

  it('is the same in the page as in the headers (but for frame-ancestors, which a meta tag cannot carry)', () => {
    const html = readFileSync(new URL('../../../../renderer/index.html', import.meta.url), 'utf8');
    // Vite fills the placeholder with metaContentSecurityPolicy at build time (vite.config.ts).
    expect(/http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1]).toBe('%SIFT_CSP%');
    const fromHeader = contentSecurityPolicy
      .split('; ')
      .filter((directive) => !directive.startsWith('frame-ancestors'));
    expect(metaContentSecurityPolicy.split('; ')).toEqual(fromHeader);
  });
});
