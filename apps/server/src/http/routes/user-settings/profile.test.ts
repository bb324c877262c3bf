import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../../../mail/testing/smtp-sink.ts';
import { linkIn, mailFor, mailsFor, mailTo } from '../../../testing/mail.ts';
import {
  buildSignup,
  createUserViaApi,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';
import { awaitFreshStep, codeAt, enableTwoFactorViaApi } from '../../../testing/two-factor.ts';

// User Settings → Profile over real HTTP: names saved at once, a new email only once the link mailed to
// it is followed (the old address told), with the mail caught by a real SMTP server.

interface Profile {
  user: {
    firstName: string;
    lastName: string;
    email: string;
    company: string | null;
    emailVerified: boolean;
  };
  pendingEmail: string | null;
}

const INVALID_LINK = {
  error: 'This verification link is invalid, has expired or was already used. Please ask for a new one.',
  code: 'INVALID_LINK',
};

describe.each(testDatabaseKinds())('profile API on %s', (kind) => {
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

  let counter = 0;
  const newAddress = () => {
    counter += 1;
    return `moved.${Date.now()}.${counter}@example.org`;
  };
  const save = (token: string, body: Record<string, unknown>) =>
    server.request<Profile>('PUT', '/api/user-settings/profile', { token, body });
  const profile = (token: string) => server.request<Profile>('GET', '/api/user-settings/profile', { token });
  const verify = (token: string) => server.request('POST', '/api/auth/verify-email', { body: { token } });
  const base = (email: string) => ({ firstName: 'Ada', lastName: 'Lovelace', email });
  /** A new account whose sign-up link has arrived, so that the next mail to it is its second. */
  const signUp = async () => {
    const user = await createUserViaApi(server);
    await mailFor(sink, user.email, 1);
    return user;
  };

  describe('GET /api/user-settings/profile', () => {
    it('answers 401 without a session', async () => {
      expect((await server.request('GET', '/api/user-settings/profile')).status).toBe(401);
    });

    it('answers the user and no pending change', async () => {
      const { token, email } = await createUserViaApi(server, { company: 'Analytical Engines' });
      const { status, body } = await profile(token);
      expect(status).toBe(200);
      expect(body).toEqual({
        user: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          email,
          company: 'Analytical Engines',
          balance: 0,
          emailVerified: false,
        },
        pendingEmail: null,
      });
    });
  });

  describe('PUT /api/user-settings/profile', () => {
    it('answers 401 without a session', async () => {
      expect((await save('', base('a@example.com'))).status).toBe(401);
    });

    it('refuses a missing name with the field named', async () => {
      const { token, email } = await createUserViaApi(server);
      const { status, body } = await save(token, { ...base(email), firstName: '  ' });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'First name is required', code: 'VALIDATION_FAILED' });
    });

    it('saves names and company at once, everywhere the user is read', async () => {
      const { token, email } = await createUserViaApi(server, { company: 'Old Co' });
      const saved = await save(token, {
        firstName: ' Grace ',
        lastName: 'Hopper',
        email: email.toUpperCase(),
        company: 'Navy',
      });
      expect(saved.status).toBe(200);
      expect(saved.body).toEqual({
        user: expect.objectContaining({ firstName: 'Grace', lastName: 'Hopper', email, company: 'Navy' }),
        pendingEmail: null,
      });
      const me = await server.request<{ user: Profile['user'] }>('GET', '/api/auth/me', { token });
      expect(me.body.user).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', company: 'Navy' });
      // An empty company clears it; no password is needed while the email stays.
      const cleared = await save(token, { firstName: 'Grace', lastName: 'Hopper', email, company: '' });
      expect(cleared.body.user.company).toBeNull();
      await server.app.backgroundTasks.idle();
      // Only the sign-up's verification link was mailed.
      expect(mailsFor(sink, email)).toHaveLength(1);
    });

    it('takes the current password to change the email, and refuses an address another account holds', async () => {
      const { token, email } = await createUserViaApi(server);
      const target = newAddress();
      const withoutPassword = await save(token, base(target));
      expect(withoutPassword.status).toBe(400);
      expect(withoutPassword.body).toEqual({
        error: 'Please enter your current password to change your email.',
        code: 'VALIDATION_FAILED',
        field: 'currentPassword',
      });
      const wrong = await save(token, { ...base(target), currentPassword: 'not my password' });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toEqual({ error: 'Current password is incorrect', code: 'WRONG_PASSWORD' });
      const other = await createUserViaApi(server);
      const taken = await save(token, { ...base(other.email), currentPassword: 'correct horse battery' });
      expect(taken.status).toBe(409);
      expect(taken.body).toEqual({ error: 'An account with this email already exists', code: 'EMAIL_TAKEN' });
      expect((await profile(token)).body).toMatchObject({ user: { email }, pendingEmail: null });
      expect(mailsFor(sink, target)).toEqual([]);
    });

    it('asks for a two-factor code too while it is on, and changes nothing without a right one', async () => {
      const user = await signUp();
      const { secret } = await enableTwoFactorViaApi(server, user);
      const target = newAddress();
      const withPassword = { ...base(target), currentPassword: user.password };
      const missing = await save(user.token, withPassword);
      expect(missing.status).toBe(403);
      expect(missing.body).toMatchObject({ code: 'TWO_FACTOR_REQUIRED' });
      const wrong = await save(user.token, { ...withPassword, code: '000000' });
      expect(wrong.status).toBe(403);
      expect(wrong.body).toMatchObject({ code: 'INVALID_TWO_FACTOR_CODE' });
      expect((await profile(user.token)).body.pendingEmail).toBeNull();
      expect(mailsFor(sink, target)).toEqual([]);
      await awaitFreshStep();
      const saved = await save(user.token, { ...withPassword, code: codeAt(secret) });
      expect(saved.status).toBe(200);
      expect(saved.body.pendingEmail).toBe(target);
      // Names alone need neither the password nor a code.
      const renamed = await save(user.token, { ...base(user.email), firstName: 'Augusta' });
      expect(renamed.status).toBe(200);
    });

    it('mails a link to the new address and tells the old one; the email changes when the link is followed', async () => {
      const { token, email, password } = await signUp();
      const target = newAddress();
      const asked = await save(token, { ...base(target), currentPassword: password });
      expect(asked.status).toBe(200);
      expect(asked.body).toEqual({ user: expect.objectContaining({ email }), pendingEmail: target });
      expect((await profile(token)).body.pendingEmail).toBe(target);

      const confirmation = await mailFor(sink, target);
      expect(confirmation.parsed.subject).toBe('Confirm your new email for Bytegate');
      expect(confirmation.parsed.text).toContain(`You asked to use ${target} for your Bytegate account.`);
      const link = linkIn(confirmation, '/verify-email');
      const notice = await mailFor(sink, email, 2);
      expect(notice.parsed.subject).toBe('Your Bytegate email is about to change');
      expect(notice.parsed.text).toContain(`asked to change its email to ${target}`);
      expect(notice.parsed.text).not.toContain(link.token);

      // Followed with the session that asked: the one session a change of email keeps.
      const followed = await server.request('POST', '/api/auth/verify-email', {
        token,
        body: { token: link.token },
      });
      expect(followed.status).toBe(200);
      expect(followed.body).toEqual({ email: target, isEmailChanged: true });
      expect((await profile(token)).body).toMatchObject({
        user: { email: target, emailVerified: true },
        pendingEmail: null,
      });
      const login = (address: string) =>
        server.request('POST', '/api/auth/login', { body: { email: address, password } });
      expect((await login(target)).status).toBe(200);
      expect((await login(email)).status).toBe(401);
      // The sign-up's link to the old address can never switch it back, nor prove anything now.
      const old = linkIn(await mailFor(sink, email, 1), '/verify-email');
      expect((await verify(old.token)).body).toEqual(INVALID_LINK);
      expect((await verify(link.token)).body).toEqual(INVALID_LINK);
    });

    it('refuses the switch when another account took the address meanwhile', async () => {
      const { token, email, password } = await createUserViaApi(server);
      const target = newAddress();
      await save(token, { ...base(target), currentPassword: password });
      const link = linkIn(await mailFor(sink, target), '/verify-email');
      expect(
        (await server.request('POST', '/api/auth/signup', { body: buildSignup({ email: target }) })).status,
      ).toBe(201);
      const followed = await verify(link.token);
      expect(followed.status).toBe(409);
      expect(followed.body).toEqual({
        error: 'An account with this email already exists',
        code: 'EMAIL_TAKEN',
      });
      expect((await profile(token)).body.user.email).toBe(email);
    });

    it('keeps one pending change: a newer one ends the earlier link, and cancelling ends the last', async () => {
      const { token, email, password } = await signUp();
      const first = newAddress();
      const second = newAddress();
      await save(token, { ...base(first), currentPassword: password });
      await save(token, { ...base(second), currentPassword: password });
      expect((await profile(token)).body.pendingEmail).toBe(second);
      const firstLink = linkIn(await mailFor(sink, first), '/verify-email');
      expect((await verify(firstLink.token)).body).toEqual(INVALID_LINK);

      const cancelled = await server.request<Profile>('DELETE', '/api/user-settings/email-change', { token });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.pendingEmail).toBeNull();
      const secondLink = linkIn(await mailFor(sink, second), '/verify-email');
      expect((await verify(secondLink.token)).body).toEqual(INVALID_LINK);
      expect((await profile(token)).body.user.email).toBe(email);
      // The account's own verification link is not a change, and still works.
      const own = linkIn(await mailFor(sink, email, 1), '/verify-email');
      expect((await verify(own.token)).body).toEqual({ email, isEmailChanged: false });
    });

    it('ends reset links sent to the old address once the email changed', async () => {
      const { token, email, password } = await signUp();
      await server.request('POST', '/api/auth/forgot-password', { body: { email } });
      const reset = linkIn(await mailFor(sink, email, 2), '/reset-password');
      const target = newAddress();
      await save(token, { ...base(target), currentPassword: password });
      await verify(linkIn(await mailFor(sink, target), '/verify-email').token);
      const used = await server.request('POST', '/api/auth/reset-password', {
        body: { token: reset.token, password: 'a brand new password' },
      });
      expect(used.status).toBe(400);
      expect(used.body).toMatchObject({ code: 'INVALID_LINK' });
    });
  });

  describe('DELETE /api/user-settings/email-change', () => {
    it('answers 401 without a session', async () => {
      expect((await server.request('DELETE', '/api/user-settings/email-change')).status).toBe(401);
    });
  });
});

describe.each(testDatabaseKinds())('profile API when the mail server fails, on %s', (kind) => {
  let server: TestServer;
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink({ refuseRecipient: 'refused@example.org' });
    server = await startTestServer(kind, { mail: mailTo(sink) });
  });
  afterAll(async () => {
    await server?.close();
    await sink?.close();
  });

  it('keeps the names, drops the change and says the link could not be sent', async () => {
    const { token, password } = await createUserViaApi(server);
    const failed = await server.request('PUT', '/api/user-settings/profile', {
      token,
      body: {
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'refused@example.org',
        currentPassword: password,
      },
    });
    expect(failed.status).toBe(503);
    expect(failed.body).toEqual({
      error:
        'We could not send the email to refused@example.org right now. Please try again in a few minutes.',
      code: 'UPSTREAM_UNAVAILABLE',
    });
    const { body } = await server.request<Profile>('GET', '/api/user-settings/profile', { token });
    expect(body.user.firstName).toBe('Grace');
    expect(body.pendingEmail).toBeNull();
  });
});
