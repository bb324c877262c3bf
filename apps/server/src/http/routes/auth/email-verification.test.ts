import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '@bytegate/contracts/api-keys';
import { createApiKey } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../../../mail/testing/smtp-sink.ts';
import { hashApiKeySecret } from '../../../services/api-keys/api-keys.ts';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { linkIn, mailFor, mailsFor, mailTo } from '../../../testing/mail.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

// Email verification over real HTTP (EMAIL_VERIFICATION), the links caught by a real SMTP server: the
// link mailed at sign-up, every way money comes in or goes out refused until it is followed, and the
// setting's `off`.

const NOT_VERIFIED = {
  error:
    'Please verify your email address before topping up or buying traffic: follow the link we emailed you, or send a new one from the dashboard.',
  code: 'EMAIL_NOT_VERIFIED',
};
const INVALID_LINK = {
  error: 'This verification link is invalid, has expired or was already used. Please ask for a new one.',
  code: 'INVALID_LINK',
};

/**
 * A signed-up customer with $100 and an API key that may buy and top up. While verification is required
 * an unverified account cannot mint a key (account-reclaim.test.ts): its key is then one made before the
 * setting was turned on, stored as key creation stores it, which the money paths must refuse all the same.
 */
async function customerWithKey(server: TestServer) {
  const user = await createUserViaApi(server);
  await adjustBalance(
    { db: server.database.db, config: server.config },
    { email: user.email, amountCents: 100_00, reason: 'test credit' },
  );
  if (server.config.emailVerification === 'required') {
    const apiKey = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const [owner] = await queryRows<{ id: string }>(
      server,
      `select id from users where email = '${user.email}'`,
    );
    await createApiKey(server.database.db, {
      userId: String(owner?.id),
      name: 'automation',
      prefix: apiKey.slice(0, 12),
      secretHash: hashApiKeySecret(apiKey),
      scopes: ['purchase', 'billing'],
      expiresAt: null,
    });
    return { ...user, apiKey };
  }
  const key = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
    token: user.token,
    body: { name: 'automation', scopes: ['purchase', 'billing'], password: user.password },
  });
  expect(key.status).toBe(201);
  return { ...user, apiKey: key.body.secret };
}

/** Every way money moves for a customer: the dashboard's purchase and two top-ups, and the public API's. */
function moneyPaths(server: TestServer, customer: { token: string; apiKey: string }) {
  const { token, apiKey } = customer;
  return {
    'POST /api/subuser/create': () =>
      server.request('POST', '/api/subuser/create', {
        token,
        body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
      }),
    'POST /api/topup/cryptomus/create-invoice': () =>
      server.request('POST', '/api/topup/cryptomus/create-invoice', { token, body: { amount: 10 } }),
    'POST /api/topup/bitcart/create-invoice': () =>
      server.request('POST', '/api/topup/bitcart/create-invoice', { token, body: { amount: 10 } }),
    'POST /api/v1/purchases': () =>
      server.request('POST', '/api/v1/purchases', { token: apiKey, body: { pool_type: 'mobile', gb: 5 } }),
    'POST /api/v1/topups': () =>
      server.request('POST', '/api/v1/topups', {
        token: apiKey,
        body: { provider: 'cryptomus', amount_usd: 10 },
      }),
  };
}

describe.each(testDatabaseKinds())('email verification required on %s', (kind) => {
  let server: TestServer;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer(kind, {
      mail: mailTo(sink),
      emailVerification: 'required',
      rateLimits: { verificationEmailsPerUser: { max: 3, windowMs: 60 * 60_000 } },
    });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  const verify = (token: string) => server.request('POST', '/api/auth/verify-email', { body: { token } });
  const me = (token: string) =>
    server.request<{ user: { email: string; emailVerified: boolean } }>('GET', '/api/auth/me', { token });

  it('tells the web app that verification is required', async () => {
    const { body } = await server.request('GET', '/api/config');
    expect(body).toMatchObject({ emailVerificationRequired: true });
  });

  it('mails a link at sign-up, valid 7 days; the account starts unverified', async () => {
    const before = Date.now();
    const { token, email } = await createUserViaApi(server);
    expect((await me(token)).body.user.emailVerified).toBe(false);
    const mail = await mailFor(sink, email);
    expect(mail.parsed.subject).toBe('Verify your email for Bytegate');
    expect(mail.parsed.text).toContain('Hello Ada,');
    const link = linkIn(mail, '/verify-email');
    expect(link.url).toBe(`${server.url}/verify-email?token=${link.token}`);
    expect(mail.parsed.html).toContain(`href="${link.url}"`);
    const [row] = await queryRows<{ token_hash: string; expires_at: Date }>(
      server,
      `select token_hash, expires_at from account_tokens where email = '${email}' and purpose = 'email_verification'`,
    );
    expect(row?.token_hash).toBe(createHash('sha256').update(link.token).digest('hex'));
    const lifetime = new Date(row?.expires_at ?? 0).getTime() - before;
    expect(lifetime).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(7 * 86_400_000 + 5_000);
  });

  it('refuses every top-up and purchase until the link is followed, then lets them all through', async () => {
    const customer = await customerWithKey(server);
    const paths = moneyPaths(server, customer);
    for (const [route, call] of Object.entries(paths)) {
      const { status, body } = await call();
      expect({ route, status, body }).toEqual({ route, status: 403, body: NOT_VERIFIED });
    }
    // Refused before anything was written: no order, no plan, the balance untouched.
    const [counts] = await queryRows<{ orders: number; plans: number; balance: string }>(
      server,
      `select (select count(*)::int from orders o where o.user_id = u.id) as orders,
              (select count(*)::int from plans p where p.user_id = u.id) as plans,
              u.balance_cents as balance
       from users u where u.email = '${customer.email}'`,
    );
    expect(counts).toEqual({ orders: 0, plans: 0, balance: expect.anything() });
    expect(Number(counts?.balance)).toBe(100_00);

    const { token } = linkIn(await mailFor(sink, customer.email), '/verify-email');
    const verified = await verify(token);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ email: customer.email, isEmailChanged: false });
    expect((await me(customer.token)).body.user.emailVerified).toBe(true);
    for (const [route, call] of Object.entries(paths)) {
      const { status } = await call();
      expect({ route, status }).toEqual({ route, status: 201 });
    }
  });

  it('follows a link once, and never an expired or unknown one', async () => {
    const first = await createUserViaApi(server);
    const { token } = linkIn(await mailFor(sink, first.email), '/verify-email');
    expect((await verify(token)).status).toBe(200);
    const again = await verify(token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual(INVALID_LINK);

    const second = await createUserViaApi(server);
    const expiring = linkIn(await mailFor(sink, second.email), '/verify-email');
    await queryRows(
      server,
      `update account_tokens set expires_at = now() - interval '1 second'
       where token_hash = '${createHash('sha256').update(expiring.token).digest('hex')}'`,
    );
    expect((await verify(expiring.token)).body).toEqual(INVALID_LINK);
    expect((await me(second.token)).body.user.emailVerified).toBe(false);
    expect((await verify('B'.repeat(43))).body).toEqual(INVALID_LINK);
    // A password reset link is no verification link.
    await server.request('POST', '/api/auth/forgot-password', { body: { email: second.email } });
    const reset = linkIn(await mailFor(sink, second.email, 2), '/reset-password');
    expect((await verify(reset.token)).body).toEqual(INVALID_LINK);
  });

  describe('POST /api/auth/verify-email/resend', () => {
    it('answers 401 without a session', async () => {
      expect((await server.request('POST', '/api/auth/verify-email/resend')).status).toBe(401);
    });

    it('mails a new link that ends the earlier one, is limited per account, and is refused once verified', async () => {
      const { token, email } = await createUserViaApi(server);
      const first = linkIn(await mailFor(sink, email, 1), '/verify-email');
      const resent = await server.request('POST', '/api/auth/verify-email/resend', { token });
      expect(resent.status).toBe(200);
      expect(resent.body).toEqual({ success: true, email });
      const second = linkIn(await mailFor(sink, email, 2), '/verify-email');
      expect((await verify(first.token)).body).toEqual(INVALID_LINK);

      expect((await server.request('POST', '/api/auth/verify-email/resend', { token })).status).toBe(200);
      expect((await server.request('POST', '/api/auth/verify-email/resend', { token })).status).toBe(200);
      const limited = await server.request('POST', '/api/auth/verify-email/resend', { token });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({
        error: 'Too many verification emails. Please try again in 60 minutes.',
        code: 'RATE_LIMITED',
      });
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(mailsFor(sink, email)).toHaveLength(4);

      // The newest link works (each resend ended the one before).
      expect((await verify(second.token)).body).toEqual(INVALID_LINK);
      const newest = linkIn(await mailFor(sink, email, 4), '/verify-email');
      expect((await verify(newest.token)).status).toBe(200);

      const other = await createUserViaApi(server);
      const link = linkIn(await mailFor(sink, other.email), '/verify-email');
      await verify(link.token);
      const already = await server.request('POST', '/api/auth/verify-email/resend', { token: other.token });
      expect(already.status).toBe(409);
      expect(already.body).toEqual({ error: 'Your email address is already verified.', code: 'CONFLICT' });
    });
  });
});

describe.each(testDatabaseKinds())('email verification off on %s', (kind) => {
  let server: TestServer;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    // As `auto` decides without SMTP_URL (a fresh clone); here with a mail server, to see that none is sent.
    server = await startTestServer(kind, { mail: mailTo(sink), emailVerification: 'off' });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('mails nothing at sign-up and lets an unverified account top up and buy everywhere', async () => {
    expect((await server.request('GET', '/api/config')).body).toMatchObject({
      emailVerificationRequired: false,
    });
    const customer = await customerWithKey(server);
    for (const [route, call] of Object.entries(moneyPaths(server, customer))) {
      const { status } = await call();
      expect({ route, status }).toEqual({ route, status: 201 });
    }
    await server.app.backgroundTasks.idle();
    expect(mailsFor(sink, customer.email)).toEqual([]);
    const me = await server.request<{ user: { emailVerified: boolean } }>('GET', '/api/auth/me', {
      token: customer.token,
    });
    expect(me.body.user.emailVerified).toBe(false);
  });

  it('still proves an address when asked to', async () => {
    const { token, email } = await createUserViaApi(server);
    expect((await server.request('POST', '/api/auth/verify-email/resend', { token })).status).toBe(200);
    const link = linkIn(await mailFor(sink, email), '/verify-email');
    expect(
      (await server.request('POST', '/api/auth/verify-email', { body: { token: link.token } })).status,
    ).toBe(200);
  });
});
