// The one mask for credentials in URLs, fed the passwords people really have.
import { describe, expect, it } from 'vitest';
import { maskUrlCredentials } from '../../../electron/common/url-credentials.ts';
import { parseProxyUrl } from '../../../electron/core/service/engines/live/socks-proxy.ts';
import { describeDatabase } from '../../../electron/core/service/verification-service.ts';

const awkward = ['s3cr/et', 'a?b', 'x#y', 'p@ss', 'we:ird', 'p%40ss%2Fw', '/?#@:', 'plain'];

describe('maskUrlCredentials', () => {
  it.each(awkward)('hides the password %s of a proxy, a database and a webhook URL, keeping the host', (password) => {
    for (const url of [
      `socks5://bob:${password}@proxy.example:1080`,
      `postgres://sift:${password}@db.example:5432/sift`,
      `https://hook:${password}@hooks.example/sift?x=1`,
    ]) {
      const shown = maskUrlCredentials(`failed: ${url} (ECONNREFUSED)`);
      expect(shown).not.toContain(password);
      expect(shown).toMatch(/^failed: \w+:\/\/\w+:•••@[\w.]+\.example[:/]/);
      expect(shown).toMatch(/ \(ECONNREFUSED\)$/);
    }
  });

  it('hides a user given alone (a token), every URL in a message, and leaves URLs without credentials as they are', () => {
    expect(maskUrlCredentials('https://ghp_abc123@hooks.example/x')).toBe('https://•••@hooks.example/x');
    expect(maskUrlCredentials('a socks5://u:1@h:1 and postgres://v:2@d/x')).toBe(
      'a socks5://u:•••@h:1 and postgres://v:•••@d/x',
    );
    expect(maskUrlCredentials('see https://hooks.example/path?q=1#top')).toBe('see https://hooks.example/path?q=1#top');
  });
});

describe('where Sift prints a URL', () => {
  it('a proxy refused for its shape or a database URL that cannot be read never shows the password', () => {
    for (const password of awkward) {
      expect(() => parseProxyUrl(`socks5://bob:${password}@`)).toThrow(/bob:•••@/);
      try {
        parseProxyUrl(`socks5://bob:${password}@`);
      } catch (error) {
        expect((error as Error).message).not.toContain(password);
      }
      expect(describeDatabase(`postgres://sift:${password}@db.example/sift`)).not.toContain(password);
    }
  });
});
