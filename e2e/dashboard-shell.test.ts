import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/browser.ts';
import { openSignedInPage, startServerAndBrowser } from './support/fixture.ts';
import { newAccount, signUpThroughForm } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, browser, stop } = await startServerAndBrowser());
});
afterAll(() => stop?.());

const sidebarState = (page: import('playwright-core').Page) =>
  page.locator('[data-sidebar="sidebar"][data-state]').first().getAttribute('data-state');

describe('the dashboard shell', () => {
  it('toggles the sidebar with Ctrl+B and remembers it in a cookie for 7 days', async () => {
    const { context, page } = await openSignedInPage(browser, server, {
      viewport: { width: 1280, height: 800 },
    });
    expect(await sidebarState(page)).toBe('expanded');

    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarState(page)).toBe('collapsed');
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    const lifetimeS = (cookie?.expires ?? 0) - Date.now() / 1000;
    expect(lifetimeS).toBeGreaterThan(7 * 24 * 3600 - 120);
    expect(lifetimeS).toBeLessThanOrEqual(7 * 24 * 3600 + 5);

    await page.reload();
    await expect.poll(() => sidebarState(page)).toBe('collapsed');
    await page.keyboard.press('Control+b');
    await expect.poll(() => sidebarState(page)).toBe('expanded');
    expect((await context.cookies()).find((c) => c.name === 'sidebar_state')?.value).toBe('true');
    await context.close();
  });

  it('is a drawer under 768 px: the toggle or Ctrl+B opens it, Escape and choosing a section close it', async () => {
    const { context, page } = await openSignedInPage(browser, server, {
      viewport: { width: 375, height: 800 },
    });
    expect(await page.locator('[data-sidebar="sidebar"]').count()).toBe(0);
    await page.getByRole('button', { name: 'Toggle Sidebar' }).click();
    const drawer = page.getByRole('dialog', { name: 'Navigation' });
    await drawer.waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    await page.keyboard.press('Control+b');
    await drawer.waitFor();
    await drawer.getByRole('button', { name: 'User Settings' }).click();
    await drawer.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1, name: 'Account Settings' }).waitFor();
    await context.close();
  });

  it("shows 'coming soon' for a section id it does not know", async () => {
    const { context, page } = await openSignedInPage(browser, server, {
      viewport: { width: 1280, height: 800 },
    });
    await page.goto(`${server.url}/dashboard?section=affiliates`);
    await page.getByText('The “affiliates” section is coming soon.').waitFor();
    await context.close();
  });

  it('switches sections in page state and shows each title in the header', async () => {
    const { context, page } = await openSignedInPage(browser, server, {
      viewport: { width: 1280, height: 800 },
    });
    await page.getByRole('button', { name: 'User Settings' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Account Settings' }).count())
      .toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    await context.close();
  });

  it('changes the password from User Settings', async () => {
    const { context, page, account } = await openSignedInPage(browser, server, {
      viewport: { width: 1280, height: 800 },
    });
    await page.getByRole('button', { name: 'User Settings' }).click();

    await page.getByLabel('Current Password', { exact: true }).fill(account.password);
    await page.getByLabel('New Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect
      .poll(() => page.getByText('New password must be at least 8 characters').count())
      .toBeGreaterThan(0);

    await page.getByLabel('New Password', { exact: true }).fill('a fresh password');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('a different one');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect.poll(() => page.getByText("New passwords don't match.").count()).toBeGreaterThan(0);

    await page.getByLabel('Current Password', { exact: true }).fill('wrong current password');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('a fresh password');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect.poll(() => page.getByText('Current password is incorrect').count()).toBeGreaterThan(0);

    await page.getByLabel('Current Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect.poll(() => page.getByText('Password updated successfully!').count()).toBeGreaterThan(0);

    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: 'a fresh password' }),
    });
    expect(login.status).toBe(200);
    await context.close();
  });

  it('deletes the account from the danger zone, logs out, and the account can no longer sign in', async () => {
    const { context, page, account } = await openSignedInPage(browser, server, {
      viewport: { width: 1280, height: 800 },
    });
    await page.getByRole('button', { name: 'User Settings' }).click();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Password', { exact: true }).fill('wrong password');
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await expect.poll(() => page.getByText('Password is incorrect').count()).toBeGreaterThan(0);
    await dialog.getByLabel('Password', { exact: true }).fill(account.password);
    await dialog.getByRole('button', { name: 'Delete Account' }).click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('bytegate.user'))).toBeNull();
    expect((await context.cookies()).some((cookie) => cookie.name === 'bytegate_session')).toBe(false);
    await expect.poll(() => new URL(page.url()).pathname).not.toBe('/dashboard');

    const login = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    expect(login.status).toBe(401);
    await context.close();
  });

  it('renders the 404 page with a 404 status for an unknown path', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const logs: string[] = [];
    page.on('console', (message) => logs.push(message.text()));
    const response = await page.goto(`${server.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.getByText('Oops! Page not found').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Return to Home' }).getAttribute('href')).toBe('/');
    // The page arrives prerendered; the app logs the bad path once it runs the page.
    await expect.poll(() => logs.some((line) => line.includes('/no/such/page'))).toBe(true);
    await context.close();
  });

  it('looks right at 1280 px and 375 px (screenshots for review)', async () => {
    for (const width of [1280, 375]) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/login`);
      await page.getByRole('button', { name: 'Sign In' }).waitFor();
      await saveScreenshot(page, `login-${width}`);
      await page.goto(`${server.url}/signup`);
      await page.getByRole('button', { name: 'Create Account' }).waitFor();
      await saveScreenshot(page, `signup-${width}`);
      await signUpThroughForm(page, server.url, newAccount());
      await page.waitForLoadState('networkidle');
      await saveScreenshot(page, `dashboard-${width}`);
      // Nothing may overflow the viewport sideways.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await context.close();
    }
  });
});
