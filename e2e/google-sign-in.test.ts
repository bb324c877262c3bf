import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOidcProvider, type TestOidcProvider } from '../apps/server/src/testing/oidc-provider.ts';
import { axeViolations } from './support/axe.ts';
import { screenshotDir } from './support/browser.ts';
import { type ServerAndBrowser, startServerAndBrowser } from './support/fixture.ts';
import { newAccount, openSection, signUpThroughForm } from './support/journeys.ts';

// Sign-in with Google as a person uses it, against a real OpenID provider on 127.0.0.1 standing in for
// Google (oidc-provider, with its own sign-in page the browser goes through): the button on the login
// page, an account created from the Google account and signed in on the dashboard, a password set
// later, and Connect Google from User Settings for an account that signs in with a password.

let provider: TestOidcProvider;
let running: ServerAndBrowser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  provider = await startOidcProvider();
  try {
    running = await startServerAndBrowser(provider.env);
  } catch (error) {
    await provider.close();
    throw error;
  }
  provider.allowRedirectUri(`${running.server.url}/api/auth/google/callback`);
});
afterEach(() => {
  expect(violations).toEqual([]);
});
afterAll(async () => {
  await context?.close();
  await running?.stop();
  await provider?.close();
});

const url = (path: string) => `${running.server.url}${path}`;
const securityCard = () => page.getByRole('region', { name: 'Security' });

/** Content-Security-Policy violations on our pages (the login page with the button, the dashboard). */
const violations: string[] = [];

async function newPage(): Promise<void> {
  await context?.close();
  context = await running.browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `Content Security Policy violation: ${event.violatedDirective} blocked ${event.blockedURI}`,
      );
    });
  });
  page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) {
      violations.push(`${page.url()}: ${message.text()}`);
    }
  });
}

/** Axe finds nothing at 1280 and 375 px in `scope` (the page by default), nothing overflows sideways. */
async function checkBothWidths(name: string, scope?: () => Locator): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForLoadState('networkidle');
    expect(await axeViolations(page), `${name} at ${width}`).toEqual([]);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      `${name} at ${width} overflows`,
    ).toBeLessThanOrEqual(0);
    if (scope) {
      await scope().screenshot({ path: `${screenshotDir}/${name}-${width}.png` });
    } else {
      await page.screenshot({ path: `${screenshotDir}/${name}-${width}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** At the provider's sign-in page (standing in for Google's): the email, then Continue. */
async function signInAtProvider(email: string): Promise<void> {
  await page.waitForURL((current) => current.origin === provider.issuer);
  await page.getByRole('heading', { name: 'Sign in to the Local OpenID Provider' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('sign-in with Google', () => {
  const grace = { email: `grace.${Date.now()}@example.com`, givenName: 'Grace', familyName: 'Hopper' };

  it('shows a Google button on the login and sign-up pages: named, focusable with a ring, at 375 px too', async () => {
    await newPage();
    await page.goto(url('/login'));
    const button = page.getByRole('link', { name: 'Sign in with Google' });
    await button.waitFor();
    expect(await button.getAttribute('href')).toBe('/api/auth/google/start');
    // Keyboard focus shows a ring.
    await page.getByRole('button', { name: 'Sign In' }).focus();
    await page.keyboard.press('Tab');
    expect(await button.evaluate((node) => node === document.activeElement)).toBe(true);
    const outline = await button.evaluate((node) => getComputedStyle(node).outlineStyle);
    expect(outline).not.toBe('none');
    await checkBothWidths('google-login');
    const box = await button.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);

    await page.goto(url('/signup'));
    await page.getByRole('link', { name: 'Sign up with Google' }).waitFor();
  });

  it('creates the account from the Google account and lands on the dashboard, signed in with the right name', async () => {
    provider.addAccount(grace);
    await newPage();
    await page.goto(url('/login'));
    await page.getByRole('link', { name: 'Sign in with Google' }).click();
    await signInAtProvider(grace.email);
    await page.waitForURL(url('/dashboard'));
    await page.getByText('Login successful').waitFor();
    await page.getByText('Welcome back, Grace').waitFor();
    await page.getByText('Grace Hopper').first().waitFor();
    // The session is kept locally as after a password sign-in (SPEC sections 3 and 4), with no token.
    const stored = await page.evaluate(() => localStorage.getItem('bytegate.user'));
    expect(JSON.parse(stored ?? '{}')).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: grace.email,
    });
    expect(page.url()).toBe(url('/dashboard'));
    // A reload keeps the session.
    await page.reload();
    await page.getByText('Welcome back, Grace').waitFor();
  });

  it('shows the linked Google account, and sets a password instead of changing one', async () => {
    await openSection(page, 'User Settings');
    const google = securityCard().getByTestId('google-row');
    await google.getByText(grace.email).waitFor();
    await google.getByRole('button', { name: 'Disconnect' }).waitFor();
    await page.getByRole('heading', { name: 'Set a password' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Change Password' }).count()).toBe(0);
    await checkBothWidths('google-security-card-created', securityCard);

    // Disconnecting is refused while Google is the only way in.
    await google.getByRole('button', { name: 'Disconnect' }).click();
    await page.getByText('Set a password first: without one, Google is the only way to sign in').waitFor();

    await page.getByLabel('New Password', { exact: true }).fill('grace sets a password');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('grace sets one');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await page.getByText("New passwords don't match.").waitFor();
    await page.getByLabel('Confirm New Password', { exact: true }).fill('grace sets a password');
    await page.getByRole('button', { name: 'Set Password' }).click();
    await page.getByText('Password set. You can now sign in with your email and password too.').waitFor();
    await page.getByRole('heading', { name: 'Change Password' }).waitFor();
    const login = await fetch(url('/api/auth/login'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: grace.email, password: 'grace sets a password' }),
    });
    expect(login.status).toBe(200);
  });

  it('connects Google to an account that signs in with a password, from User Settings', async () => {
    await newPage();
    const account = newAccount();
    await signUpThroughForm(page, running.server.url, account);
    const personal = `margaret.personal.${Date.now()}@example.com`;
    provider.addAccount({ email: personal, givenName: 'Maggie', familyName: 'H' });
    await openSection(page, 'User Settings');
    const google = securityCard().getByTestId('google-row');
    await google.getByText('Not connected').waitFor();
    await checkBothWidths('google-security-card-unlinked', securityCard);
    await google.getByRole('button', { name: 'Connect Google' }).click();
    await signInAtProvider(personal);
    await page.waitForURL(url('/dashboard?section=user-settings'));
    await page.getByText('Google account connected').waitFor();
    await securityCard().getByTestId('google-row').getByText(personal).waitFor();
    await checkBothWidths('google-security-card-connected', securityCard);

    // Signed out, that Google account now signs in to this account (the provider remembers the person
    // in this browser, as Google does, and sends it straight back).
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(url('/login'));
    await page.getByRole('link', { name: 'Sign in with Google' }).click();
    await page.waitForURL(url('/dashboard'));
    await page.getByText('Welcome back, Margaret').waitFor();
  });

  it('explains on the login page why a Google sign-in did not finish', async () => {
    await newPage();
    const account = newAccount();
    await signUpThroughForm(page, running.server.url, account);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(url('/login'));
    provider.addAccount({ email: account.email, givenName: 'Someone', familyName: 'Else' });
    await page.getByRole('link', { name: 'Sign in with Google' }).click();
    await signInAtProvider(account.email);
    await page.waitForURL(url('/login'));
    await page
      .getByRole('alert')
      .getByText(
        'An account with this email already exists. Sign in with your password, then connect Google in User Settings → Security.',
      )
      .waitFor();
    await checkBothWidths('google-login-account-exists');

    // Cancelling at Google comes back here too (a browser the provider does not know yet).
    await newPage();
    await page.goto(url('/login'));
    await page.getByRole('link', { name: 'Sign in with Google' }).click();
    await page.waitForURL((current) => current.origin === provider.issuer);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(url('/login'));
    await page.getByRole('alert').getByText('Google sign-in was cancelled.').waitFor();
  });
});
