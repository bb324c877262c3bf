import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildSignup,
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

describe.each(testDatabaseKinds())('auth API on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  describe('POST /api/auth/signup', () => {
    it('refuses a body without the required fields', async () => {
      const { status, body } = await server.request('POST', '/api/auth/signup', {
        body: { email: 'x@example.com' },
      });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'First name is required', code: 'VALIDATION_FAILED' });
    });

    it('refuses an invalid email and a short password with readable messages', async () => {
      const badEmail = await server.request('POST', '/api/auth/signup', {
        body: buildSignup({ email: 'nope' }),
      });
      expect(badEmail.status).toBe(400);
      expect(badEmail.body.error).toBe('Please enter a valid email address');
      const shortPassword = await server.request('POST', '/api/auth/signup', {
        body: buildSignup({ password: 'short' }),
      });
      expect(shortPassword.status).toBe(400);
      expect(shortPassword.body.error).toBe('Password must be at least 8 characters');
    });

    it('creates the account, stores the email lower-cased and answers token and user', async () => {
      const signup = buildSignup({ email: '  Grace.Hopper@Example.COM ', company: 'Navy' });
      const { status, body } = await server.request<{ token: string; user: unknown }>(
        'POST',
        '/api/auth/signup',
        {
          body: signup,
        },
      );
      expect(status).toBe(201);
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(body.user).toEqual({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'grace.hopper@example.com',
        company: 'Navy',
        balance: 0,
        emailVerified: false,
      });
      const me = await server.request('GET', '/api/auth/me', { token: body.token });
      expect(me.status).toBe(200);
    });

    it('omits an empty company', async () => {
      const { body } = await server.request<{ user: { company: string | null } }>(
        'POST',
        '/api/auth/signup',
        {
          body: buildSignup({ company: '   ' }),
        },
      );
      expect(body.user.company).toBeNull();
    });

    it('answers 409 for an email that already has an account, whatever its case', async () => {
      const { email } = await createUserViaApi(server);
      const { status, body } = await server.request('POST', '/api/auth/signup', {
        body: buildSignup({ email: email.toUpperCase() }),
      });
      expect(status).toBe(409);
      expect(body).toEqual({ error: 'An account with this email already exists', code: 'EMAIL_TAKEN' });
    });

    it('never stores the password in clear text', async () => {
      const { email, password } = await createUserViaApi(server);
      const [row] = await queryRows<{ password_hash: string }>(
        server,
        `select password_hash from users where email = '${email}'`,
      );
      expect(row?.password_hash).toMatch(/^\$argon2id\$/);
      expect(row?.password_hash).not.toContain(password);
    });
  });

  describe('POST /api/auth/login', () => {
    it('refuses a body without a password', async () => {
      const { status, body } = await server.request('POST', '/api/auth/login', {
        body: { email: 'a@example.com' },
      });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'Password is required', code: 'VALIDATION_FAILED' });
    });

    it('signs in with the right password, whatever the email case', async () => {
      const { email, password } = await createUserViaApi(server);
      const { status, body } = await server.request<{ token: string; user: { email: string } }>(
        'POST',
        '/api/auth/login',
        { body: { email: email.toUpperCase(), password } },
      );
      expect(status).toBe(200);
      expect(body.user.email).toBe(email);
      expect(body.token).toBeTruthy();
    });

    it('gives a wrong password and an unknown email the same answer', async () => {
      const { email } = await createUserViaApi(server);
      const wrongPassword = await server.request('POST', '/api/auth/login', {
        body: { email, password: 'not the password' },
      });
      const unknownEmail = await server.request('POST', '/api/auth/login', {
        body: { email: 'nobody-here@example.com', password: 'not the password' },
      });
      expect(wrongPassword.status).toBe(401);
      expect(unknownEmail.status).toBe(401);
      expect(wrongPassword.body).toEqual({ error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
      expect(unknownEmail.body).toEqual(wrongPassword.body);
    });
  });

  describe('GET /api/auth/me', () => {
    it('answers 401 without a token and with an unknown one', async () => {
      const none = await server.request('GET', '/api/auth/me');
      expect(none.status).toBe(401);
      expect(none.body.code).toBe('UNAUTHENTICATED');
      const unknown = await server.request('GET', '/api/auth/me', { token: 'a'.repeat(43) });
      expect(unknown.status).toBe(401);
    });

    it('answers the signed-in user without private fields, and their role', async () => {
      const { token, email } = await createUserViaApi(server, { company: 'Acme' });
      const { status, body } = await server.request('GET', '/api/auth/me', { token });
      expect(status).toBe(200);
      expect(body).toEqual({
        user: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          email,
          company: 'Acme',
          balance: 0,
          emailVerified: false,
        },
        role: 'customer',
      });
    });
  });

  describe('POST /api/auth/logout', () => {
    it('answers 401 without a token', async () => {
      expect((await server.request('POST', '/api/auth/logout')).status).toBe(401);
    });

    it('revokes the token server-side and leaves other sessions alone', async () => {
      const { token, email, password } = await createUserViaApi(server);
      const other = await server.request<{ token: string }>('POST', '/api/auth/login', {
        body: { email, password },
      });
      const { status, body } = await server.request('POST', '/api/auth/logout', { token });
      expect(status).toBe(200);
      expect(body).toEqual({ success: true });
      expect((await server.request('GET', '/api/auth/me', { token })).status).toBe(401);
      expect((await server.request('GET', '/api/auth/me', { token: other.body.token })).status).toBe(200);
    });
  });
});
