import { createHash } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { freePort } from '@bytegate/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../../../mail/testing/smtp-sink.ts';
import { type FakeSiteverify, startFakeSiteverify } from '../../../testing/fake-siteverify.ts';
import {
  buyDatacenterPlan,
  type GatewayFixture,
  startGatewayFixture,
  within,
} from '../../../testing/gateway-fixture.ts';
import { linkIn, mailFor, mailsFor, mailTo } from '../../../testing/mail.ts';
import { forwardGet } from '../../../testing/proxy-clients.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

// "Forgot your password?" over real HTTP, with the mail caught by a real SMTP server on 127.0.0.1.

const ANSWER = {
  success: true,
  message:
    'If an account exists for that email, we have sent it a link to reset the password. The link works for 30 minutes.',
};
const INVALID_LINK = {
  error: 'This password reset link is invalid, has expired or was already used. Please ask for a new one.',
  code: 'INVALID_LINK',
};
const NEW_PASSWORD = 'a brand new password';

describe.each(testDatabaseKinds())('password reset API on %s', (kind) => {
  let fixture: GatewayFixture;
  let server: TestServer;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    fixture = await startGatewayFixture(kind, { server: { mail: mailTo(sink) } });
    server = fixture.server;
  });
  afterAll(async () => {
    await fixture?.close();
    await sink?.close();
  });

  const forgot = (email: string) => server.request('POST', '/api/auth/forgot-password', { body: { email } });
  const reset = (token: string, password = NEW_PASSWORD) =>
    server.request('POST', '/api/auth/reset-password', { body: { token, password } });
  const login = (email: string, password: string) =>
    server.request<{ token: string }>('POST', '/api/auth/login', { body: { email, password } });
  /** Asks for a reset and answers the token of the link that arrives (the `nth` mail to that address). */
  const resetLinkFor = async (email: string, nth = 1) => {
    expect((await forgot(email)).status).toBe(202);
    return linkIn(await mailFor(sink, email, nth), '/reset-password');
  };

  describe('POST /api/auth/forgot-password', () => {
    it('refuses a missing or malformed email', async () => {
      const missing = await server.request('POST', '/api/auth/forgot-password', { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: 'Email is required', code: 'VALIDATION_FAILED' });
      const malformed = await forgot('not an email');
      expect(malformed.body).toEqual({
        error: 'Please enter a valid email address',
        code: 'VALIDATION_FAILED',
      });
    });

    it('answers the same for a known, an unknown, a deleted and a disabled account, and mails only the known one', async () => {
      const known = await createUserViaApi(server);
      const deleted = await createUserViaApi(server);
      await server.request('DELETE', '/api/user-settings/account', {
        token: deleted.token,
        body: { password: deleted.password },
      });
      const disabled = await createUserViaApi(server);
      await queryRows(server, `update users set disabled_at = now() where email = '${disabled.email}'`);
      const unknown = `nobody.${Date.now()}@example.com`;

      const answers = [];
      for (const email of [known.email, unknown, deleted.email, disabled.email]) {
        const { status, body, headers } = await forgot(email);
        answers.push({ status, body, type: headers.get('content-type') });
      }
      for (const answer of answers) {
        expect(answer).toEqual({ status: 202, body: ANSWER, type: 'application/json; charset=utf-8' });
      }
      await server.app.backgroundTasks.idle();
      expect(mailsFor(sink, known.email)).toHaveLength(1);
      for (const email of [unknown, deleted.email, disabled.email]) {
        expect(mailsFor(sink, email), email).toEqual([]);
      }
      // A differently cased address is the same account.
      expect((await forgot(known.email.toUpperCase())).body).toEqual(ANSWER);
      await mailFor(sink, known.email, 2);
    });

    it('mails a link to /reset-password on PUBLIC_URL, valid 30 minutes, stored only as its SHA-256', async () => {
      const { email } = await createUserViaApi(server);
      const before = Date.now();
      const { url, token } = await resetLinkFor(email);
      expect(url).toBe(`${server.url}/reset-password?token=${token}`);
      const mail = await mailFor(sink, email);
      expect(mail.mailFrom).toBe('no-reply@bytegate.test');
      expect(mail.parsed.subject).toBe('Reset your Bytegate password');
      expect(mail.parsed.text).toContain('Hello Ada,');
      expect(mail.parsed.text).toContain('The link works for 30 minutes, once.');
      expect(mail.parsed.html).toContain(`href="${url}"`);
      const rows = await queryRows<{
        token_hash: string;
        email: string;
        expires_at: Date;
        used_at: Date | null;
      }>(
        server,
        `select token_hash, t.email, expires_at, used_at from account_tokens t join users u on u.id = t.user_id
         where u.email = '${email}' and purpose = 'password_reset'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
      expect(rows[0]?.email).toBe(email);
      expect(rows[0]?.used_at).toBeNull();
      const lifetime = new Date(rows[0]?.expires_at ?? 0).getTime() - before;
      expect(lifetime).toBeGreaterThan(29 * 60_000);
      expect(lifetime).toBeLessThanOrEqual(30 * 60_000 + 5_000);
      expect(JSON.stringify(await queryRows(server, 'select * from account_tokens'))).not.toContain(token);
    });

    it('answers at once while the mail server does not: the mail goes after the reply', async () => {
      // An SMTP server that takes connections and never says a word: a send waits for its greeting.
      const sockets = new Set<Socket>();
      const silent: Server = createServer((socket) => {
        sockets.add(socket);
      });
      const port = await freePort();
      await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
      const slow = await startTestServer(kind, {
        mail: { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Bytegate <no-reply@bytegate.test>' },
      });
      try {
        const { email } = await createUserViaApi(slow);
        const started = Date.now();
        const answer = await slow.request('POST', '/api/auth/forgot-password', { body: { email } });
        expect(Date.now() - started).toBeLessThan(2000);
        expect(answer.status).toBe(202);
        expect(answer.body).toEqual(ANSWER);
        await expect.poll(() => sockets.size).toBe(1);
      } finally {
        for (const socket of sockets) {
          socket.destroy();
        }
        await slow.close();
        await new Promise((resolve) => silent.close(resolve));
      }
    });
  });

  describe('POST /api/auth/reset-password', () => {
    it('refuses a short password and a missing token', async () => {
      const short = await reset('x'.repeat(43), 'short');
      expect(short.status).toBe(400);
      expect(short.body).toEqual({
        error: 'Password must be at least 8 characters',
        code: 'VALIDATION_FAILED',
      });
      const missing = await server.request('POST', '/api/auth/reset-password', {
        body: { password: NEW_PASSWORD },
      });
      expect(missing.body).toEqual({
        error: 'This link is incomplete: open it exactly as it is in the email.',
        code: 'VALIDATION_FAILED',
      });
    });

    it('refuses an unknown token', async () => {
      const { status, body } = await reset('A'.repeat(43));
      expect(status).toBe(400);
      expect(body).toEqual(INVALID_LINK);
    });

    it('sets the new password once: the old one and a second use of the link are refused', async () => {
      const { email, password } = await createUserViaApi(server);
      const { token } = await resetLinkFor(email);
      const { status, body } = await reset(token);
      expect(status).toBe(200);
      expect(body).toEqual({ success: true, email });
      expect((await login(email, password)).status).toBe(401);
      expect((await login(email, NEW_PASSWORD)).status).toBe(200);

      const again = await reset(token, 'yet another password');
      expect(again.status).toBe(400);
      expect(again.body).toEqual(INVALID_LINK);
      expect((await login(email, NEW_PASSWORD)).status).toBe(200);
    });

    it('lets exactly one of two requests racing with the same link through', async () => {
      const { email } = await createUserViaApi(server);
      const { token } = await resetLinkFor(email);
      const answers = await Promise.all([
        reset(token, 'first new password'),
        reset(token, 'second new password'),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    });

    it('refuses an expired link', async () => {
      const { email, password } = await createUserViaApi(server);
      const { token } = await resetLinkFor(email);
      await queryRows(
        server,
        `update account_tokens set expires_at = now() - interval '1 second'
         where token_hash = '${createHash('sha256').update(token).digest('hex')}'`,
      );
      const { status, body } = await reset(token);
      expect(status).toBe(400);
      expect(body).toEqual(INVALID_LINK);
      expect((await login(email, password)).status).toBe(200);
    });

    it('ends earlier links when a new one is asked for', async () => {
      const { email } = await createUserViaApi(server);
      const first = await resetLinkFor(email, 1);
      const second = await resetLinkFor(email, 2);
      expect((await reset(first.token)).body).toEqual(INVALID_LINK);
      expect((await reset(second.token)).status).toBe(200);
    });

    it('refuses the link of an account disabled since it was sent', async () => {
      const { email } = await createUserViaApi(server);
      const { token } = await resetLinkFor(email);
      await queryRows(server, `update users set disabled_at = now() where email = '${email}'`);
      expect((await reset(token)).body).toEqual(INVALID_LINK);
    });

    it('signs the account out everywhere, while its proxy credentials keep working', async () => {
      const customer = await buyDatacenterPlan(server);
      const throughProxy = async () =>
        (
          await forwardGet(
            fixture.gateway.httpPort,
            `${customer.login}:${customer.password}`,
            `${fixture.originUrl}/`,
          )
        ).status === 200;
      // The gateway picks a new plan up within a second.
      await within(5000, throughProxy);
      const other = await login(customer.email, customer.accountPassword);
      const sessions = [customer.token, other.body.token];
      for (const token of sessions) {
        expect((await server.request('GET', '/api/auth/me', { token })).status).toBe(200);
      }
      const { token } = await resetLinkFor(customer.email);
      expect((await reset(token)).status).toBe(200);
      for (const session of sessions) {
        expect((await server.request('GET', '/api/auth/me', { token: session })).status).toBe(401);
      }
      const live = await queryRows<{ n: number }>(
        server,
        `select count(*)::int as n from sessions s join users u on u.id = s.user_id
         where u.email = '${customer.email}' and s.revoked_at is null`,
      );
      expect(live[0]?.n).toBe(0);
      // The plan's proxy login and password are not the account's: traffic goes on, now and after the
      // gateway's next look at the plans.
      expect(await throughProxy()).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await throughProxy()).toBe(true);
      const plans = await login(customer.email, NEW_PASSWORD);
      const listed = await server.request<{ plans: Array<{ login: string; password: string }> }>(
        'GET',
        '/api/subuser/plans',
        { token: plans.body.token },
      );
      expect(listed.body.plans[0]).toMatchObject({ login: customer.login, password: customer.password });
    });
  });
});

describe.each(testDatabaseKinds())('password reset rate limits on %s', (kind) => {
  let server: TestServer;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer(kind, {
      mail: mailTo(sink),
      rateLimits: {
        passwordResetsPerEmail: { max: 2, windowMs: 60 * 60_000 },
        passwordResetsPerAddress: { max: 5, windowMs: 60 * 60_000 },
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  const forgot = (email: string) => server.request('POST', '/api/auth/forgot-password', { body: { email } });

  it('limits requests per email (whoever asks) and per client address, saying how long to wait', async () => {
    const { email } = await createUserViaApi(server);
    expect((await forgot(email)).status).toBe(202);
    expect((await forgot(email.toUpperCase())).status).toBe(202);
    const perEmail = await forgot(email);
    expect(perEmail.status).toBe(429);
    expect(perEmail.body).toEqual({
      error: 'Too many password reset requests. Please try again in 60 minutes.',
      code: 'RATE_LIMITED',
    });
    expect(Number(perEmail.headers.get('retry-after'))).toBeGreaterThan(3500);
    // Another email from the same address still goes, until the address has asked 5 times.
    expect((await forgot(`other.${Date.now()}@example.com`)).status).toBe(202);
    expect((await forgot(`third.${Date.now()}@example.com`)).status).toBe(202);
    const perAddress = await forgot(`fourth.${Date.now()}@example.com`);
    expect(perAddress.status).toBe(429);
    expect(perAddress.body).toEqual({
      error: 'Too many password reset requests. Please try again in 60 minutes.',
      code: 'RATE_LIMITED',
    });
    expect(perAddress.headers.get('retry-after')).toMatch(/^\d+$/);
    await server.app.backgroundTasks.idle();
    // A refused request sends nothing: the two answered ones did.
    expect(mailsFor(sink, email)).toHaveLength(2);
  });
});

describe.each(testDatabaseKinds())('password reset bot check on %s', (kind) => {
  let server: TestServer;
  let sink: SmtpSink;
  let siteverify: FakeSiteverify;
  beforeAll(async () => {
    sink = await startSmtpSink();
    siteverify = await startFakeSiteverify('test-secret');
    server = await startTestServer(kind, {
      mail: mailTo(sink),
      recaptcha: {
        siteKey: 'test-site-key',
        secretKey: 'test-secret',
        verifyUrl: siteverify.url,
        minScore: 0.5,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await siteverify?.close();
    await sink?.close();
  });

  it('asks for a token made for password_reset, as sign-in does for login', async () => {
    const email = `bot.${Date.now()}@example.com`;
    const forgot = (recaptchaToken?: string) =>
      server.request('POST', '/api/auth/forgot-password', { body: { email, recaptchaToken } });
    expect((await forgot()).body).toEqual({
      error: 'Please complete the security check and try again.',
      code: 'RECAPTCHA_REQUIRED',
    });
    for (const token of ['bot-password_reset', 'human-login']) {
      const refused = await forgot(token);
      expect({ token, status: refused.status, code: refused.body.code }).toEqual({
        token,
        status: 403,
        code: 'RECAPTCHA_FAILED',
      });
    }
    const passed = await forgot('human-password_reset');
    expect(passed.status).toBe(202);
    expect(passed.body).toEqual(ANSWER);
  });
});
