import { proxyUserMessages } from '@bytegate/contracts/proxy-users';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { saveScreenshot, screenshotDir } from './support/browser.ts';
import { startSignedInSuite } from './support/fixture.ts';
import { buyDatacenterPlan, openSection } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

// Proxy Setup → Proxy users (issue 17): a plan's extra logins, created, capped, disabled, given a new
// password and deleted in the browser, with the URL builder and the list built for the one chosen.

let server: RunningServer;
let page: Page;
let stop: () => Promise<void>;

const USER = { label: 'Acme scraper', login: 'acmescraper01' };

beforeAll(async () => {
  ({ server, page, stop } = await startSignedInSuite({
    context: { viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] },
  }));
  await buyDatacenterPlan(page);
});
afterAll(() => stop?.());

const card = () => page.getByRole('region', { name: 'Proxy users' });
const rows = () => card().getByRole('list', { name: 'Proxy users' }).getByRole('listitem');
const row = (name: string) =>
  rows().filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });
/** The chosen user's details: `Proxy user <name>`. */
const detail = (name = USER.label) => page.getByRole('region', { name: `Proxy user ${name}`, exact: true });
const createDialog = () => page.getByRole('dialog', { name: 'Create Proxy User' });
const editDialog = (name = USER.label) => page.getByRole('dialog', { name: `Edit “${name}”` });
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

/** Focus is on `element`, or gets there within moments (a closing dialog hands it back after a tick). */
async function expectFocused(element: Locator): Promise<void> {
  await expect.poll(() => element.evaluate((node) => node === document.activeElement)).toBe(true);
}

/** A refusal shows under its field: the field is invalid, described by the message, and focused. */
async function expectRefusedAt(field: Locator, message: string): Promise<void> {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const description = await field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
  expect(description).toContain(message);
  await expectFocused(field);
}

/** Waits until nothing is loading, so checks and screenshots see the tab as a person uses it. */
async function settle(): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () => document.querySelectorAll('[role="status"][aria-label^="Loading"]').length === 0,
  );
}

/** What the viewport shows (an open dialog). */
const saveViewport = (name: string) => page.screenshot({ path: `${screenshotDir}/${name}.png` });
const saveCard = (name: string) => card().screenshot({ path: `${screenshotDir}/${name}.png` });
const sidewaysOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Proxy Setup, on the datacenter plan's "Proxy users" tab. */
async function openProxyUsersTab(): Promise<void> {
  await openSection(page, 'Proxy Setup');
  const views = page.getByRole('tablist', { name: 'Datacenter plan' });
  await views.getByRole('tab', { name: 'Proxy users' }).click();
  await card().waitFor();
}

describe('Proxy users in Proxy Setup', () => {
  it("opens on the plan's Access, and says 'No proxy users yet' on the Proxy users tab", async () => {
    await openSection(page, 'Proxy Setup');
    const views = page.getByRole('tablist', { name: 'Datacenter plan' });
    await views.waitFor();
    expect(await views.getByRole('tab', { name: 'Access' }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('heading', { name: 'Proxy Access' }).waitFor();

    await openProxyUsersTab();
    await card().getByText('No proxy users yet').waitFor();
    // Nothing to connect as yet: no details, no URL builder.
    expect(await page.getByTestId('curl-command').count()).toBe(0);
    await settle();
    expect(await axeViolations(page)).toEqual([]);
    await saveCard('proxy-users-empty-card-1280');
  });

  it('checks the login before sending anything, with the message of the contract', async () => {
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/proxy-users') && request.method() === 'POST') {
        sent.push(request.url());
      }
    });
    await card().getByRole('button', { name: 'Create Proxy User' }).click();
    const dialog = createDialog();
    await dialog.waitFor();
    await expectFocused(dialog.getByLabel('Label'));
    await dialog.getByLabel('Login').fill('bg12345678');
    await dialog.getByLabel('Threads').fill('0');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expectRefusedAt(dialog.getByLabel('Login'), proxyUserMessages.loginFormat);
    await dialog.getByText(proxyUserMessages.threadsFormat).waitFor();
    expect(sent).toEqual([]);
    await saveViewport('proxy-users-form-errors-1280');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expectFocused(card().getByRole('button', { name: 'Create Proxy User' }));
  });

  it('creates a user with a 1.5 GB monthly cap and 5 threads: listed with its bar, login and details', async () => {
    await card().getByRole('button', { name: 'Create Proxy User' }).click();
    const dialog = createDialog();
    await dialog.getByLabel('Label').fill(USER.label);
    await dialog.getByLabel('Login').fill(USER.login);
    await dialog.getByLabel('Traffic cap').fill('1.5');
    expect(await dialog.getByLabel('Cap period').inputValue()).toBe('month');
    await dialog.getByLabel('Threads').fill('5');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Proxy user “${USER.label}” created`).waitFor();

    const listed = row(USER.label);
    await listed.getByText(USER.login, { exact: true }).waitFor();
    await listed.getByText('0 of 1.5 GB this month').waitFor();
    await listed.getByText('1.5 GB left').waitFor();
    await listed.getByText('5 threads').waitFor();
    const bar = listed.getByRole('progressbar', { name: `Traffic of ${USER.label}` });
    expect(await bar.getAttribute('aria-valuetext')).toBe('0 of 1.5 GB this month, 1.5 GB left');
    expect(await bar.getAttribute('aria-valuenow')).toBe('0');

    // The new user is the one shown in detail, with the plan's targeting.
    await detail().getByText('Uses the plan’s Proxy Settings').waitFor();
    await detail().getByText('1.5 GB per month').waitFor();
    await detail().getByText('Password hidden').waitFor();
    expect(await page.getByTestId('curl-command').textContent()).toContain(`${USER.login}:`);
  });

  it('refuses a taken login under the Login field, as the server words it', async () => {
    await card().getByRole('button', { name: 'Create Proxy User' }).click();
    const dialog = createDialog();
    await dialog.getByLabel('Login').fill(USER.login);
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expectRefusedAt(dialog.getByLabel('Login'), proxyUserMessages.loginTaken);

    // A generated login and no cap: the second user, with no bar limit.
    await dialog.getByLabel('Login').fill('');
    await dialog.getByLabel('Label').fill('Team Berlin');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await dialog.waitFor({ state: 'detached' });
    const second = row('Team Berlin');
    await second.getByText(/^pu[a-z0-9]{10}$/).waitFor();
    await second.getByText('0 GB used').waitFor();
    await second.getByText('No cap').waitFor();
    expect(await second.getByRole('progressbar').count()).toBe(0);
    // Oldest first.
    expect(await card().getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      USER.label,
      'Team Berlin',
    ]);
    await detail('Team Berlin').waitFor();
  });

  it('shows a user chosen in the list, and edits its cap; a cap the plan cannot set aside is refused', async () => {
    await row(USER.label)
      .getByRole('button', { name: `Details of ${USER.label}` })
      .click();
    await expectFocused(detail().getByRole('heading', { name: USER.label }));
    expect(await row(USER.label).getAttribute('aria-current')).toBe('true');

    await detail()
      .getByRole('button', { name: `Edit ${USER.label}` })
      .click();
    const dialog = editDialog();
    await dialog.waitFor();
    expect(await dialog.getByLabel('Traffic cap').inputValue()).toBe('1.5');
    expect(await dialog.getByLabel('Threads').inputValue()).toBe('5');
    expect(await dialog.getByLabel('Login').count()).toBe(0);

    // A lifetime cap sets traffic aside: the 5 GB plan cannot set 50 aside (the server says so).
    await dialog.getByLabel('Traffic cap').fill('50');
    await dialog.getByLabel('Cap period').selectOption('lifetime');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expectRefusedAt(dialog.getByLabel('Traffic cap'), proxyUserMessages.notEnoughOnPlan('5'));
    await saveViewport('proxy-users-edit-refused-1280');

    await dialog.getByLabel('Traffic cap').fill('2.25');
    await dialog.getByLabel('Cap period').selectOption('day');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Saved “${USER.label}”`).waitFor();
    await row(USER.label).getByText('0 of 2.25 GB today').waitFor();
    await detail().getByText('2.25 GB per day').waitFor();
    await detail()
      .getByText(/^Resets .+, 00:00 UTC/)
      .waitFor();
    await expectFocused(detail().getByRole('button', { name: `Edit ${USER.label}` }));
  });

  it('disables the user (marked Disabled) and enables it again', async () => {
    const toggle = row(USER.label).getByRole('switch', { name: `${USER.label} enabled` });
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
    await toggle.click();
    await page.getByText(`“${USER.label}” disabled`).waitFor();
    await row(USER.label).getByText('Disabled', { exact: true }).waitFor();
    await detail().getByText('Disabled', { exact: true }).waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await expectFocused(toggle);
    await saveCard('proxy-users-disabled-card-1280');

    await page.keyboard.press('Space');
    await page.getByText(`“${USER.label}” enabled`).waitFor();
    await expect.poll(() => row(USER.label).getByText('Disabled', { exact: true }).count()).toBe(0);
    await detail().getByText('Enabled', { exact: true }).waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('true');
  });

  it('sets a new password, which the URL builder and the list then carry', async () => {
    await detail().getByRole('button', { name: 'Show password' }).click();
    const shown = detail().getByTestId('proxy-user-password');
    const oldPassword = (await shown.textContent()) ?? '';
    expect(oldPassword).toMatch(/^[A-Za-z0-9]{12,}$/);

    await detail().getByRole('button', { name: 'New password' }).click();
    const dialog = page.getByRole('dialog', { name: `Set a new password for “${USER.label}”?` });
    await dialog.getByText('The current password stops working at once').waitFor();
    await dialog.getByRole('button', { name: 'Set New Password' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`New password set for “${USER.label}”`).waitFor();
    await expect.poll(() => shown.textContent()).not.toBe(oldPassword);
    const newPassword = (await shown.textContent()) ?? '';
    expect(newPassword).toMatch(/^[A-Za-z0-9]{12,}$/);
    await expectFocused(detail().getByRole('button', { name: 'New password' }));

    // The cURL command copied for this user carries its login and new password, not the plan's.
    await page.getByRole('button', { name: 'Copy cURL command' }).click();
    const command = await clipboard();
    expect(command).toContain(`--proxy-user '${USER.login}:${newPassword}'`);
    expect(command).toContain(`:${server.gatewayPort}`);
    expect(command).not.toContain(oldPassword);
    await page.getByLabel('Format').selectOption('user:pass@host:port');
    const lines = (await page.getByTestId('proxy-list').inputValue()).split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.startsWith(`${USER.login}:${newPassword}@`)).toBe(true);
    }
    await detail().getByRole('button', { name: 'Hide password' }).click();
    await settle();
    await saveScreenshot(page, 'proxy-users-1280');
  });

  it('has no axe violations and no sideways scrolling at 1280 px and 375 px, with the list and each dialog open', async () => {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await settle();
      expect(await axeViolations(page)).toEqual([]);
      expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
      await saveScreenshot(page, `proxy-users-page-${width}`);
      await saveCard(`proxy-users-card-${width}`);
      await detail().screenshot({ path: `${screenshotDir}/proxy-users-detail-${width}.png` });

      const dialogs: Array<[string, Locator, Locator]> = [
        ['create', card().getByRole('button', { name: 'Create Proxy User' }), createDialog()],
        ['edit', detail().getByRole('button', { name: `Edit ${USER.label}` }), editDialog()],
        [
          'password',
          detail().getByRole('button', { name: 'New password' }),
          page.getByRole('dialog', { name: `Set a new password for “${USER.label}”?` }),
        ],
        [
          'delete',
          detail().getByRole('button', { name: `Delete ${USER.label}` }),
          page.getByRole('dialog', { name: `Delete “${USER.label}”?` }),
        ],
      ];
      for (const [name, opener, dialog] of dialogs) {
        await opener.click();
        await dialog.waitFor();
        expect(await axeViolations(page), name).toEqual([]);
        expect(await sidewaysOverflow(), name).toBeLessThanOrEqual(0);
        await saveViewport(`proxy-users-${name}-${width}`);
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached' });
        // Cancelling returns focus to the button that opened it.
        await expectFocused(opener);
      }
    }
    await page.setViewportSize({ width: 1440, height: 900 });
    await settle();
    expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'proxy-users-page-1440');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('deletes a user after a confirmation: it leaves the list, focus goes to the list', async () => {
    await detail()
      .getByRole('button', { name: `Delete ${USER.label}` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Delete “${USER.label}”?` });
    await dialog.getByText(/open tunnels close within 2 seconds/).waitFor();
    await dialog.getByRole('button', { name: 'Delete Proxy User' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`Deleted “${USER.label}”`).waitFor();
    await expect.poll(() => row(USER.label).count()).toBe(0);
    await expectFocused(card().getByRole('heading', { name: 'Proxy users' }));
    // The remaining user is the one shown now.
    await detail('Team Berlin').waitFor();
    expect(await card().getByRole('heading', { level: 3 }).allTextContents()).toEqual(['Team Berlin']);

    // The server agrees: one user left on the plan.
    await page.reload();
    await openProxyUsersTab();
    await row('Team Berlin').waitFor();
    expect(await rows().count()).toBe(1);
  });

  it('shows the list loading, then a failure with a way to try again', async () => {
    const pattern = /\/api\/plans\/[^/]+\/proxy-users/;
    await page.route(pattern, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{}' });
    });
    await page.reload();
    await openProxyUsersTab();
    await card().getByRole('status', { name: 'Loading proxy users' }).waitFor();
    // One retry, a second apart, before the failure shows.
    await card().getByText('Failed to load the proxy users.').waitFor({ timeout: 10_000 });
    await saveCard('proxy-users-error-card-1280');
    await page.unroute(pattern);
    await card().getByRole('button', { name: 'Try again' }).click();
    await row('Team Berlin').waitFor();
  });
});
