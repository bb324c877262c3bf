import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';
import { awaitFreshStep, codeAt, enableTwoFactorViaApi } from '../../../testing/two-factor.ts';

// Signing in with two-factor on: the right password answers a challenge instead of a session, and
// POST /api/auth/login/two-factor finishes it with an app code (computed from the secret the API gave)
// or a recovery code. Codes are used once; a challenge lasts 5 minutes and hears at most 5 codes.

const INVALID = {
  error: 'That code is not right, or it was already used. Try the newest code from your app.',
  code: 'INVALID_TWO_FACTOR_CODE',
};
const ENDED = {
  error: 'This sign-in has expired or had too many wrong codes. Please sign in again.',
  code: 'INVALID_TWO_FACTOR_CODE',
};

interface Enrolled {
  email: string;
  password: string;
  token: string;
  secret: string;
  recoveryCodes: string[];
}

describe.each(testDatabaseKinds())('two-factor sign-in on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    const plenty = { max: 1000, windowMs: 60_000 };
    server = await startTestServer(kind, {
      rateLimits: { login: plenty, passwordChecksPerUser: plenty, twoFactorFailuresPerUser: plenty },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  async function enrolled(): Promise<Enrolled> {
    const user = await createUserViaApi(server);
    return { ...user, ...(await enableTwoFactorViaApi(server, user)) };
  }

  /** The first step: the password, answering a challenge. */
  async function challengeOf(user: Enrolled, session?: 'token' | 'cookie'): Promise<string> {
    const login = await server.request<{ challengeToken: string }>('POST', '/api/auth/login', {
      body: { email: user.email, password: user.password, session },
    });
    expect(login.status).toBe(200);
    return login.body.challengeToken;
  }

  const finish = (challengeToken: string, code: string, session?: 'token' | 'cookie') =>
    server.request<{ token?: string; csrfToken?: string; error?: string }>(
      'POST',
      '/api/auth/login/two-factor',
      {
        body: { challengeToken, code, session },
      },
    );

  /** Forgets which steps were used, so a test of the window is not a test of replays. */
  const forgetUsedSteps = (email: string) =>
    queryRows(server, `update users set totp_last_step = 0 where email = '${email}'`);

  it('answers a challenge, not a session, for the right password: no token, no cookie', async () => {
    const user = await enrolled();
    const sessionsBefore = await queryRows<{ n: number }>(
      server,
      `select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = '${user.email}'`,
    );
    for (const session of ['token', 'cookie'] as const) {
      const login = await server.request('POST', '/api/auth/login', {
        body: { email: user.email, password: user.password, session },
      });
      expect(login.status).toBe(200);
      expect(login.body).toEqual({
        twoFactorRequired: true,
        challengeToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expiresInSeconds: 300,
      });
      expect(login.headers.getSetCookie()).toEqual([]);
    }
    const sessionsAfter = await queryRows<{ n: number }>(
      server,
      `select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = '${user.email}'`,
    );
    expect(sessionsAfter).toEqual(sessionsBefore);
    // Stored only as a hash.
    const stored = await queryRows<{ token_hash: string; method: string; is_browser: boolean }>(
      server,
      `select token_hash, method, is_browser from sign_in_challenges c join users u on u.id = c.user_id
       where u.email = '${user.email}' order by c.created_at`,
    );
    expect(stored.map(({ method, is_browser }) => ({ method, is_browser }))).toEqual([
      { method: 'password', is_browser: false },
      { method: 'password', is_browser: true },
    ]);
    expect(stored[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('still refuses a wrong password with INVALID_CREDENTIALS, and no challenge', async () => {
    const user = await enrolled();
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: user.email, password: 'not the password' },
    });
    expect(login).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
  });

  it('finishes with an app code: a bearer token that works', async () => {
    const user = await enrolled();
    const challenge = await challengeOf(user);
    await awaitFreshStep();
    const done = await finish(challenge, codeAt(user.secret));
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ token: expect.any(String), user: { email: user.email } });
    const me = await server.request('GET', '/api/auth/me', { token: done.body.token });
    expect(me.status).toBe(200);
    // The challenge is used: it cannot open a second session.
    expect(await finish(challenge, user.recoveryCodes[0] ?? '')).toMatchObject({ status: 403, body: ENDED });
  });

  it('finishes a browser sign-in as the password alone did: session cookie, CSRF token and device cookie', async () => {
    const user = await enrolled();
    const challenge = await challengeOf(user, 'cookie');
    await awaitFreshStep();
    // Left out, the session goes on as the sign-in began (a browser's).
    const response = await fetch(`${server.url}/api/auth/login/two-factor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ challengeToken: challenge, code: codeAt(user.secret) }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).not.toHaveProperty('token');
    expect(body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookies = response.headers.getSetCookie();
    const session = cookies.find((line) => line.startsWith('bytegate_session=')) ?? '';
    expect(session).toContain('HttpOnly');
    expect(cookies.some((line) => line.startsWith('bytegate_device='))).toBe(true);
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { cookie: session.split(';')[0] ?? '' } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { csrfToken: string }).csrfToken).toBe(body.csrfToken);
  });

  it('refuses a wrong code, then takes the right one on the same challenge', async () => {
    const user = await enrolled();
    const challenge = await challengeOf(user);
    await awaitFreshStep();
    const right = codeAt(user.secret);
    for (const wrong of [right === '000000' ? '111111' : '000000', 'zzzz-zzzz', '12345', 'x']) {
      expect(await finish(challenge, wrong)).toMatchObject({ status: 403, body: INVALID });
    }
    expect((await finish(challenge, right)).status).toBe(200);
  });

  it('uses an app code once: the same code again is refused, for another challenge too', async () => {
    const user = await enrolled();
    await awaitFreshStep();
    const code = codeAt(user.secret);
    expect((await finish(await challengeOf(user), code)).status).toBe(200);
    expect(await finish(await challengeOf(user), code)).toMatchObject({ status: 403, body: INVALID });
    // And an older code of the window, once a newer one was accepted.
    expect(await finish(await challengeOf(user), codeAt(user.secret, -1))).toMatchObject({
      status: 403,
      body: INVALID,
    });
  });

  it('accepts the same code at the same instant once: one of two racing sign-ins wins', async () => {
    const user = await enrolled();
    const [first, second] = [await challengeOf(user), await challengeOf(user)];
    await awaitFreshStep();
    const code = codeAt(user.secret);
    const answers = await Promise.all([finish(first, code), finish(second, code)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
  });

  it('accepts a code one step either side of now, and refuses two steps away', async () => {
    const user = await enrolled();
    for (const steps of [-1, 1]) {
      await forgetUsedSteps(user.email);
      await awaitFreshStep();
      const done = await finish(await challengeOf(user), codeAt(user.secret, steps));
      expect({ steps, status: done.status }).toEqual({ steps, status: 200 });
    }
    for (const steps of [-2, 2]) {
      await forgetUsedSteps(user.email);
      await awaitFreshStep();
      const refused = await finish(await challengeOf(user), codeAt(user.secret, steps));
      expect({ steps, ...refused }).toMatchObject({ steps, status: 403, body: INVALID });
    }
  });

  it('takes a recovery code once, however it is typed', async () => {
    const user = await enrolled();
    const [code = ''] = user.recoveryCodes;
    const typed = ` ${code.replace('-', ' ').toUpperCase()} `;
    expect((await finish(await challengeOf(user), typed)).status).toBe(200);
    expect(await finish(await challengeOf(user), code)).toMatchObject({ status: 403, body: INVALID });
    const left = await queryRows<{ n: number }>(
      server,
      `select count(*)::int as n from two_factor_recovery_codes c join users u on u.id = c.user_id
       where u.email = '${user.email}' and c.used_at is null`,
    );
    expect(left).toEqual([{ n: 9 }]);
  });

  it('ends a challenge after 5 minutes', async () => {
    const user = await enrolled();
    const challenge = await challengeOf(user);
    await queryRows(
      server,
      `update sign_in_challenges set expires_at = now() - interval '1 second'
       where user_id = (select id from users where email = '${user.email}')`,
    );
    await awaitFreshStep();
    expect(await finish(challenge, codeAt(user.secret))).toMatchObject({ status: 403, body: ENDED });
  });

  it('ends a challenge after 5 wrong codes: the right one is refused after them', async () => {
    const user = await enrolled();
    const challenge = await challengeOf(user);
    for (let i = 0; i < 5; i += 1) {
      expect(await finish(challenge, 'zzzz-zzzz')).toMatchObject({ status: 403, body: INVALID });
    }
    expect(await finish(challenge, user.recoveryCodes[0] ?? '')).toMatchObject({ status: 403, body: ENDED });
  });

  it('hears at most 5 codes for a challenge however many race', async () => {
    const user = await enrolled();
    const challenge = await challengeOf(user);
    const answers = await Promise.all(Array.from({ length: 12 }, () => finish(challenge, 'zzzz-zzzz')));
    expect(answers.filter((answer) => answer.body.error === INVALID.error)).toHaveLength(5);
    expect(answers.filter((answer) => answer.body.error === ENDED.error)).toHaveLength(7);
    const [row] = await queryRows<{ failed_attempts: number }>(
      server,
      `select failed_attempts from sign_in_challenges where user_id = (select id from users where email = '${user.email}')`,
    );
    expect(row?.failed_attempts).toBe(5);
  });

  it('refuses an unknown challenge token and a malformed body', async () => {
    expect(await finish('x'.repeat(43), '123456')).toMatchObject({ status: 403, body: ENDED });
    const missing = await server.request('POST', '/api/auth/login/two-factor', { body: { code: '123456' } });
    expect(missing).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
  });

  it('holds an account after too many wrong codes across challenges (the rule: 10 in 15 minutes)', async () => {
    const held = await startTestServer(kind, {
      rateLimits: { twoFactorFailuresPerUser: { max: 3, windowMs: 60_000 } },
    });
    try {
      const user = await createUserViaApi(held);
      const { secret } = await enableTwoFactorViaApi(held, user);
      const login = async () =>
        (
          await held.request<{ challengeToken: string }>('POST', '/api/auth/login', {
            body: { email: user.email, password: user.password },
          })
        ).body.challengeToken;
      const attempt = (challengeToken: string, code: string) =>
        held.request('POST', '/api/auth/login/two-factor', { body: { challengeToken, code } });
      expect((await attempt(await login(), 'zzzz-zzzz')).status).toBe(403);
      const second = await login();
      expect((await attempt(second, 'zzzz-zzzz')).status).toBe(403);
      expect((await attempt(second, 'zzzz-zzzz')).status).toBe(403);
      await awaitFreshStep();
      const refused = await attempt(await login(), codeAt(secret));
      expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMITED' } });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await held.close();
    }
  });
});
