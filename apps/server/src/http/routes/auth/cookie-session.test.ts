import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSignup, startTestServer, type TestServer } from '../../../testing/test-server.ts';

interface CookieSignIn {
  cookie: string;
  csrfToken: string;
  setCookie: string;
}

/** Signs up through the API in cookie mode, as the web app does. */
async function signUpWithCookie(server: TestServer, overrides: Record<string, unknown> = {}) {
  const signup = buildSignup(overrides);
  const response = await fetch(`${server.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...signup, session: 'cookie' }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  const setCookie = response.headers.getSetCookie().find((line) => line.includes('bytegate_session=')) ?? '';
  return {
    status: response.status,
    body,
    signIn: {
      cookie: setCookie.split(';')[0] ?? '',
      csrfToken: String(body.csrfToken),
      setCookie,
    } satisfies CookieSignIn,
    signup,
  };
}

function call(
  server: TestServer,
  method: string,
  path: string,
  options: { cookie?: string; csrf?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) {
    headers.cookie = options.cookie;
  }
  if (options.csrf) {
    headers['x-csrf-token'] = options.csrf;
  }
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
  }
  return fetch(`${server.url}${path}`, {
    method,
    headers,
    body: options.body === undefined ? null : JSON.stringify(options.body),
  });
}

describe.each(testDatabaseKinds())('cookie sessions on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  it('sign the browser in with an httpOnly, SameSite=Lax cookie and never put the token in the body', async () => {
    const { status, body, signIn } = await signUpWithCookie(server);
    expect(status).toBe(201);
    expect(body).not.toHaveProperty('token');
    expect(body.user).toMatchObject({ firstName: 'Ada', balance: 0 });
    expect(signIn.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signIn.setCookie).toMatch(/^bytegate_session=[A-Za-z0-9_-]{43};/);
    expect(signIn.setCookie).toContain('HttpOnly');
    expect(signIn.setCookie).toContain('SameSite=Lax');
    expect(signIn.setCookie).toContain('Path=/');
    expect(signIn.setCookie).toContain(`Max-Age=${30 * 24 * 60 * 60}`);
    // Plain http (local development): a Secure cookie would never come back.
    expect(signIn.setCookie).not.toContain('Secure');

    const me = await call(server, 'GET', '/api/auth/me', { cookie: signIn.cookie });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { firstName: 'Ada' }, csrfToken: signIn.csrfToken });
  });

  it('sign in by email and password in cookie mode too', async () => {
    const { signup } = await signUpWithCookie(server);
    const login = await call(server, 'POST', '/api/auth/login', {
      body: { email: signup.email, password: signup.password, session: 'cookie' },
    });
    expect(login.status).toBe(200);
    const body = (await login.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['csrfToken', 'user']);
    expect(login.headers.getSetCookie().some((line) => line.startsWith('bytegate_session='))).toBe(true);
  });

  it('refuse a state-changing request without the CSRF token, with another session’s, or from another site', async () => {
    const { signIn, signup } = await signUpWithCookie(server);
    const other = await signUpWithCookie(server);
    const change = { currentPassword: signup.password, newPassword: 'a brand new password' };
    const refusals = await Promise.all([
      call(server, 'PUT', '/api/user-settings/password', { cookie: signIn.cookie, body: change }),
      call(server, 'PUT', '/api/user-settings/password', {
        cookie: signIn.cookie,
        csrf: other.signIn.csrfToken,
        body: change,
      }),
      call(server, 'PUT', '/api/user-settings/password', {
        cookie: signIn.cookie,
        csrf: signIn.csrfToken,
        body: change,
        headers: { 'sec-fetch-site': 'cross-site' },
      }),
      call(server, 'POST', '/api/auth/logout', { cookie: signIn.cookie }),
    ]);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(403);
      expect(await refusal.json()).toEqual({
        error: 'This request could not be verified. Please reload the page and try again.',
        code: 'CSRF_FAILED',
      });
    }
    // Reads need no token; the session is still there.
    expect((await call(server, 'GET', '/api/auth/me', { cookie: signIn.cookie })).status).toBe(200);

    const accepted = await call(server, 'PUT', '/api/user-settings/password', {
      cookie: signIn.cookie,
      csrf: signIn.csrfToken,
      body: change,
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(accepted.status).toBe(200);
  });

  it('sign out: the server revokes the session and tells the browser to drop the cookie', async () => {
    const { signIn } = await signUpWithCookie(server);
    const logout = await call(server, 'POST', '/api/auth/logout', {
      cookie: signIn.cookie,
      csrf: signIn.csrfToken,
    });
    expect(logout.status).toBe(200);
    expect(logout.headers.get('set-cookie')).toMatch(/^bytegate_session=;.*Expires=Thu, 01 Jan 1970/);
    // The device cookie stays: this browser is still one the account signed in from.
    const after = await call(server, 'GET', '/api/auth/me', { cookie: signIn.cookie });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
  });

  it('drop the cookie of a deleted account', async () => {
    const { signIn, signup } = await signUpWithCookie(server);
    const deleted = await call(server, 'DELETE', '/api/user-settings/account', {
      cookie: signIn.cookie,
      csrf: signIn.csrfToken,
      body: { password: signup.password },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.headers.get('set-cookie')).toMatch(/^bytegate_session=;/);
    expect((await call(server, 'GET', '/api/auth/me', { cookie: signIn.cookie })).status).toBe(401);
  });

  it('keep bearer tokens for programmatic clients, with no CSRF token and the cookie ignored', async () => {
    const signup = buildSignup();
    const created = await server.request<{ token: string }>('POST', '/api/auth/signup', { body: signup });
    expect(created.status).toBe(201);
    expect(created.headers.get('set-cookie')).toBeNull();
    const browser = await signUpWithCookie(server);
    // A bearer token decides who is asking, whatever cookie comes along.
    const me = await call(server, 'GET', '/api/auth/me', {
      cookie: browser.signIn.cookie,
      headers: { authorization: `Bearer ${created.body.token}` },
    });
    expect(((await me.json()) as { user: { email: string } }).user.email).toBe(signup.email.toLowerCase());
    const logout = await call(server, 'POST', '/api/auth/logout', {
      headers: { authorization: `Bearer ${created.body.token}` },
    });
    expect(logout.status).toBe(200);
  });

  it('answer a forged or expired cookie with a 401 that clears it', async () => {
    const forged = await call(server, 'GET', '/api/auth/me', {
      cookie: 'bytegate_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('set-cookie')).toMatch(/^bytegate_session=;/);
  });
});

describe('cookie sessions on https', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('pglite', { publicUrl: 'https://bytegate.example' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('are Secure and carry the __Host- prefix', async () => {
    const { signIn } = await signUpWithCookie(server);
    expect(signIn.setCookie).toMatch(/^__Host-bytegate_session=[A-Za-z0-9_-]{43};/);
    expect(signIn.setCookie).toContain('Secure');
    expect(signIn.setCookie).toContain('HttpOnly');
    const me = await call(server, 'GET', '/api/auth/me', { cookie: signIn.cookie });
    expect(me.status).toBe(200);
    // The plain-http name is not this server's cookie.
    const plain = await call(server, 'GET', '/api/auth/me', {
      cookie: signIn.cookie.replace('__Host-bytegate_session', 'bytegate_session'),
    });
    expect(plain.status).toBe(401);
  });
});
