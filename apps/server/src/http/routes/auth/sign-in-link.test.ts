import { ACCOUNT_LINK_PAGES } from '@bytegate/contracts/routes';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { Agent, fetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../../../mail/testing/smtp-sink.ts';
import { linkIn, mailFor, mailsFor, mailTo } from '../../../testing/mail.ts';
import { buildSignup, startTestServer, type TestServer } from '../../../testing/test-server.ts';

// Audit finding 17 (issue 28): 105 wrong passwords from 105 addresses lock an account against every
// browser it does not know, its owner's new ones too. The owner's way in is a one-time sign-in link
// mailed on request while the lock holds, saying what happened; a guesser without the mailbox gets
// nothing from it. Over real HTTP, each client on its own loopback address, mail caught by SMTP.

const agents = new Map<string, Agent>();
function from(address: string): Agent {
  let agent = agents.get(address);
  if (!agent) {
    agent = new Agent({ localAddress: address });
    agents.set(address, agent);
  }
  return agent;
}
afterAll(async () => {
  await Promise.all([...agents.values()].map((agent) => agent.close()));
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
  cookies: string[];
}

const LINK_ASKED = {
  success: true,
  message:
    'If this account is locked, we have emailed its owner a one-time sign-in link. It works for 15 minutes, once.',
};

describe.each(testDatabaseKinds())('sign-in link of a locked account on %s', (kind) => {
  let server: TestServer;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    // The production rules of failed sign-ins (10 per account and address, 50 per address, 100 per
    // account from unknown browsers); only the flood guard is opened for the many requests here.
    server = await startTestServer(kind, {
      mail: mailTo(sink),
      rateLimits: { login: { max: 1000, windowMs: 60_000 } },
    });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  async function post(address: string, path: string, body: unknown, cookie?: string): Promise<Answer> {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
      dispatcher: from(address),
    });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      cookies: response.headers.getSetCookie().map((line) => line.split(';')[0] ?? ''),
    };
  }

  /** 105 wrong passwords, each from its own address: the first 100 are counted, the rest held. */
  async function lockOut(email: string) {
    const statuses: number[] = [];
    for (let i = 1; i <= 105; i++) {
      statuses.push(
        (await post(`127.0.1.${i}`, '/api/auth/login', { email, password: `guess ${i}` })).status,
      );
    }
    expect(statuses.slice(0, 100).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(100)).toEqual([429, 429, 429, 429, 429]);
  }

  async function signUp() {
    const signup = buildSignup();
    const created = await post('127.0.0.1', '/api/auth/signup', signup);
    expect(created.status).toBe(201);
    return { email: signup.email.toLowerCase(), password: signup.password, firstName: signup.firstName };
  }

  it('tells the locked-out owner what to do, mails what happened with a link that signs in once, and leaves a guesser nothing', async () => {
    const owner = await signUp();
    await lockOut(owner.email);

    // The owner, in a new browser at a new address, with the right password: paused, and told the way in.
    const locked = await post('127.0.2.1', '/api/auth/login', { ...owner, session: 'cookie' });
    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({
      error:
        'Too many failed sign-in attempts on this account from other browsers: sign-ins from browsers it does not know are paused for 60 minutes. If it is your account, we can email you a one-time sign-in link.',
      code: 'ACCOUNT_LOCKED',
    });

    // A guesser asks for the link: the same answer as for anyone, and the link goes to the mailbox only.
    const guesserAsks = await post('127.0.1.50', '/api/auth/sign-in-link', { email: owner.email });
    expect({ status: guesserAsks.status, body: guesserAsks.body }).toEqual({ status: 202, body: LINK_ASKED });
    const first = await mailFor(sink, owner.email);
    const firstLink = linkIn(first, ACCOUNT_LINK_PAGES.signInLink);
    // The owner asks too: a new link, and the first stops working.
    expect((await post('127.0.2.1', '/api/auth/sign-in-link', { email: owner.email })).body).toEqual(
      LINK_ASKED,
    );
    const mail = await mailFor(sink, owner.email, 2);
    expect(mail.parsed.subject).toBe('Sign in to your Bytegate account');
    expect(mail.parsed.text).toContain(
      `Hello ${owner.firstName},\n\nSomeone tried to sign in to your Bytegate account with a wrong password 100 times from 100 different addresses. To keep guessing slow, sign-ins from browsers that have never been used with your account are paused for the next 60 minutes.`,
    );
    const { url, token } = linkIn(mail, ACCOUNT_LINK_PAGES.signInLink);
    expect(url).toBe(`${server.url}/sign-in-link?token=${token}`);

    // Without the mailbox: a made-up token and the replaced link are refused, and sign nobody in.
    const invalid = {
      error:
        'This sign-in link is invalid, has expired or was already used. Please ask for a new one from the sign-in page.',
      code: 'INVALID_LINK',
    };
    for (const guess of ['A'.repeat(43), firstLink.token]) {
      const refused = await post('127.0.1.51', '/api/auth/sign-in-link/sign-in', {
        token: guess,
        session: 'cookie',
      });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 400, body: invalid });
      expect(refused.cookies).toEqual([]);
    }
    // ...and the lock still holds them with the password they have not got, and the owner's new browser too.
    expect((await post('127.0.1.52', '/api/auth/login', owner)).body.code).toBe('ACCOUNT_LOCKED');

    // The owner follows the link: signed in, this browser remembered as the account's.
    const signedIn = await post('127.0.2.1', '/api/auth/sign-in-link/sign-in', { token, session: 'cookie' });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ user: { email: owner.email }, csrfToken: expect.any(String) });
    const session = signedIn.cookies.find((cookie) => cookie.startsWith('bytegate_session='));
    const device = signedIn.cookies.find((cookie) => cookie.startsWith('bytegate_device='));
    expect(session).toMatch(/^bytegate_session=.{43}$/);
    expect(device).toMatch(/^bytegate_device=.{43}$/);
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { cookie: String(session) } });
    expect(me.status).toBe(200);
    // Once only.
    expect((await post('127.0.2.1', '/api/auth/sign-in-link/sign-in', { token })).body).toEqual(invalid);
    // From now on that browser signs in with the password while the lock holds every other.
    const again = await post('127.0.2.1', '/api/auth/login', { ...owner, session: 'cookie' }, device);
    expect(again.status).toBe(200);
    expect((await post('127.0.2.2', '/api/auth/login', owner)).body.code).toBe('ACCOUNT_LOCKED');

    // The activity feed says how the owner got in.
    const activity = await fetch(`${server.url}/api/account/activity`, {
      headers: { cookie: String(session) },
    });
    const { entries } = (await activity.json()) as {
      entries: Array<{ title: string; detail: string | null }>;
    };
    expect(entries).toContainEqual(
      expect.objectContaining({ title: 'Signed in', detail: 'With a sign-in link emailed to you' }),
    );
    // 105 password checks: given the time a loaded machine needs for them.
  }, 180_000);

  it('mails nothing for an account that is not locked, nor for an unknown email, with the same answer', async () => {
    const owner = await signUp();
    const unknown = `nobody.${Date.now()}@example.com`;
    for (const email of [owner.email, unknown]) {
      const asked = await post('127.0.3.1', '/api/auth/sign-in-link', { email });
      expect({ status: asked.status, body: asked.body }).toEqual({ status: 202, body: LINK_ASKED });
    }
    await server.app.backgroundTasks.idle();
    expect(mailsFor(sink, owner.email)).toEqual([]);
    expect(mailsFor(sink, unknown)).toEqual([]);
  });
});
