import { API_KEY_SECRET, apiKeyMessages } from '@bytegate/contracts/api-keys';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { saveScreenshot, screenshotDir } from './support/browser.ts';
import { startSignedInSuite } from './support/fixture.ts';
import { openSection, type TestAccount } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

// User Settings → API Keys (issue 17): a key created in the browser works on the public API and nowhere
// else, its secret is shown once, and revoking it in the browser shuts it out at once.

let server: RunningServer;
let page: Page;
let account: TestAccount;
let stop: () => Promise<void>;
/** The secret of the key the journey creates, read from the page. */
let secret = '';

beforeAll(async () => {
  ({ server, page, account, stop } = await startSignedInSuite({
    context: { viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] },
  }));
});
afterAll(() => stop?.());

const card = () => page.getByRole('region', { name: 'API Keys' });
const createDialog = () => page.getByRole('dialog', { name: 'Create API Key' });
const secretDialog = () => page.getByRole('dialog', { name: 'Copy your key now' });
const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

/** A call of the public API (or any other) with a key as the bearer token. */
const withKey = (path: string, key: string) =>
  fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });

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

/** Waits until nothing is loading, so checks and screenshots see the card as a person uses it. */
async function settle(): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () => document.querySelectorAll('[role="status"][aria-label^="Loading"]').length === 0,
  );
}

/** A screenshot of what the viewport shows (an open dialog), beside the full-page ones. */
const saveViewport = (name: string) => page.screenshot({ path: `${screenshotDir}/${name}.png` });
/** A screenshot of the API Keys card alone, at the page's width. */
const saveCard = (name: string) => card().screenshot({ path: `${screenshotDir}/${name}.png` });

/** Nothing may overflow the viewport sideways. */
const sidewaysOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('API keys in User Settings', () => {
  it("says 'No API keys yet' before any key exists", async () => {
    await openSection(page, 'User Settings');
    await card().getByText('No API keys yet').waitFor();
    expect(
      await card()
        .getByRole('link', { name: /API reference/ })
        .getAttribute('href'),
    ).toBe('/api/docs');
    await settle();
    await saveCard('api-keys-empty-card-1280');
  });

  it('checks the form before sending anything, with the messages of the contract', async () => {
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/user-settings/api-keys') && request.method() === 'POST') {
        sent.push(request.url());
      }
    });
    await card().getByRole('button', { name: 'Create API Key' }).click();
    const dialog = createDialog();
    await dialog.waitFor();
    // Focus moves into the dialog, onto its first field; Read is chosen, the other scopes are not.
    await expectFocused(dialog.getByLabel('Name'));
    expect(await dialog.getByRole('checkbox', { name: 'Read' }).isChecked()).toBe(true);
    for (const scope of ['Proxy users', 'Purchase', 'Billing']) {
      expect(await dialog.getByRole('checkbox', { name: scope }).isChecked()).toBe(false);
    }
    expect(await dialog.getByLabel('Expires').inputValue()).toBe('90');

    await dialog.getByRole('checkbox', { name: 'Read' }).uncheck();
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    await expectRefusedAt(dialog.getByLabel('Name'), apiKeyMessages.nameRequired);
    await dialog.getByText(apiKeyMessages.scopesRequired).waitFor();
    await dialog.getByText(apiKeyMessages.passwordRequired).waitFor();
    expect(sent).toEqual([]);
    await saveViewport('api-keys-form-errors-1280');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // Closing returns focus to the button that opened it.
    await expectFocused(card().getByRole('button', { name: 'Create API Key' }));
  });

  it('refuses a wrong password under the password field, then shows the secret once for the right one', async () => {
    await card().getByRole('button', { name: 'Create API Key' }).click();
    const dialog = createDialog();
    await dialog.getByLabel('Name').fill('Deploy script');
    await dialog.getByLabel('Current Password').fill('not the password');
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    await expectRefusedAt(dialog.getByLabel('Current Password'), 'Current password is incorrect');
    // What was typed stays; only the password is marked.
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Deploy script');
    expect(await dialog.locator('[aria-invalid="true"]').count()).toBe(1);

    await dialog.getByLabel('Current Password').fill(account.password);
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    const shown = secretDialog();
    await shown.waitFor();
    await shown.getByText('This secret will not be shown again.').waitFor();
    const field = shown.getByLabel('Secret key');
    secret = await field.inputValue();
    expect(secret).toMatch(API_KEY_SECRET);
    // Focus lands on the secret, selected, ready to copy.
    await expectFocused(field);
    expect(await field.evaluate((element: HTMLTextAreaElement) => element.selectionEnd)).toBe(secret.length);
    expect(await shown.getByTestId('api-key-curl').textContent()).toBe(
      `curl -H "Authorization: Bearer ${secret}" ${server.url}/api/v1/plans`,
    );
    await shown.getByRole('button', { name: 'Copy', exact: true }).click();
    expect(await clipboard()).toBe(secret);
    await page.getByText('Copied API key').waitFor();
    await saveViewport('api-keys-secret-1280');
    expect(await axeViolations(page)).toEqual([]);

    // A click beside the dialog does not throw the secret away; Done does, and the list has the key.
    await page.mouse.click(5, 5);
    expect(await shown.isVisible()).toBe(true);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    const row = card().getByRole('listitem').filter({ hasText: 'Deploy script' });
    await row.getByText(`${secret.slice(0, 12)}…`).waitFor();
    await row.getByText('Read', { exact: true }).waitFor();
    await row.getByText('Never used').waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('the key lists the plans on the public API, and opens nothing else', async () => {
    expect((await withKey('/api/v1/plans', secret)).status).toBe(200);
    const me = await withKey('/api/auth/me', secret);
    expect(me.status).toBe(401);
    expect(((await me.json()) as { error: string }).error).toBe(apiKeyMessages.keyNotAccepted);

    // The list shows the use: when, and from where.
    await page.reload();
    await openSection(page, 'User Settings');
    const row = card().getByRole('listitem').filter({ hasText: 'Deploy script' });
    await row.getByText('just now').waitFor();
    await row.getByText('127.0.0.1').waitFor();
  });

  it('looks right and has no axe violations at 1280 px and 375 px, with the list and each dialog open', async () => {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await settle();
      expect(await axeViolations(page)).toEqual([]);
      expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
      await saveScreenshot(page, `api-keys-page-${width}`);
      await saveCard(`api-keys-card-${width}`);

      await card().getByRole('button', { name: 'Create API Key' }).click();
      await createDialog().waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await saveViewport(`api-keys-create-${width}`);
      await page.keyboard.press('Escape');

      await card().getByRole('button', { name: 'Revoke Deploy script' }).click();
      await page.getByRole('dialog', { name: 'Revoke “Deploy script”?' }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await saveViewport(`api-keys-revoke-${width}`);
      await page.getByRole('button', { name: 'Cancel' }).click();
      // Cancelling returns focus to the key's Revoke button.
      await expectFocused(card().getByRole('button', { name: 'Revoke Deploy script' }));
    }

    // At a phone's width, a second key with every scope and no expiry: its secret view, and two rows.
    await card().getByRole('button', { name: 'Create API Key' }).click();
    const dialog = createDialog();
    await dialog.getByLabel('Name').fill('Reseller storefront with a longer name');
    for (const scope of ['Proxy users', 'Purchase', 'Billing']) {
      await dialog.getByRole('checkbox', { name: scope }).check();
    }
    await dialog.getByLabel('Expires').selectOption('Never');
    await dialog.getByText('The key works until you revoke it.').waitFor();
    await dialog.getByLabel('Current Password').fill(account.password);
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    await secretDialog().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await saveViewport('api-keys-secret-375');
    await secretDialog().getByRole('button', { name: 'Done' }).click();
    const row = card().getByRole('listitem').filter({ hasText: 'Reseller storefront' });
    await row.getByText('Never', { exact: true }).waitFor();
    await row.getByText('Billing', { exact: true }).waitFor();
    // Newest first.
    expect(await card().getByRole('heading', { level: 3 }).allTextContents()).toEqual([
      'Reseller storefront with a longer name',
      'Deploy script',
    ]);
    await settle();
    expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
    await saveCard('api-keys-two-keys-card-375');
    // And at a wide desktop.
    await page.setViewportSize({ width: 1440, height: 900 });
    await settle();
    expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
    await saveCard('api-keys-two-keys-card-1440');
    await saveScreenshot(page, 'api-keys-page-1440');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('revoking a key in the browser shuts it out of the API at once', async () => {
    await card().getByRole('button', { name: 'Revoke Deploy script' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “Deploy script”?' });
    await dialog.getByRole('button', { name: 'Revoke Key' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Revoked “Deploy script”').waitFor();
    await expect.poll(() => card().getByText('Deploy script').count()).toBe(0);
    // Its row is gone with the button that opened the dialog: focus is on the card's title.
    await expectFocused(card().getByRole('heading', { name: 'API Keys' }));
    const refused = await withKey('/api/v1/plans', secret);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: string }).error).toBe(apiKeyMessages.invalidKey);
  });

  it('shows the list loading, then a failure with a way to try again', async () => {
    const listUrl = `${server.url}/api/user-settings/api-keys`;
    await page.route(listUrl, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.fulfill({ status: 500, contentType: 'application/json', body: '{}' });
    });
    // A fresh load: nothing cached to show meanwhile.
    await page.reload();
    await openSection(page, 'User Settings');
    await card().getByRole('status', { name: 'Loading API keys' }).waitFor();
    // One retry, a second apart, before the failure shows.
    await card().getByText('Failed to load your API keys.').waitFor({ timeout: 10_000 });
    await saveCard('api-keys-error-card-1280');
    await page.unroute(listUrl);
    await card().getByRole('button', { name: 'Try again' }).click();
    await card().getByRole('heading', { level: 3, name: 'Reseller storefront with a longer name' }).waitFor();
  });
});
