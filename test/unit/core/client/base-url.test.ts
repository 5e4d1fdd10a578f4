// The base URL a person gives, made into the API root: with or without a path prefix, a trailing slash or
// /v1; never /v1 twice, never a protocol-relative URL; and refused, with the reason, where a key must not go.
import { describe, expect, it } from 'vitest';
import { apiRootFrom, apiUrl } from '../../../../electron/core/client/base-url.ts';
import { operations } from '../../../../electron/core/client/operations.ts';

describe('apiRootFrom', () => {
  it('accepts the origin with or without a path prefix, a trailing slash or /v1, and puts /v1 on once', () => {
    const roots: [given: string, root: string][] = [
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/v1'],
      ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/v1'],
      ['http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/v1'],
      ['http://127.0.0.1:8080/v1/', 'http://127.0.0.1:8080/v1'],
      ['  https://api.example.com  ', 'https://api.example.com/v1'],
      ['https://api.example.com:443//', 'https://api.example.com/v1'],
      ['https://api.example.com/verifier', 'https://api.example.com/verifier/v1'],
      ['https://api.example.com/verifier/v1/', 'https://api.example.com/verifier/v1'],
      ['https://api.example.com//verifier//v1//', 'https://api.example.com/verifier/v1'],
      ['https://api.example.com/v1beta', 'https://api.example.com/v1beta/v1'],
      ['HTTPS://API.Example.COM/Verifier', 'https://api.example.com/Verifier/v1'],
    ];
    for (const [given, root] of roots) {
      expect(apiRootFrom(given, 'live').href, given).toBe(root);
      expect(apiRootFrom(given, 'sandbox').href, given).toBe(root);
    }
  });

  it('builds every call as an absolute URL on the same host, never //path', () => {
    for (const given of ['http://127.0.0.1:8080', 'http://127.0.0.1:8080/', 'https://api.example.com//']) {
      const root = apiRootFrom(given, 'sandbox');
      for (const op of Object.values(operations)) {
        const path = typeof op.path === 'string' ? op.path : op.path('bat_1');
        const url = new URL(apiUrl(root, path, { limit: '10', cursor: undefined }));
        expect(url.host, `${given} ${op.name}`).toBe(new URL(given.trim()).host);
        expect(url.pathname).toBe(`/v1${path}`);
      }
    }
    expect(apiUrl(apiRootFrom('http://127.0.0.1:8080', 'live'), '/account')).toBe('http://127.0.0.1:8080/v1/account');
  });

  it('refuses plain http to a host off this computer with a live key, saying why; loopback and sandbox keys may use it', () => {
    for (const given of [
      'http://api.example.com',
      'http://10.0.0.5:8080/v1',
      'http://[2001:db8::1]/',
      'http://128.0.0.1',
    ]) {
      expect(() => apiRootFrom(given, 'live'), given).toThrow(
        expect.objectContaining({ kind: 'configuration', message: expect.stringMatching(/in clear/) }),
      );
      expect(apiRootFrom(given, 'sandbox').href).toMatch(/^http:\/\//);
    }
    for (const loopback of [
      'http://127.0.0.1:8080',
      'http://127.1.2.3',
      'http://localhost:9',
      'http://[::1]:8080/v1',
    ]) {
      expect(apiRootFrom(loopback, 'live').href, loopback).toMatch(/^http:\/\/.*\/v1$/);
    }
    expect(() => apiRootFrom('http://api.example.com', 'live')).toThrow(
      'The service base URL for api.example.com must use https with a live key: over http the key would travel in clear.',
    );
  });

  it('rejects other schemes, credentials, query strings and fragments, without repeating what they held', () => {
    const refused: [given: string, reason: RegExp][] = [
      ['ftp://files.example.com', /must be an http or https URL, not ftp\./],
      ['not a url', /must be an http or https URL/],
      ['', /must be an http or https URL/],
      ['https://user:hunter2secret@api.example.com', /must not hold a user name or password \(user:pass@\)/],
      ['https://hunter2secret@api.example.com', /must not hold a user name or password/],
      ['https://api.example.com/?token=hunter2secret', /must not have a query string or fragment/],
      ['https://api.example.com/v1?', /must not have a query string or fragment/],
      ['https://api.example.com/#hunter2secret', /must not have a query string or fragment/],
    ];
    for (const [given, reason] of refused) {
      let error: unknown;
      try {
        apiRootFrom(given, 'sandbox');
      } catch (thrown) {
        error = thrown;
      }
      expect(error, given).toMatchObject({ kind: 'configuration', message: expect.stringMatching(reason) });
      expect((error as Error).message).not.toContain('hunter2secret');
    }
  });
});

describe('the operations table', () => {
  it('names each call by its method and the path the wire module gives it', () => {
    for (const op of Object.values(operations)) {
      const [method, template] = op.name.split(' ') as [string, string];
      expect(op.method).toBe(method);
      const path = typeof op.path === 'string' ? op.path : op.path('bat_1');
      expect(path, op.name).toBe(template.replace('{id}', 'bat_1'));
    }
  });
});
