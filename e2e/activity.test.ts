import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { saveScreenshot, screenshotDir } from './support/browser.ts';
import { startSignedInSuite } from './support/fixture.ts';
import { buyDatacenterPlan, openSection, type TestAccount } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

// The Dashboard's Recent Activity and the full list behind "View all", after a real top-up (the payment
// sandbox), a purchase and a settings change made in the browser, then more entries than a page holds.

let server: RunningServer;
let page: Page;
let account: TestAccount;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, page, account, stop } = await startSignedInSuite({
    context: { viewport: { width: 1280, height: 900 } },
  }));
});
afterAll(() => stop?.());

const recent = () => page.getByRole('list', { name: 'Recent activity' });
const allActivity = () => page.getByRole('dialog', { name: 'All activity' });
const titlesIn = (list: Locator) => list.getByRole('listitem').locator('p:first-child').allTextContents();

/** Waits until nothing is loading, so checks and screenshots see the page as a person uses it. */
async function settle(): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () => document.querySelectorAll('[role="status"][aria-label^="Loading"]').length === 0,
  );
}

/** The API as a script uses it: a bearer session of the same account. */
async function apiSession(): Promise<(method: string, path: string, body?: unknown) => Promise<number>> {
  const login = await fetch(`${server.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  const { token } = (await login.json()) as { token: string };
  return async (method, path, body) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.status;
  };
}

describe('account activity in the browser', () => {
  it('shows the account’s creation first, with a relative time and the exact one', async () => {
    await recent().waitFor();
    expect(await titlesIn(recent())).toEqual(['Account created']);
    const time = recent().locator('time');
    expect(await time.getAttribute('dateTime')).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await time.getAttribute('title')).toMatch(/\d{4}/);
    expect(await time.textContent()).toMatch(/^just now, /);
  });

  it('shows a top-up, a purchase and a settings change as the latest five', async () => {
    await buyDatacenterPlan(page);
    // On Proxy Settings, where a purchase lands: choose a country and save.
    await page
      .getByRole('group', { name: 'Countries', exact: true })
      .getByRole('checkbox', { name: 'Germany' })
      .check();
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await page.getByText('Settings saved').waitFor();

    await openSection(page, 'Dashboard');
    await expect
      .poll(() => titlesIn(recent()))
      .toEqual([
        'Proxy settings saved',
        'Bought 5 GB of Datacenter traffic',
        'Top-up credited: $10.00',
        'Top-up of $10.00 started',
        'Account created',
      ]);
    await recent().getByText('Targeting of your Datacenter plan').waitFor();
    await recent()
      .getByText(/^BG-\d+ · \$4\.95 from your balance$/)
      .waitFor();
    await settle();
    await saveScreenshot(page, 'activity-overview-1280');
  });

  it('keeps five on the Dashboard, and pages the full list on to the oldest with Show more', async () => {
    const call = await apiSession();
    for (let save = 0; save < 20; save += 1) {
      expect(
        await call('PUT', '/api/proxy-settings', {
          pool_type: 'datacenter',
          countries: [save % 2 === 0 ? 'NL' : 'DE'],
        }),
      ).toBe(200);
    }
    // Back to the overview: it reads the feed again.
    await openSection(page, 'Orders');
    await openSection(page, 'Dashboard');
    await expect.poll(() => titlesIn(recent())).toEqual(Array(5).fill('Proxy settings saved'));

    // Opened from the keyboard; 20 entries a page, the oldest ones not yet among them.
    const viewAll = page.getByRole('button', { name: 'View all activity' });
    await viewAll.focus();
    await page.keyboard.press('Enter');
    await allActivity().waitFor();
    const all = allActivity().getByRole('list', { name: 'All activity' });
    await expect.poll(() => all.getByRole('listitem').count()).toBe(20);
    expect(await all.getByText('Account created').count()).toBe(0);

    await allActivity().getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => all.getByRole('listitem').count()).toBe(26);
    const titles = await titlesIn(all);
    expect(titles.slice(-6)).toEqual([
      'Signed in',
      'Proxy settings saved',
      'Bought 5 GB of Datacenter traffic',
      'Top-up credited: $10.00',
      'Top-up of $10.00 started',
      'Account created',
    ]);
    await allActivity().getByText('That is everything from the last 13 months.').waitFor();
    expect(await allActivity().getByRole('button', { name: 'Show more' }).count()).toBe(0);
    // The sign-in from the script names its address and program.
    await all.getByText('a Node.js program · 127.0.0.1').waitFor();

    await page.keyboard.press('Escape');
    await allActivity().waitFor({ state: 'detached' });
    // Focus goes back to the button once the dialog has closed (a tick after it leaves the page).
    await expect.poll(() => viewAll.evaluate((button) => button === document.activeElement)).toBe(true);
  });

  for (const width of [1280, 375]) {
    it(`has no axe violations on the overview and in the full list at ${width} px, and nothing overflows`, async () => {
      await page.setViewportSize({ width, height: 900 });
      // The journey's toasts ('Settings saved') have gone: under the dialog's overlay they would be judged too.
      await expect.poll(() => page.locator('[data-sonner-toast]').count(), { timeout: 15_000 }).toBe(0);
      await recent().waitFor();
      await settle();
      expect(await axeViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
      await recent().screenshot({ path: `${screenshotDir}/activity-recent-card-${width}.png` });
      if (width === 375) {
        await saveScreenshot(page, 'activity-overview-375');
      }

      await page.getByRole('button', { name: 'View all activity' }).click();
      await allActivity().waitFor();
      await settle();
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${screenshotDir}/activity-all-${width}.png` });
      await page.keyboard.press('Escape');
      await allActivity().waitFor({ state: 'detached' });
    });
  }
});
