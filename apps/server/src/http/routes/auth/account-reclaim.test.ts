import type { ActivityEntry } from '@bytegate/contracts/activity';
import { apiKeyMessages } from '@bytegate/contracts/api-keys';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../../../mail/testing/smtp-sink.ts';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { linkIn, mailFor, mailTo } from '../../../testing/mail.ts';
import { createUserViaApi, startTestServer, type TestServer } from '../../../testing/test-server.ts';

// Audit finding 4 (issue 28): whoever held an account before its mailbox's owner proved it (someone who
// signed up first with another person's address, or a thief with the old password) keeps nothing: a
// password reset and a change of email revoke every API key and every session, and minting a key
// waits for a verified email while verification is required. Over real HTTP, mail caught by SMTP.

const ALL_SCOPES = ['read', 'proxy_users', 'purchase', 'billing'];
const NEW_PASSWORD = 'the owner takes it back';

describe.each(testDatabaseKinds())('reclaiming an account on %s', (kind) => {
  let server: TestServer;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    // As a fresh clone decides without SMTP_URL (verification off): keys need no proven address here.
    server = await startTestServer(kind, { mail: mailTo(sink), emailVerification: 'off' });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  const mintKey = async (user: { token: string; password: string }) => {
    const created = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token: user.token,
      body: { name: 'everything', scopes: ALL_SCOPES, password: user.password },
    });
    expect(created.status).toBe(201);
    return created.body.secret;
  };
  const login = async (email: string, password: string) => {
    const answer = await server.request<{ token: string }>('POST', '/api/auth/login', {
      body: { email, password },
    });
    expect(answer.status).toBe(200);
    return answer.body.token;
  };
  const activity = async (token: string) =>
    (await server.request<{ entries: ActivityEntry[] }>('GET', '/api/account/activity', { token })).body
      .entries;
  const isSignedIn = async (token: string) =>
    (await server.request('GET', '/api/auth/me', { token })).status === 200;

  it("ends a squatter's key and sessions when the owner resets the password: the key buys, reads and adds nothing", async () => {
    // The squatter signs up first with the owner's address, mints a key with every scope, and keeps a
    // second session open.
    const squatter = await createUserViaApi(server);
    const secret = await mintKey(squatter);
    const squatterSession = await login(squatter.email, squatter.password);
    expect((await server.request('GET', '/api/v1/plans', { token: secret })).status).toBe(200);

    // The owner reclaims the account through the mailbox, signs in and funds it.
    expect(
      (await server.request('POST', '/api/auth/forgot-password', { body: { email: squatter.email } })).status,
    ).toBe(202);
    const resetMail = await mailFor(sink, squatter.email);
    expect(resetMail.parsed.text).toContain(
      'Setting a new password signs you out on every device and revokes every API key of the account',
    );
    const { token: link } = linkIn(resetMail, '/reset-password');
    const reset = await server.request('POST', '/api/auth/reset-password', {
      body: { token: link, password: NEW_PASSWORD },
    });
    expect(reset.status).toBe(200);
    const owner = await login(squatter.email, NEW_PASSWORD);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: squatter.email, amountCents: 20_00, reason: 'test credit' },
    );
    const bought = await server.request<{ plan: { subUserId: string } }>('POST', '/api/subuser/create', {
      token: owner,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
    });
    expect(bought.status).toBe(201);
    const planId = bought.body.plan.subUserId;
    const balance = async () =>
      (await server.request<{ user: { balance: number } }>('GET', '/api/auth/me', { token: owner })).body.user
        .balance;
    const funded = await balance();

    // The squatter's key: refused on every route at once, whatever its scopes.
    const refused = { error: apiKeyMessages.invalidKey, code: 'UNAUTHENTICATED' };
    const attempts = [
      await server.request('GET', '/api/v1/plans', { token: secret }),
      await server.request('GET', `/api/v1/plans/${planId}/proxy-list`, { token: secret }),
      await server.request('POST', '/api/v1/purchases', {
        token: secret,
        body: { pool_type: 'datacenter', gb: 1 },
      }),
      await server.request('POST', `/api/v1/plans/${planId}/proxy-users`, {
        token: secret,
        body: { login: 'squatter', label: 'mine' },
      }),
      await server.request('POST', '/api/v1/topups', {
        token: secret,
        body: { provider: 'cryptomus', amount_usd: '25.50' },
      }),
    ];
    for (const attempt of attempts) {
      expect({ status: attempt.status, body: attempt.body }).toEqual({ status: 401, body: refused });
    }
    // Its sessions too; the owner's balance and plan are untouched.
    expect(await isSignedIn(squatter.token)).toBe(false);
    expect(await isSignedIn(squatterSession)).toBe(false);
    expect(await balance()).toBe(funded);
    const keys = await server.request<{ keys: unknown[] }>('GET', '/api/user-settings/api-keys', {
      token: owner,
    });
    expect(keys.body.keys).toEqual([]);
    // The owner reads what happened.
    expect((await activity(owner)).find((entry) => entry.kind === 'password_reset')).toMatchObject({
      title: 'Password reset',
      detail: 'With a link mailed to you; every session was signed out · 1 API key revoked',
    });
  });

  it('ends every API key and every other session when a change of email goes through; the session following the link stays', async () => {
    const user = await createUserViaApi(server);
    const secret = await mintKey(user);
    const elsewhere = await login(user.email, user.password);
    const newEmail = `moved.${Date.now()}@example.com`;
    const asked = await server.request('PUT', '/api/user-settings/profile', {
      token: user.token,
      body: { firstName: 'Ada', lastName: 'Lovelace', email: newEmail, currentPassword: user.password },
    });
    expect(asked.status).toBe(200);
    const confirmation = await mailFor(sink, newEmail);
    expect(confirmation.parsed.text).toContain(
      'Confirming signs you out on every other device and revokes every API key of the account',
    );
    // Nothing is revoked before the link is followed.
    expect((await server.request('GET', '/api/v1/plans', { token: secret })).status).toBe(200);
    const { token: link } = linkIn(confirmation, '/verify-email');
    const followed = await server.request('POST', '/api/auth/verify-email', {
      token: user.token,
      body: { token: link },
    });
    expect(followed.body).toEqual({ email: newEmail, isEmailChanged: true });
    expect(await isSignedIn(user.token)).toBe(true);
    expect(await isSignedIn(elsewhere)).toBe(false);
    expect((await server.request('GET', '/api/v1/plans', { token: secret })).status).toBe(401);
    expect((await activity(user.token)).find((entry) => entry.kind === 'email_changed')).toMatchObject({
      title: 'Email address changed',
      detail: `Now ${newEmail} · was ${user.email} · Your other sessions were signed out · 1 API key revoked`,
    });
  });

  it('keeps no session when the link of a change of email is followed signed out, or signed in to another account', async () => {
    const user = await createUserViaApi(server);
    const stranger = await createUserViaApi(server);
    const newEmail = `moved.out.${Date.now()}@example.com`;
    await server.request('PUT', '/api/user-settings/profile', {
      token: user.token,
      body: { firstName: 'Ada', lastName: 'Lovelace', email: newEmail, currentPassword: user.password },
    });
    const { token: link } = linkIn(await mailFor(sink, newEmail), '/verify-email');
    const followed = await server.request('POST', '/api/auth/verify-email', {
      token: stranger.token,
      body: { token: link },
    });
    expect(followed.status).toBe(200);
    expect(await isSignedIn(user.token)).toBe(false);
    expect(await isSignedIn(stranger.token)).toBe(true);
  });
});

describe.each(testDatabaseKinds())(
  'minting an API key while email verification is required on %s',
  (kind) => {
    let server: TestServer;
    let sink: SmtpSink;
    beforeAll(async () => {
      sink = await startSmtpSink();
      server = await startTestServer(kind, { mail: mailTo(sink), emailVerification: 'required' });
    });
    afterAll(async () => {
      await server?.close();
      await sink?.close();
    });

    it('refuses an account whose email is not verified yet, and mints once the mailed link is followed', async () => {
      const user = await createUserViaApi(server);
      const mint = () =>
        server.request('POST', '/api/user-settings/api-keys', {
          token: user.token,
          body: { name: 'automation', scopes: ['read'], password: user.password },
        });
      const refused = await mint();
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: 403,
        body: { error: apiKeyMessages.emailNotVerified, code: 'EMAIL_NOT_VERIFIED' },
      });
      const { token } = linkIn(await mailFor(sink, user.email), '/verify-email');
      expect((await server.request('POST', '/api/auth/verify-email', { body: { token } })).status).toBe(200);
      expect((await mint()).status).toBe(201);
    });
  },
);
