import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

/** The CSP header as a map of directive to its sources. */
function directives(header: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) {
      map.set(name, sources);
    }
  }
  return map;
}

// Headers are the same whatever the database: PGlite is enough here.
describe('security headers', () => {
  describe('on http', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer('pglite');
    });
    afterAll(async () => {
      await server.close();
    });

    it('come with every kind of answer: JSON, errors, 404s and the API reference', async () => {
      const answers = await Promise.all([
        fetch(`${server.url}/api/config`),
        fetch(`${server.url}/api/auth/me`),
        fetch(`${server.url}/api/no/such/thing`),
        fetch(`${server.url}/api/auth/login`, {
          method: 'POST',
          body: '{',
          headers: { 'content-type': 'application/json' },
        }),
        fetch(`${server.url}/api/docs/`),
      ]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 401, 404, 400, 200]);
      for (const answer of answers) {
        const csp = directives(answer.headers.get('content-security-policy'));
        expect(csp.get('script-src')).toEqual(["'self'"]);
        expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
        expect(csp.get('object-src')).toEqual(["'none'"]);
        expect(csp.get('base-uri')).toEqual(["'self'"]);
        expect(csp.has('upgrade-insecure-requests')).toBe(false);
        expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
        expect(answer.headers.get('x-frame-options')).toBe('DENY');
        expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
        // Not on plain http: a browser would pin https for a site that does not serve it.
        expect(answer.headers.get('strict-transport-security')).toBeNull();
      }
    });

    it('let our own checkout dialog frame the sandbox checkout pages, and nobody else', async () => {
      const created = await fetch(`${server.url}/sandbox/bitcart/admin/modal/bitcart.js`);
      expect(created.status).toBe(200);
      const csp = directives(created.headers.get('content-security-policy'));
      expect(csp.get('frame-ancestors')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(created.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    });
  });

  describe('on https with the bot check and real providers', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer('pglite', {
        publicUrl: 'https://bytegate.example',
        recaptcha: { siteKey: 'site', secretKey: 'secret', verifyUrl: 'http://127.0.0.1:9/', minScore: 0.5 },
        cryptomus: { merchantId: 'm', apiKey: 'k', apiUrl: 'http://127.0.0.1:9' },
        bitcart: {
          apiUrl: 'https://pay.shop.example/api',
          adminUrl: 'https://pay.shop.example/admin',
          token: 't',
          storeId: 's',
        },
      });
    });
    afterAll(async () => {
      await server.close();
    });

    it('pin https with HSTS and allow exactly the bot check and the checkouts in the CSP', async () => {
      const answer = await fetch(`${server.url}/api/config`);
      expect(answer.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      const csp = directives(answer.headers.get('content-security-policy'));
      expect(csp.get('script-src')).toEqual([
        "'self'",
        'https://www.google.com/recaptcha/',
        'https://www.gstatic.com/recaptcha/',
      ]);
      expect(csp.get('frame-src')).toEqual([
        "'self'",
        'https://www.google.com/recaptcha/',
        'https://recaptcha.google.com/recaptcha/',
        'https://pay.cryptomus.com',
        'https://pay.shop.example',
      ]);
      expect(csp.has('upgrade-insecure-requests')).toBe(true);
    });
  });
});
