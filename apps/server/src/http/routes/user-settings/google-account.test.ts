import { googleMessages } from '@bytegate/contracts/google';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishAtProvider, signInWithGoogle, TestBrowser } from '../../../testing/google.ts';
import { startOidcProvider, type TestOidcProvider } from '../../../testing/oidc-provider.ts';
import { buildSignup, queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';
import { awaitFreshStep, codeAt } from '../../../testing/two-factor.ts';

// User Settings and Google: "Connect Google" links a Google account to a signed-in account (through
// the real flow at a local OpenID provider), "Disconnect" unlinks it while the account keeps a
// password, and an account created with Google sets its first password (then signs in with it too).

const plenty = { max: 1000, windowMs: 60_000 };
let emails = 0;
const newEmail = (name: string) => {
  emails += 1;
  return `${name}.${Date.now()}.${emails}@example.com`;
};

describe.each(testDatabaseKinds())('Google in user settings on %s', (kind) => {
  let server: TestServer;
  let provider: TestOidcProvider;
  beforeAll(async () => {
    provider = await startOidcProvider();
    server = await startTestServer(kind, {
      google: {
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        issuerUrl: provider.issuer,
      },
      rateLimits: {
        login: plenty,
        signup: plenty,
        passwordChecksPerUser: plenty,
        passwordChecksPerAddress: plenty,
        twoFactorFailuresPerUser: plenty,
      },
    });
    provider.allowRedirectUri(`${server.url}/api/auth/google/callback`);
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  /** A browser signed up with a password (cookie session), as the web app does. */
  async function passwordAccount() {
    const browser = new TestBrowser(server);
    const signup = buildSignup();
    const answer = await browser.request<{ csrfToken: string }>('POST', '/api/auth/signup', {
      body: { ...signup, session: 'cookie' },
    });
    expect(answer.status).toBe(201);
    browser.csrfToken = answer.body.csrfToken;
    return { browser, email: signup.email.toLowerCase(), password: signup.password };
  }

  /** A browser signed in with a new Google account (an account created with Google, no password). */
  async function googleAccount() {
    const email = newEmail('google');
    const account = provider.addAccount({ email, givenName: 'Goo', familyName: 'Gle' });
    const browser = new TestBrowser(server);
    expect((await signInWithGoogle(browser, provider, { email })).location).toBe(
      '/dashboard#signed-in=google',
    );
    await browser.me();
    return { browser, email, account };
  }

  const connect = (browser: TestBrowser) =>
    browser.request<{ authorizationUrl: string }>('POST', '/api/user-settings/google/connect');

  describe('POST /api/user-settings/google/connect', () => {
    it('needs a session, and its CSRF token on a cookie session', async () => {
      expect(
        (await new TestBrowser(server).request('POST', '/api/user-settings/google/connect')).status,
      ).toBe(401);
      const { browser } = await passwordAccount();
      const forged = await browser.request('POST', '/api/user-settings/google/connect', {
        headers: { 'x-csrf-token': 'forged' },
      });
      expect(forged).toMatchObject({ status: 403, body: { code: 'CSRF_FAILED' } });
    });

    it('links the Google account to a password account, which then signs in with Google', async () => {
      const { browser, email } = await passwordAccount();
      const googleEmail = newEmail('personal');
      const account = provider.addAccount({ email: googleEmail, givenName: 'Per', familyName: 'Sonal' });
      const started = await connect(browser);
      expect(started.status).toBe(200);
      expect(started.headers.get('cache-control')).toBe('no-store');
      const url = new URL(started.body.authorizationUrl);
      expect(url.origin).toBe(provider.issuer);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      const flows = await queryRows<{ purpose: string; linked_to: string }>(
        server,
        `select f.purpose, u.email as linked_to from oidc_flows f join users u on u.id = f.user_id
         where f.used_at is null`,
      );
      expect(flows).toEqual([{ purpose: 'link', linked_to: email }]);

      const done = await finishAtProvider(browser, provider, started.body.authorizationUrl, {
        email: googleEmail,
      });
      expect(done).toMatchObject({
        status: 303,
        location: '/dashboard?section=user-settings#google=connected',
      });
      const security = await browser.request('GET', '/api/user-settings/security');
      expect(security.body).toMatchObject({ google: { email: googleEmail }, hasPassword: true });
      const rows = await queryRows<{ google_subject: string }>(
        server,
        `select google_subject from users where email = '${email}'`,
      );
      expect(rows).toEqual([{ google_subject: account.subject }]);

      // Sign-in with that Google account opens this account (not a new one with the Google address).
      const elsewhere = new TestBrowser(server);
      expect((await signInWithGoogle(elsewhere, provider, { email: googleEmail })).location).toBe(
        '/dashboard#signed-in=google',
      );
      expect((await elsewhere.me()).body.user.email).toBe(email);
      const created = await queryRows(server, `select id from users where email = '${googleEmail}'`);
      expect(created).toEqual([]);
    });

    it('lets the account whose email exists connect Google after signing in with its password', async () => {
      const { browser, email } = await passwordAccount();
      provider.addAccount({ email, givenName: 'Same', familyName: 'Email' });
      expect((await signInWithGoogle(new TestBrowser(server), provider, { email })).location).toBe(
        '/login#google-error=account_exists',
      );
      const started = await connect(browser);
      const done = await finishAtProvider(browser, provider, started.body.authorizationUrl, { email });
      expect(done.location).toBe('/dashboard?section=user-settings#google=connected');
      expect((await signInWithGoogle(new TestBrowser(server), provider, { email })).location).toBe(
        '/dashboard#signed-in=google',
      );
    });

    it('refuses a Google account linked to another account, and a second Google account', async () => {
      const first = await googleAccount();
      const { browser } = await passwordAccount();
      const taken = await finishAtProvider(
        browser,
        provider,
        (await connect(browser)).body.authorizationUrl,
        {
          email: first.email,
        },
      );
      expect(taken.location).toBe('/dashboard?section=user-settings#google-error=linked_elsewhere');
      expect((await browser.request('GET', '/api/user-settings/security')).body).toMatchObject({
        google: null,
      });
      expect(googleMessages.errors.linked_elsewhere).toBe(
        'This Google account is already connected to another Bytegate account.',
      );

      const other = newEmail('other');
      provider.addAccount({ email: other });
      const second = await finishAtProvider(
        first.browser,
        provider,
        (await connect(first.browser)).body.authorizationUrl,
        { email: other },
      );
      expect(second.location).toBe('/dashboard?section=user-settings#google-error=other_google_linked');
    });

    it('takes the answer only in the browser that started it, once', async () => {
      const { browser } = await passwordAccount();
      const googleEmail = newEmail('stolen');
      provider.addAccount({ email: googleEmail });
      const started = await connect(browser);
      const back = await provider.authorize(started.body.authorizationUrl, { email: googleEmail });
      const attacker = new TestBrowser(server);
      expect((await attacker.request('GET', back.pathname + back.search)).location).toBe(
        '/login#google-error=expired',
      );
      expect((await browser.request('GET', back.pathname + back.search)).location).toBe(
        '/dashboard?section=user-settings#google=connected',
      );
    });

    it('comes back to User Settings when the person cancels at Google', async () => {
      const { browser } = await passwordAccount();
      const done = await finishAtProvider(browser, provider, (await connect(browser)).body.authorizationUrl, {
        deny: true,
      });
      expect(done.location).toBe('/dashboard?section=user-settings#google-error=denied');
    });
  });

  describe('DELETE /api/user-settings/google', () => {
    it('needs a session', async () => {
      expect((await new TestBrowser(server).request('DELETE', '/api/user-settings/google')).status).toBe(401);
    });

    it('is refused while the account has no password, and unlinks once it has one', async () => {
      const { browser, email } = await googleAccount();
      const refused = await browser.request('DELETE', '/api/user-settings/google');
      expect(refused).toMatchObject({
        status: 409,
        body: {
          code: 'CONFLICT',
          error: 'Set a password first: without one, Google is the only way to sign in to this account.',
        },
      });
      expect(
        (
          await browser.request('POST', '/api/user-settings/password', {
            body: { newPassword: 'a new password' },
          })
        ).status,
      ).toBe(200);
      const unlinked = await browser.request('DELETE', '/api/user-settings/google');
      expect(unlinked).toMatchObject({ status: 200, body: { google: null, hasPassword: true } });
      // Google now signs in nobody: the email has an account, no longer linked.
      expect((await signInWithGoogle(new TestBrowser(server), provider, { email })).location).toBe(
        '/login#google-error=account_exists',
      );
      expect(await browser.request('DELETE', '/api/user-settings/google')).toMatchObject({
        status: 409,
        body: { error: 'No Google account is connected.' },
      });
    });
  });

  describe('POST /api/user-settings/password (an account created with Google)', () => {
    it('needs a session', async () => {
      const answer = await new TestBrowser(server).request('POST', '/api/user-settings/password', {
        body: { newPassword: 'long enough password' },
      });
      expect(answer.status).toBe(401);
    });

    it('takes the sign-up rules: at least 8 characters', async () => {
      const { browser } = await googleAccount();
      const short = await browser.request('POST', '/api/user-settings/password', {
        body: { newPassword: 'short' },
      });
      expect(short).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_FAILED', error: 'New password must be at least 8 characters' },
      });
    });

    it('sets the first password, which then signs in; a second time is refused', async () => {
      const { browser, email } = await googleAccount();
      // Before: deleting the account and changing a password both say to set one first.
      const deletion = await browser.request('DELETE', '/api/user-settings/account', {
        body: { password: 'anything at all' },
      });
      expect(deletion).toMatchObject({
        status: 409,
        body: { code: 'CONFLICT', error: 'Set a password first: deleting the account asks for it.' },
      });
      const change = await browser.request('PUT', '/api/user-settings/password', {
        body: { currentPassword: 'anything', newPassword: 'a new password' },
      });
      expect(change).toMatchObject({ status: 409, body: { error: googleMessages.noPasswordToChange } });

      const set = await browser.request('POST', '/api/user-settings/password', {
        body: { newPassword: 'my first password' },
      });
      expect(set).toMatchObject({ status: 200, body: { success: true } });
      expect((await browser.me()).status).toBe(200);
      expect((await browser.request('GET', '/api/user-settings/security')).body).toMatchObject({
        hasPassword: true,
        google: { email },
      });
      const login = await server.request<{ token: string }>('POST', '/api/auth/login', {
        body: { email, password: 'my first password' },
      });
      expect(login.status).toBe(200);
      expect(login.body.token).toEqual(expect.any(String));
      const again = await browser.request('POST', '/api/user-settings/password', {
        body: { newPassword: 'another password' },
      });
      expect(again).toMatchObject({
        status: 409,
        body: {
          code: 'CONFLICT',
          error: 'This account already has a password. Change it with your current password.',
        },
      });
    });

    it('asks for the two-factor code while it is on', async () => {
      const { browser } = await googleAccount();
      const setup = await browser.request<{ secret: string }>('POST', '/api/user-settings/two-factor/setup', {
        body: {},
      });
      await awaitFreshStep();
      await browser.request('POST', '/api/user-settings/two-factor/confirm', {
        body: { code: codeAt(setup.body.secret, -1) },
      });
      const without = await browser.request('POST', '/api/user-settings/password', {
        body: { newPassword: 'a long password' },
      });
      expect(without).toMatchObject({ status: 403, body: { code: 'TWO_FACTOR_REQUIRED' } });
      const wrong = await browser.request('POST', '/api/user-settings/password', {
        body: { newPassword: 'a long password', code: '000000' },
      });
      expect(wrong).toMatchObject({ status: 403, body: { code: 'INVALID_TWO_FACTOR_CODE' } });
      await awaitFreshStep();
      const right = await browser.request('POST', '/api/user-settings/password', {
        body: { newPassword: 'a long password', code: codeAt(setup.body.secret) },
      });
      expect(right.status).toBe(200);
    });

    it('lets a Google account deleted once its password is set start afresh', async () => {
      const { browser, email, account } = await googleAccount();
      await browser.request('POST', '/api/user-settings/password', {
        body: { newPassword: 'my first password' },
      });
      const deleted = await browser.request('DELETE', '/api/user-settings/account', {
        body: { password: 'my first password' },
      });
      expect(deleted.status).toBe(200);
      const erased = await queryRows(
        server,
        `select id from users where google_subject = '${account.subject}'`,
      );
      expect(erased).toEqual([]);
      const again = new TestBrowser(server);
      expect((await signInWithGoogle(again, provider, { email })).location).toBe(
        '/dashboard#signed-in=google',
      );
      expect((await again.request('GET', '/api/user-settings/security')).body).toMatchObject({
        hasPassword: false,
        google: { email },
      });
    });

    it('is refused for an account that has a password', async () => {
      const { browser } = await passwordAccount();
      const answer = await browser.request('POST', '/api/user-settings/password', {
        body: { newPassword: 'a long password' },
      });
      expect(answer).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    });
  });

  describe('what an account without a password is asked', () => {
    it('turns two-factor on without a password, and needs one for an API key or a new email', async () => {
      const { browser, email } = await googleAccount();
      const setup = await browser.request('POST', '/api/user-settings/two-factor/setup', { body: {} });
      expect(setup.status).toBe(200);
      const key = await browser.request('POST', '/api/user-settings/api-keys', {
        body: { name: 'k', scopes: ['read'], password: 'whatever it is' },
      });
      expect(key).toMatchObject({
        status: 409,
        body: { error: 'Set a password first: creating an API key asks for it.' },
      });
      // A change of email is confirmed with the password too; names change without one.
      const names = await browser.request('PUT', '/api/user-settings/profile', {
        body: { firstName: 'New', lastName: 'Name', email },
      });
      expect(names.status).toBe(200);
      const email2 = await browser.request('PUT', '/api/user-settings/profile', {
        body: { firstName: 'New', lastName: 'Name', email: newEmail('moved'), currentPassword: 'anything' },
      });
      expect(email2).toMatchObject({
        status: 409,
        body: { code: 'CONFLICT', error: 'Set a password first: changing your email asks for it.' },
      });
    });

    it('still asks an account with a password for it to turn two-factor on', async () => {
      const { browser } = await passwordAccount();
      const setup = await browser.request('POST', '/api/user-settings/two-factor/setup', { body: {} });
      expect(setup).toMatchObject({
        status: 400,
        body: { code: 'VALIDATION_FAILED', error: 'Password is required' },
      });
    });
  });
});
