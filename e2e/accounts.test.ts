import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServerAndBrowser } from './support/fixture.ts';
import { logInThroughForm, newAccount, signUpThroughForm } from './support/journeys.ts';
import { type RunningServer, SERVER_TEST_TIMEOUT_MS, startServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, browser, stop } = await startServerAndBrowser());
});
afterAll(() => stop?.());
beforeEach(async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
});
afterEach(async () => {
  await context.close();
});

/** What scripts can see of the session: the stored user, and every localStorage key. */
const storedUser = () => page.evaluate(() => localStorage.getItem('bytegate.user'));
const storedKeys = () => page.evaluate(() => Object.keys(localStorage).sort());
/** The session cookie as the browser holds it (scripts cannot read it: it is httpOnly). */
const sessionCookie = async (from: BrowserContext = context) =>
  (await from.cookies()).find((cookie) => cookie.name === 'bytegate_session');

/** Whether the server still honours a session cookie value. */
async function isLive(cookie: string): Promise<boolean> {
  const me = await fetch(`${server.url}/api/auth/me`, { headers: { cookie: `bytegate_session=${cookie}` } });
  return me.status === 200;
}

describe('accounts in the browser', () => {
  it('signs up, lands on the dashboard, logs out and logs back in', async () => {
    const account = newAccount();
    await signUpThroughForm(page, server.url, account);
    await expect.poll(() => page.getByText(`Welcome back, ${account.firstName}`).count()).toBeGreaterThan(0);
    expect(await page.getByText('Account created successfully').count()).toBe(1);
    // The session is an httpOnly, SameSite=Lax cookie; no token is anywhere a script could read it.
    const cookie = await sessionCookie();
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('bytegate_session');
    expect(await storedKeys()).toEqual(['bytegate.lastActivity', 'bytegate.user']);
    expect(JSON.stringify(await page.evaluate(() => ({ ...localStorage, ...sessionStorage })))).not.toContain(
      cookie?.value,
    );

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${server.url}/login`);
    expect(await storedUser()).toBeNull();
    expect(await sessionCookie()).toBeUndefined();
    expect(await isLive(cookie?.value ?? '')).toBe(false);

    await logInThroughForm(page, server.url, account.email, account.password);
    await page.waitForURL(`${server.url}/dashboard`);
    await expect.poll(() => page.getByText('Login successful').count()).toBe(1);
  });

  it("shows the server's message for a wrong password and stays on the login page", async () => {
    const account = newAccount();
    await signUpThroughForm(page, server.url, account);
    // Signed out the way a new browser is: no session cookie and nothing stored.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await logInThroughForm(page, server.url, account.email, 'not the password');
    await expect.poll(() => page.getByText('Invalid email or password').count()).toBeGreaterThan(0);
    expect(page.url()).toBe(`${server.url}/login`);
  });

  it("says 'Passwords do not match' and sends nothing when the passwords differ", async () => {
    const requests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/auth/signup')) {
        requests.push(request.url());
      }
    });
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('First Name', { exact: true }).fill('Ann');
    await page.getByLabel('Last Name', { exact: true }).fill('Other');
    await page.getByLabel('Email', { exact: true }).fill('ann.other@example.com');
    await page.getByLabel('Password', { exact: true }).fill('first password');
    await page.getByLabel('Confirm Password', { exact: true }).fill('second password');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect.poll(() => page.getByText('Passwords do not match').count()).toBeGreaterThan(0);
    expect(requests).toEqual([]);
    expect(page.url()).toBe(`${server.url}/signup`);
  });

  it('redirects a signed-in visitor away from /login and /signup, and a signed-out one away from /dashboard', async () => {
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(`${server.url}/login`);
    await signUpThroughForm(page, server.url, newAccount());
    await page.goto(`${server.url}/login`);
    await page.waitForURL(`${server.url}/dashboard`);
    await page.goto(`${server.url}/signup`);
    await page.waitForURL(`${server.url}/dashboard`);
  });

  it('ends a session whose last activity is older than 30 minutes at load', async () => {
    await signUpThroughForm(page, server.url, newAccount());
    await page.waitForLoadState('networkidle');
    await page.evaluate(() =>
      localStorage.setItem('bytegate.lastActivity', String(Date.now() - 31 * 60 * 1000)),
    );
    const cookie = (await sessionCookie())?.value ?? '';
    expect(await isLive(cookie)).toBe(true);
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(`${server.url}/login`);
    expect(await storedUser()).toBeNull();
    // It ends at the server too: the cookie left in the browser opens nothing.
    await expect.poll(() => isLive(cookie)).toBe(false);
  });

  it('ends an idle session when the tab comes back to it, at the server too', async () => {
    await signUpThroughForm(page, server.url, newAccount());
    await page.waitForLoadState('networkidle');
    const cookie = (await sessionCookie())?.value ?? '';
    await page.evaluate(() => {
      localStorage.setItem('bytegate.lastActivity', String(Date.now() - 31 * 60 * 1000));
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.waitForURL(`${server.url}/login`);
    await expect.poll(() => isLive(cookie)).toBe(false);
  });

  it('keeps a session whose last activity is recent', async () => {
    await signUpThroughForm(page, server.url, newAccount());
    await page.evaluate(() =>
      localStorage.setItem('bytegate.lastActivity', String(Date.now() - 20 * 60 * 1000)),
    );
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(page.url()).toBe(`${server.url}/dashboard`);
  });

  it('clears a corrupt stored user', async () => {
    await signUpThroughForm(page, server.url, newAccount());
    // Corrupted from a page of ours that runs no app code: a dashboard still open could write a good copy
    // back (its profile refresh) between the write and the navigation.
    await page.goto(`${server.url}/robots.txt`);
    await page.evaluate(() => localStorage.setItem('bytegate.user', '{not json'));
    await page.goto(`${server.url}/dashboard`);
    await page.waitForURL(`${server.url}/login`);
    expect(await storedUser()).toBeNull();
  });

  it('ends the session when the API says the session is no longer valid', async () => {
    await signUpThroughForm(page, server.url, newAccount());
    // Signed out elsewhere (the server revoked it): the stored user is left behind in this tab.
    const cookie = (await sessionCookie())?.value ?? '';
    const me = await fetch(`${server.url}/api/auth/me`, {
      headers: { cookie: `bytegate_session=${cookie}` },
    });
    const { csrfToken } = (await me.json()) as { csrfToken: string };
    const logout = await fetch(`${server.url}/api/auth/logout`, {
      method: 'POST',
      headers: { cookie: `bytegate_session=${cookie}`, 'x-csrf-token': csrfToken },
    });
    expect(logout.status).toBe(200);
    await page.reload();
    await page.waitForURL(`${server.url}/login`);
    expect(await storedUser()).toBeNull();
  });

  it('follows another account signing in on another tab, and acts as that account from then on', async () => {
    const first = newAccount();
    const second = newAccount();
    await signUpThroughForm(page, server.url, first);
    await expect.poll(() => page.getByText(`Welcome back, ${first.firstName}`).count()).toBeGreaterThan(0);
    await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...second, firstName: 'Katherine' }),
    });

    const other = await context.newPage();
    await other.goto(`${server.url}/dashboard`);
    await other.getByRole('button', { name: 'Logout' }).click();
    await other.waitForURL(`${server.url}/login`);
    await logInThroughForm(other, server.url, second.email, second.password);
    await other.waitForURL(`${server.url}/dashboard`);

    // The first tab now shows the account the browser is signed in as, not the one it showed before.
    await expect.poll(() => page.getByText('Welcome back, Katherine').count()).toBeGreaterThan(0);
    // And a change made there is made as that account (its CSRF token is fetched anew).
    await page.getByRole('button', { name: 'User Settings' }).click();
    await page.getByLabel('Current Password', { exact: true }).fill(second.password);
    await page.getByLabel('New Password', { exact: true }).fill('katherine changed it');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('katherine changed it');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect.poll(() => page.getByText('Password updated successfully!').count()).toBeGreaterThan(0);
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: second.email, password: 'katherine changed it' }),
    });
    expect(login.status).toBe(200);
    await other.close();
  });
});

describe('the bot check in the browser', () => {
  it(
    'says the challenge failed to load when reCAPTCHA is configured but its script cannot load',
    async () => {
      // This machine cannot reach Google, which is exactly the failure the page must explain.
      const guarded = await startServer({
        RECAPTCHA_SITE_KEY: 'site-key',
        RECAPTCHA_SECRET_KEY: 'secret-key',
      });
      const guardedContext = await browser.newContext();
      const guardedPage = await guardedContext.newPage();
      const scripts: string[] = [];
      guardedPage.on('request', (request) => {
        if (request.url().includes('recaptcha')) {
          scripts.push(request.url());
        }
      });
      try {
        await guardedPage.goto(`${guarded.url}/login`);
        await guardedPage
          .getByText('The security challenge failed to load.', { exact: false })
          .first()
          .waitFor();
        expect(scripts[0]).toContain('render=site-key');
      } finally {
        await guardedContext.close();
        await guarded.stop();
      }
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  it('loads no reCAPTCHA script when no site key is configured', async () => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('recaptcha')) {
        scripts.push(request.url());
      }
    });
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Sign In' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts).toEqual([]);
  });
});
