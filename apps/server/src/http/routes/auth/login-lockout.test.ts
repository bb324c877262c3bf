import { testDatabaseKinds } from '@bytegate/db/testing';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSiteverify, startFakeSiteverify } from '../../../testing/fake-siteverify.ts';
import { buildSignup, startTestServer, type TestServer } from '../../../testing/test-server.ts';

/** Clients on their own loopback addresses: the server sees each as another client address. */
const agents = new Map<string, Agent>();
function from(address: string): Agent {
  let agent = agents.get(address);
  if (!agent) {
    agent = new Agent({ localAddress: address });
    agents.set(address, agent);
  }
  return agent;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
  deviceCookie: string | undefined;
}

async function logIn(
  server: TestServer,
  address: string,
  body: Record<string, unknown>,
  cookie?: string,
): Promise<Answer> {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
    dispatcher: from(address),
  });
  const setCookie = response.headers.getSetCookie().find((line) => line.startsWith('bytegate_device='));
  return {
    status: response.status,
    body: (await response.json()) as Record<string, unknown>,
    retryAfter: response.headers.get('retry-after'),
    deviceCookie: setCookie?.split(';')[0],
  };
}

afterAll(async () => {
  await Promise.all([...agents.values()].map((agent) => agent.close()));
});

describe.each(testDatabaseKinds())('sign-in lockout on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      rateLimits: {
        login: { max: 1000, windowMs: 60_000 },
        loginFailuresPerAccountAndAddress: { max: 3, windowMs: 15 * 60_000 },
        loginFailuresPerAddress: { max: 6, windowMs: 15 * 60_000 },
        loginFailuresPerAccount: { max: 9, windowMs: 60 * 60_000 },
        loginFailuresPerDevice: { max: 3, windowMs: 15 * 60_000 },
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  async function owner() {
    const signup = buildSignup();
    const created = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...signup, session: 'cookie' }),
    });
    expect(created.status).toBe(201);
    const device = created.headers
      .getSetCookie()
      .find((line) => line.startsWith('bytegate_device='))
      ?.split(';')[0];
    return { email: signup.email.toLowerCase(), password: signup.password, device };
  }

  it('holds back an address that keeps failing, saying the real wait, and never the owner elsewhere', async () => {
    const { email, password } = await owner();
    const wrong = { email, password: 'not the password' };
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await logIn(server, '127.0.0.2', wrong)).status);
    }
    expect(statuses).toEqual([401, 401, 401]);
    const held = await logIn(server, '127.0.0.2', wrong);
    expect(held.status).toBe(429);
    expect(held.body).toEqual({
      error: 'Too many failed sign-in attempts. Please try again in 15 minutes.',
      code: 'RATE_LIMITED',
    });
    expect(Number(held.retryAfter)).toBeGreaterThan(14 * 60);
    expect(Number(held.retryAfter)).toBeLessThanOrEqual(15 * 60);
    // Even the right password waits at that address...
    expect((await logIn(server, '127.0.0.2', { email, password })).status).toBe(429);
    // ...but the owner, at their own address and with no cookie at all, signs in.
    expect((await logIn(server, '127.0.0.3', { email, password })).status).toBe(200);
    expect((await logIn(server, '127.0.0.3', { email, password, session: 'cookie' })).status).toBe(200);
  });

  it('counts only failures: the owner signs in as often as they like', async () => {
    const { email, password } = await owner();
    for (let i = 0; i < 8; i++) {
      expect((await logIn(server, '127.0.0.4', { email, password })).status).toBe(200);
    }
    await logIn(server, '127.0.0.4', { email, password: 'typo' });
    await logIn(server, '127.0.0.4', { email, password: 'typo' });
    // A success clears that address's count, so two more typos do not lock it.
    expect((await logIn(server, '127.0.0.4', { email, password })).status).toBe(200);
    await logIn(server, '127.0.0.4', { email, password: 'typo' });
    await logIn(server, '127.0.0.4', { email, password: 'typo' });
    expect((await logIn(server, '127.0.0.4', { email, password })).status).toBe(200);
  });

  it('keeps the owner’s own browser in when many addresses guess at the account', async () => {
    const { email, password, device } = await owner();
    expect(device).toMatch(/^bytegate_device=[A-Za-z0-9_-]{43}$/);
    // Nine failures from three addresses: the account is now closed to browsers it does not know.
    for (const address of ['127.0.0.5', '127.0.0.6', '127.0.0.7']) {
      for (let i = 0; i < 3; i++) {
        expect((await logIn(server, address, { email, password: 'guess' })).status).toBe(401);
      }
    }
    const stranger = await logIn(server, '127.0.0.8', { email, password });
    expect(stranger.status).toBe(429);
    // Told so, with the way in that needs the mailbox (sign-in-link.test.ts).
    expect(stranger.body).toEqual({
      error:
        'Too many failed sign-in attempts on this account from other browsers: sign-ins from browsers it does not know are paused for 60 minutes. If it is your account, we can email you a one-time sign-in link.',
      code: 'ACCOUNT_LOCKED',
    });
    // The browser the owner signed up from still signs in, from any address.
    const own = await logIn(server, '127.0.0.8', { email, password, session: 'cookie' }, device);
    expect(own.status).toBe(200);
    expect(own.deviceCookie).toBe(device);
    // A device cookie of another account earns no trust here.
    const other = await owner();
    expect(
      (await logIn(server, '127.0.0.8', { email, password, session: 'cookie' }, other.device)).status,
    ).toBe(429);
  });

  it('says nothing about whether an email has an account', async () => {
    const unknown = { email: `nobody.${Date.now()}@example.com`, password: 'guess' };
    const answers = [];
    for (let i = 0; i < 4; i++) {
      answers.push(await logIn(server, '127.0.0.9', unknown));
    }
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 429]);
    expect(answers[0]?.body).toEqual({ error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
  });
});

describe('sign-in lockout behind the bot check', () => {
  let server: TestServer;
  let siteverify: FakeSiteverify;
  beforeAll(async () => {
    siteverify = await startFakeSiteverify('secret');
    server = await startTestServer('pglite', {
      recaptcha: { siteKey: 'site', secretKey: 'secret', verifyUrl: siteverify.url, minScore: 0.5 },
      rateLimits: {
        login: { max: 1000, windowMs: 60_000 },
        loginFailuresPerAccountAndAddress: { max: 3, windowMs: 15 * 60_000 },
      },
    });
  });
  afterAll(async () => {
    await server.close();
    await siteverify.close();
  });

  it('counts no attempt the bot check refused', async () => {
    const signup = buildSignup({ recaptchaToken: 'human-signup' });
    expect((await logIn(server, '127.0.0.1', { ...signup, recaptchaToken: 'bot-login' })).status).toBe(403);
    const created = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(signup),
    });
    expect(created.status).toBe(201);
    const { email, password } = signup;
    for (let i = 0; i < 10; i++) {
      const refused = await logIn(server, '127.0.0.2', {
        email,
        password: 'guess',
        recaptchaToken: 'bot-login',
      });
      expect(refused.body.code).toBe('RECAPTCHA_FAILED');
    }
    expect(
      (await logIn(server, '127.0.0.2', { email, password, recaptchaToken: 'human-login' })).status,
    ).toBe(200);
  });
});
