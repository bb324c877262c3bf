import { googleMessages } from '@bytegate/contracts/google';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInWithGoogle, TestBrowser } from '../../../testing/google.ts';
import { startOidcProvider, type TestOidcProvider } from '../../../testing/oidc-provider.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';
import { awaitFreshStep, codeAt } from '../../../testing/two-factor.ts';

// Sign-in with Google over real HTTP: the real openid-client in the server talks to a real OpenID
// provider on 127.0.0.1 (oidc-provider: discovery, authorization, token and JWKS endpoints), which the
// tests sign in to through its own sign-in pages. A browser is played by TestBrowser (its cookies,
// redirects read and not followed).

const plenty = { max: 1000, windowMs: 60_000 };
let emails = 0;
const newEmail = (name: string) => {
  emails += 1;
  return `${name}.${Date.now()}.${emails}@example.com`;
};

describe.each(testDatabaseKinds())('sign-in with Google on %s', (kind) => {
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
      rateLimits: { login: plenty, passwordChecksPerUser: plenty, twoFactorFailuresPerUser: plenty },
    });
    provider.allowRedirectUri(`${server.url}/api/auth/google/callback`);
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  const userRow = async (email: string) =>
    (
      await queryRows<{
        id: string;
        password_hash: string;
        first_name: string;
        last_name: string;
        email_verified: boolean;
        google_subject: string | null;
        google_email: string | null;
      }>(
        server,
        `select id, password_hash, first_name, last_name, email_verified_at is not null as email_verified,
         google_subject, google_email from users where email = '${email}'`,
      )
    )[0];

  it('tells the web app that Google sign-in is on', async () => {
    const config = await server.request<{ googleSignIn: boolean }>('GET', '/api/config');
    expect(config.body.googleSignIn).toBe(true);
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce, and ties the flow to it', async () => {
    const browser = new TestBrowser(server);
    const start = await browser.request('GET', '/api/auth/google/start');
    expect(start.status).toBe(303);
    expect(start.headers.get('cache-control')).toBe('no-store');
    const url = new URL(start.location ?? '');
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: provider.clientId,
      redirect_uri: `${server.url}/api/auth/google/callback`,
      response_type: 'code',
      scope: 'openid email profile',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    });
    // The state is in this browser's httpOnly cookie, and stored only as its SHA-256, for 10 minutes.
    const state = url.searchParams.get('state') ?? '';
    expect(browser.cookies.get('bytegate_oidc')).toBe(state);
    expect(start.headers.getSetCookie().find((line) => line.startsWith('bytegate_oidc='))).toMatch(
      /Max-Age=600; Path=\/; HttpOnly; SameSite=Lax/,
    );
    const flows = await queryRows<{ state_hash: string; purpose: string; minutes: number; used: boolean }>(
      server,
      `select state_hash, purpose, round(extract(epoch from expires_at - created_at) / 60)::int as minutes,
       used_at is not null as used from oidc_flows order by created_at desc limit 1`,
    );
    expect(flows[0]).toEqual({
      state_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      purpose: 'sign_in',
      minutes: 10,
      used: false,
    });
    expect(flows[0]?.state_hash).not.toContain(state);
  });

  it('creates an account for a new Google account and signs the browser in, as a password sign-in does', async () => {
    const email = newEmail('grace');
    const account = provider.addAccount({ email, givenName: 'Grace', familyName: 'Hopper' });
    const browser = new TestBrowser(server);
    const done = await signInWithGoogle(browser, provider, { email });
    expect(done).toMatchObject({ status: 303, location: '/dashboard#signed-in=google' });
    // The session cookie and the device cookie, as at a browser's password sign-in; the flow's cookie gone.
    const cookies = done.headers.getSetCookie();
    expect(cookies.find((line) => line.startsWith('bytegate_session='))).toMatch(/HttpOnly; SameSite=Lax/);
    expect(cookies.find((line) => line.startsWith('bytegate_device='))).toMatch(/HttpOnly; SameSite=Lax/);
    expect(browser.cookies.has('bytegate_oidc')).toBe(false);
    const me = await browser.me();
    expect(me.status).toBe(200);
    // Google verified the address: no mailed link is waited for.
    expect(me.body.user).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
      email,
      company: null,
      balance: 0,
      emailVerified: true,
    });
    expect(me.body.csrfToken).toEqual(expect.any(String));
    // No password, the email verified by Google, Google linked.
    expect(await userRow(email)).toMatchObject({
      password_hash: '!',
      first_name: 'Grace',
      last_name: 'Hopper',
      email_verified: true,
      google_subject: account.subject,
      google_email: email,
    });
    const security = await browser.request('GET', '/api/user-settings/security');
    expect(security.body).toEqual({
      twoFactor: { enabled: false, enabledAt: null, recoveryCodesLeft: 0 },
      google: { email },
      hasPassword: false,
    });
    // The account has no password: the password sign-in refuses any, as it refuses a wrong one.
    const login = await server.request('POST', '/api/auth/login', { body: { email, password: '!' } });
    expect(login).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
  });

  it('signs a linked account in again by its Google account, whatever its email became', async () => {
    const email = newEmail('linked');
    const account = provider.addAccount({ email, givenName: 'Linked', familyName: 'Again' });
    expect((await signInWithGoogle(new TestBrowser(server), provider, { email })).location).toBe(
      '/dashboard#signed-in=google',
    );
    // The Google account's address changes: still the same account, found by `sub`.
    const changed = newEmail('changed');
    provider.addAccount({ ...account, email: changed });
    const browser = new TestBrowser(server);
    const again = await signInWithGoogle(browser, provider, { email: changed });
    expect(again.location).toBe('/dashboard#signed-in=google');
    expect((await browser.me()).body.user.email).toBe(email);
    expect(await userRow(email)).toMatchObject({ google_subject: account.subject, google_email: changed });
    const count = await queryRows<{ n: number }>(
      server,
      `select count(*)::int as n from users where google_subject = '${account.subject}'`,
    );
    expect(count[0]?.n).toBe(1);
  });

  it('takes names from `name` without given and family names, else from the email', async () => {
    for (const [name, first, last] of [
      ['Ada King Lovelace', 'Ada', 'King Lovelace'],
      ['Cher', 'Cher', ''],
      [undefined, null, ''],
    ] as const) {
      const email = newEmail('names');
      provider.addAccount({ email, ...(name ? { name } : {}) });
      await signInWithGoogle(new TestBrowser(server), provider, { email });
      const row = await userRow(email);
      expect({ first: row?.first_name, last: row?.last_name }).toEqual({
        first: first ?? email.split('@')[0],
        last,
      });
    }
  });

  it('never links an account that has the email but not the Google account: it tells the person what to do', async () => {
    const user = await createUserViaApi(server);
    provider.addAccount({ email: user.email, givenName: 'Someone', familyName: 'Else' });
    const browser = new TestBrowser(server);
    const done = await signInWithGoogle(browser, provider, { email: user.email });
    expect(done.location).toBe('/login#google-error=account_exists');
    expect(browser.hasSession()).toBe(false);
    expect(await userRow(user.email)).toMatchObject({ google_subject: null, google_email: null });
    expect(googleMessages.errors.account_exists).toBe(
      'An account with this email already exists. Sign in with your password, then connect Google in User Settings → Security.',
    );
  });

  it('refuses a Google account whose email is not verified', async () => {
    const email = newEmail('unverified');
    provider.addAccount({ email, isEmailVerified: false, givenName: 'Un', familyName: 'Verified' });
    const browser = new TestBrowser(server);
    const done = await signInWithGoogle(browser, provider, { email });
    expect(done.location).toBe('/login#google-error=email_not_verified');
    expect(browser.hasSession()).toBe(false);
    expect(await userRow(email)).toBeUndefined();
  });

  it('comes back to the login page when the person cancels at Google', async () => {
    const browser = new TestBrowser(server);
    const done = await signInWithGoogle(browser, provider, { deny: true });
    expect(done.location).toBe('/login#google-error=denied');
    expect(browser.hasSession()).toBe(false);
  });

  it('takes each answer once: a replayed callback is refused, and so is an expired flow', async () => {
    const email = newEmail('replay');
    provider.addAccount({ email, givenName: 'Re', familyName: 'Play' });
    const browser = new TestBrowser(server);
    const first = await signInWithGoogle(browser, provider, { email });
    expect(first.location).toBe('/dashboard#signed-in=google');
    // The same answer again, even with the flow's cookie put back.
    const replayer = new TestBrowser(server);
    replayer.cookies.set(
      'bytegate_oidc',
      new URL(first.callback, server.url).searchParams.get('state') ?? '',
    );
    const replay = await replayer.request('GET', first.callback);
    expect(replay.location).toBe('/login#google-error=expired');
    expect(replayer.hasSession()).toBe(false);

    // A flow older than 10 minutes.
    const late = new TestBrowser(server);
    const start = await late.request('GET', '/api/auth/google/start');
    await queryRows(
      server,
      `update oidc_flows set expires_at = now() - interval '1 second' where used_at is null`,
    );
    const back = await provider.authorize(start.location ?? '', { email });
    const expired = await late.request('GET', back.pathname + back.search);
    expect(expired.location).toBe('/login#google-error=expired');
    expect(late.hasSession()).toBe(false);
  });

  it('refuses a tampered state, and an answer brought to another browser (login CSRF)', async () => {
    const email = newEmail('tamper');
    provider.addAccount({ email, givenName: 'Tam', familyName: 'Per' });
    const browser = new TestBrowser(server);
    const start = await browser.request('GET', '/api/auth/google/start');
    const back = await provider.authorize(start.location ?? '', { email });
    // Another browser (a victim sent the attacker's link) has no flow cookie: refused, nothing used up.
    const victim = new TestBrowser(server);
    expect((await victim.request('GET', back.pathname + back.search)).location).toBe(
      '/login#google-error=expired',
    );
    expect(victim.hasSession()).toBe(false);
    // A state changed on the way (the cookie matches, but no flow was stored under it).
    const tampered = new URL(back);
    tampered.searchParams.set('state', 'x'.repeat(43));
    const forger = new TestBrowser(server);
    forger.cookies.set('bytegate_oidc', 'x'.repeat(43));
    expect((await forger.request('GET', tampered.pathname + tampered.search)).location).toBe(
      '/login#google-error=expired',
    );
    // The rightful browser still finishes.
    expect((await browser.request('GET', back.pathname + back.search)).location).toBe(
      '/dashboard#signed-in=google',
    );
  });

  it('refuses an ID token whose nonce is not the flow’s', async () => {
    const email = newEmail('nonce');
    provider.addAccount({ email, givenName: 'No', familyName: 'Nce' });
    const browser = new TestBrowser(server);
    const start = await browser.request('GET', '/api/auth/google/start');
    const state = new URL(start.location ?? '').searchParams.get('state') ?? '';
    // The provider signs the nonce it was sent; the flow now expects another one.
    await queryRows(server, `update oidc_flows set nonce = 'another-nonce' where used_at is null`);
    const back = await provider.authorize(start.location ?? '', { email });
    expect(back.searchParams.get('state')).toBe(state);
    const done = await browser.request('GET', back.pathname + back.search);
    expect(done.location).toBe('/login#google-error=failed');
    expect(browser.hasSession()).toBe(false);
    expect(await userRow(email)).toBeUndefined();
  });

  it('refuses a code with the wrong PKCE verifier', async () => {
    const email = newEmail('pkce');
    provider.addAccount({ email, givenName: 'Pk', familyName: 'Ce' });
    const browser = new TestBrowser(server);
    const start = await browser.request('GET', '/api/auth/google/start');
    await queryRows(
      server,
      `update oidc_flows set code_verifier = '${'v'.repeat(43)}' where used_at is null`,
    );
    const back = await provider.authorize(start.location ?? '', { email });
    expect((await browser.request('GET', back.pathname + back.search)).location).toBe(
      '/login#google-error=failed',
    );
    expect(browser.hasSession()).toBe(false);
  });

  it('says Google could not be reached when the provider goes down mid-way, never a 500 or JSON', async () => {
    const email = newEmail('down');
    provider.addAccount({ email, givenName: 'Do', familyName: 'Wn' });
    const browser = new TestBrowser(server);
    const start = await browser.request('GET', '/api/auth/google/start');
    const back = await provider.authorize(start.location ?? '', { email });
    provider.pause();
    try {
      const done = await browser.request('GET', back.pathname + back.search);
      expect(done).toMatchObject({ status: 303, location: '/login#google-error=unavailable' });
    } finally {
      provider.resume();
    }
  });

  it('answers a callback without a state, or with Google’s error, with a redirect', async () => {
    const browser = new TestBrowser(server);
    for (const [query, reason] of [
      ['', 'expired'],
      ['?code=abc', 'expired'],
      ['?error=access_denied&state=unknown', 'denied'],
      ['?error=server_error', 'expired'],
    ] as const) {
      const answer = await browser.request('GET', `/api/auth/google/callback${query}`);
      expect({ query, status: answer.status, location: answer.location }).toEqual({
        query,
        status: 303,
        location: `/login#google-error=${reason}`,
      });
    }
    // A control character is malformed input like anywhere else: a 400 that says which field.
    const nul = await browser.request('GET', '/api/auth/google/callback?state=a%00b');
    expect(nul).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED', error: 'State must not contain control characters (such as NUL)' },
    });
  });

  it('asks for the two-factor code when it is on, and the code finishes the sign-in', async () => {
    const email = newEmail('twofactor');
    provider.addAccount({ email, givenName: 'Two', familyName: 'Factor' });
    const browser = new TestBrowser(server);
    await signInWithGoogle(browser, provider, { email });
    await browser.me();
    // An account created with Google turns two-factor on without a password (it has none).
    const setup = await browser.request<{ secret: string }>('POST', '/api/user-settings/two-factor/setup', {
      body: {},
    });
    expect(setup.status).toBe(200);
    await awaitFreshStep();
    const confirmed = await browser.request('POST', '/api/user-settings/two-factor/confirm', {
      body: { code: codeAt(setup.body.secret, -1) },
    });
    expect(confirmed.status).toBe(200);

    const later = new TestBrowser(server);
    const done = await signInWithGoogle(later, provider, { email });
    // The challenge rides in the fragment (never sent to a server), and no session is opened yet.
    expect(done.location).toMatch(/^\/login#two-factor=[A-Za-z0-9_-]{43}$/);
    expect(later.hasSession()).toBe(false);
    const stored = await queryRows<{ method: string; is_browser: boolean }>(
      server,
      `select c.method, c.is_browser from sign_in_challenges c join users u on u.id = c.user_id
       where u.email = '${email}'`,
    );
    expect(stored).toEqual([{ method: 'google', is_browser: true }]);
    const challengeToken = done.location?.split('=')[1] ?? '';
    await awaitFreshStep();
    const finished = await later.request<{ csrfToken?: string; user?: { email: string } }>(
      'POST',
      '/api/auth/login/two-factor',
      { body: { challengeToken, code: codeAt(setup.body.secret), session: 'cookie' } },
    );
    expect(finished.status).toBe(200);
    expect(finished.body.user?.email).toBe(email);
    expect(finished.body.csrfToken).toEqual(expect.any(String));
    expect(later.hasSession()).toBe(true);
    expect((await later.me()).status).toBe(200);

    // Without a password, turning two-factor off takes the code alone.
    await awaitFreshStep();
    const off = await later.request('POST', '/api/user-settings/two-factor/disable', {
      body: { code: codeAt(setup.body.secret, 1) },
    });
    expect(off).toMatchObject({ status: 200, body: { enabled: false } });
  });

  it('refuses a disabled account as the password sign-in does', async () => {
    const email = newEmail('disabled');
    provider.addAccount({ email, givenName: 'Dis', familyName: 'Abled' });
    await signInWithGoogle(new TestBrowser(server), provider, { email });
    await queryRows(server, `update users set disabled_at = now() where email = '${email}'`);
    const browser = new TestBrowser(server);
    expect((await signInWithGoogle(browser, provider, { email })).location).toBe(
      '/login#google-error=disabled',
    );
    expect(browser.hasSession()).toBe(false);
    expect(googleMessages.errors.disabled).toBe('This account has been disabled. Please contact support.');
  });
});

describe('sign-in with Google while it is off or Google is away', () => {
  it('hides the button (config) and sends the browser back saying so', async () => {
    const server = await startTestServer('pglite');
    try {
      expect((await server.request<{ googleSignIn: boolean }>('GET', '/api/config')).body.googleSignIn).toBe(
        false,
      );
      const browser = new TestBrowser(server);
      for (const path of ['/api/auth/google/start', '/api/auth/google/callback?code=a&state=b']) {
        expect(await browser.request('GET', path)).toMatchObject({
          status: 303,
          location: '/login#google-error=not_configured',
        });
      }
    } finally {
      await server.close();
    }
  });

  it('says Google could not be reached when its discovery document cannot be read', async () => {
    const provider = await startOidcProvider();
    const issuerUrl = provider.issuer;
    await provider.close();
    const server = await startTestServer('pglite', {
      google: { clientId: 'id', clientSecret: 'secret', issuerUrl },
    });
    try {
      const start = await new TestBrowser(server).request('GET', '/api/auth/google/start');
      expect(start).toMatchObject({ status: 303, location: '/login#google-error=unavailable' });
      const flows = await queryRows<{ n: number }>(server, 'select count(*)::int as n from oidc_flows');
      expect(flows[0]?.n).toBe(0);
    } finally {
      await server.close();
    }
  });
});
