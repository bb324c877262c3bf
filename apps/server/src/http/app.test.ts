import { waitMessages } from '@bytegate/contracts/messages';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSiteverify, startFakeSiteverify } from '../testing/fake-siteverify.ts';
import { buildSignup, createUserViaApi, startTestServer, type TestServer } from '../testing/test-server.ts';

describe.each(testDatabaseKinds())('HTTP platform on %s', (kind) => {
  describe('errors and documents', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind);
    });
    afterAll(async () => {
      await server.close();
    });

    it('answers an unknown /api path with a JSON 404', async () => {
      const { status, body, headers } = await server.request('GET', '/api/no/such/thing');
      expect(status).toBe(404);
      expect(headers.get('content-type')).toContain('application/json');
      expect(body).toEqual({ error: 'No route GET /api/no/such/thing', code: 'NOT_FOUND' });
    });

    it('answers a malformed JSON body with a 400', async () => {
      const { status, body } = await server.request('POST', '/api/auth/login', {
        rawBody: '{"email": "a@example.com",',
        headers: { 'content-type': 'application/json' },
      });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'The request body is not valid JSON', code: 'INVALID_BODY' });
    });

    it('answers a body that is not JSON with a 400', async () => {
      const { status, body } = await server.request('POST', '/api/auth/login', {
        rawBody: 'email=a@example.com',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(status).toBe(400);
      expect(body.code).toBe('INVALID_BODY');
    });

    it('answers an oversized body with a 400 before parsing it', async () => {
      const { status, body } = await server.request('POST', '/api/contact', {
        body: { name: 'A', email: 'a@example.com', message: 'x'.repeat(100_000) },
      });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'The request body is too large', code: 'BODY_TOO_LARGE' });
    });

    it('bounds every text field', async () => {
      const longName = await server.request('POST', '/api/auth/signup', {
        body: buildSignup({ firstName: 'x'.repeat(101) }),
      });
      expect(longName.status).toBe(400);
      expect(longName.body.error).toBe('First name must be at most 100 characters');
      const longMessage = await server.request('POST', '/api/contact', {
        body: { name: 'A', email: 'a@example.com', message: 'x'.repeat(5001) },
      });
      expect(longMessage.status).toBe(400);
      expect(longMessage.body.error).toBe('Message must be at most 5000 characters');
    });

    it('refuses a field of the wrong type with a 400', async () => {
      const { status, body } = await server.request('POST', '/api/auth/login', {
        body: { email: ['a@example.com'], password: 12 },
      });
      expect(status).toBe(400);
      expect(body.code).toBe('VALIDATION_FAILED');
    });

    it('serves the OpenAPI document generated from the route schemas, and a reference', async () => {
      const { status, body } = await server.request<{ openapi: string; paths: Record<string, unknown> }>(
        'GET',
        '/api/openapi.json',
      );
      expect(status).toBe(200);
      expect(body.openapi).toMatch(/^3\./);
      expect(Object.keys(body.paths)).toEqual(
        expect.arrayContaining([
          '/api/auth/signup',
          '/api/auth/login',
          '/api/auth/me',
          '/api/auth/logout',
          '/api/user-settings/password',
          '/api/user-settings/account',
          '/api/contact',
        ]),
      );
      const docs = await fetch(`${server.url}/api/docs/`);
      expect(docs.status).toBe(200);
      expect(await docs.text()).toContain('<html');
    });

    it('tells the web app that no bot check is configured', async () => {
      const { body } = await server.request('GET', '/api/config');
      expect(body).toEqual({
        recaptchaSiteKey: null,
        googleSignIn: false,
        paymentsSandbox: true,
        paymentProviders: { cryptomus: 'sandbox', bitcart: 'sandbox' },
        emailVerificationRequired: false,
        gateway: {
          host: '127.0.0.1',
          ip: null,
          httpPort: 8823,
          socksPort: 8824,
          stickyPorts: { first: 10000, last: 10099 },
        },
      });
    });
  });

  describe('rate limits', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, {
        rateLimits: {
          login: { max: 3, windowMs: 60_000 },
          signup: { max: 2, windowMs: 60_000 },
          contact: { max: 2, windowMs: 60_000 },
        },
      });
    });
    afterAll(async () => {
      await server.close();
    });

    it('answers 429 with a clear message after too many sign-ups from one address', async () => {
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        statuses.push((await server.request('POST', '/api/auth/signup', { body: buildSignup() })).status);
      }
      expect(statuses).toEqual([201, 201, 429]);
      const { body, headers } = await server.request('POST', '/api/auth/signup', { body: buildSignup() });
      // The window is a minute long: the message says how much of it is left, as Retry-After does.
      const retryAfter = Number(headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(50);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(body).toEqual({ error: waitMessages.tooManyRequests(retryAfter), code: 'RATE_LIMITED' });
      expect(body.error).toMatch(/^Too many requests\. Please try again in (\d+ seconds|1 minute)\.$/);
    });

    it('limits sign-in requests per address, failed or not, as a flood guard', async () => {
      const attempt = (email: string) =>
        server.request('POST', '/api/auth/login', { body: { email, password: 'wrong password' } });
      expect((await attempt('a@example.com')).status).toBe(401);
      expect((await attempt('b@example.com')).status).toBe(401);
      expect((await attempt('c@example.com')).status).toBe(401);
      const fourth = await attempt('d@example.com');
      expect(fourth.status).toBe(429);
      expect(fourth.body.error).toMatch(/^Too many requests\. Please try again in (\d+ seconds|1 minute)\.$/);
    });

    it('limits contact messages per address', async () => {
      const send = () =>
        server.request('POST', '/api/contact', {
          body: { name: 'A', email: 'a@example.com', message: 'hi' },
        });
      expect([(await send()).status, (await send()).status, (await send()).status]).toEqual([201, 201, 429]);
    });
  });

  describe('bot check', () => {
    let server: TestServer;
    let siteverify: FakeSiteverify;
    beforeAll(async () => {
      siteverify = await startFakeSiteverify('test-secret');
      server = await startTestServer(kind, {
        recaptcha: {
          siteKey: 'test-site-key',
          secretKey: 'test-secret',
          verifyUrl: siteverify.url,
          minScore: 0.5,
        },
      });
    });
    afterAll(async () => {
      await server.close();
      await siteverify.close();
    });

    it('gives the web app the public site key', async () => {
      expect((await server.request('GET', '/api/config')).body).toEqual({
        recaptchaSiteKey: 'test-site-key',
        googleSignIn: false,
        paymentsSandbox: true,
        paymentProviders: { cryptomus: 'sandbox', bitcart: 'sandbox' },
        emailVerificationRequired: false,
        gateway: expect.objectContaining({ httpPort: 8823 }),
      });
    });

    it('refuses a sign-up without a token', async () => {
      const { status, body } = await server.request('POST', '/api/auth/signup', { body: buildSignup() });
      expect(status).toBe(400);
      expect(body).toEqual({
        error: 'Please complete the security check and try again.',
        code: 'RECAPTCHA_REQUIRED',
      });
    });

    it('refuses an invalid token, a low score, and a token made for another action or site', async () => {
      for (const recaptchaToken of ['garbage', 'bot-signup', 'human-login', 'human-signup@evil.example']) {
        const { status, body } = await server.request('POST', '/api/auth/signup', {
          body: buildSignup({ recaptchaToken }),
        });
        expect(status).toBe(403);
        expect(body).toEqual({
          error: 'The security check failed. Please try again.',
          code: 'RECAPTCHA_FAILED',
        });
      }
    });

    it("refuses an answer that leaves out the action or the host name, or names others than this form's and PUBLIC_URL's", async () => {
      // The server's PUBLIC_URL is http://127.0.0.1:<port>: its host is the one answers must name.
      expect(new URL(server.config.publicUrl).hostname).toBe('127.0.0.1');
      const refused = {
        'no action': 'human@127.0.0.1',
        'another action': 'human-login@127.0.0.1',
        'no host name': 'human-signup@',
        'another host name': 'human-signup@127.0.0.2',
        'a host name that only ends like ours': 'human-signup@evil127.0.0.1',
      };
      for (const [why, recaptchaToken] of Object.entries(refused)) {
        const before = siteverify.received.length;
        const { status, body } = await server.request('POST', '/api/auth/signup', {
          body: buildSignup({ recaptchaToken }),
        });
        expect({ why, status, body }).toEqual({
          why,
          status: 403,
          body: { error: 'The security check failed. Please try again.', code: 'RECAPTCHA_FAILED' },
        });
        // Asked of siteverify, which answered success: refused for what the answer said.
        expect(siteverify.received.length).toBe(before + 1);
      }
      const accepted = await server.request('POST', '/api/auth/signup', {
        body: buildSignup({ recaptchaToken: 'human-signup@127.0.0.1' }),
      });
      expect(accepted.status).toBe(201);
      const login = await server.request('POST', '/api/auth/login', {
        body: { email: 'nobody@example.com', password: 'whatever it is', recaptchaToken: 'human@127.0.0.1' },
      });
      expect(login.body.code).toBe('RECAPTCHA_FAILED');
    });

    it('accepts a passing token, sending the secret and the token to siteverify', async () => {
      const signup = await server.request<{ token: string }>('POST', '/api/auth/signup', {
        body: buildSignup({ recaptchaToken: 'human-signup', email: 'human@example.com' }),
      });
      expect(signup.status).toBe(201);
      const sent = siteverify.received.at(-1);
      expect(sent?.get('secret')).toBe('test-secret');
      expect(sent?.get('response')).toBe('human-signup');
      expect(sent?.get('remoteip')).toBe('127.0.0.1');
      const login = await server.request('POST', '/api/auth/login', {
        body: {
          email: 'human@example.com',
          password: 'correct horse battery',
          recaptchaToken: 'human-login',
        },
      });
      expect(login.status).toBe(200);
      const botLogin = await server.request('POST', '/api/auth/login', {
        body: { email: 'human@example.com', password: 'correct horse battery', recaptchaToken: 'bot-login' },
      });
      expect(botLogin.status).toBe(403);
    });

    it('answers 503 when siteverify cannot be reached', async () => {
      const unreachable = await startTestServer(kind, {
        recaptcha: {
          siteKey: 'k',
          secretKey: 's',
          verifyUrl: 'http://127.0.0.1:9/siteverify',
          minScore: 0.5,
        },
      });
      try {
        const { status, body } = await unreachable.request('POST', '/api/auth/login', {
          body: { email: 'a@example.com', password: 'whatever', recaptchaToken: 'human-login' },
        });
        expect(status).toBe(503);
        expect(body.code).toBe('UPSTREAM_UNAVAILABLE');
      } finally {
        await unreachable.close();
      }
    });

    it('does not ask signed-in calls for a token', async () => {
      const { token } = await createUserViaApi(server, { recaptchaToken: 'human-signup' });
      expect((await server.request('GET', '/api/auth/me', { token })).status).toBe(200);
    });
  });
});
