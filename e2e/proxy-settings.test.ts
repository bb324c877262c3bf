import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/browser.ts';
import { startServerAndBrowser } from './support/fixture.ts';
import { buyDatacenterPlan, newAccount, openSection, signUpThroughForm, topUp } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

// Proxy Settings against the demo inventory `npm start` seeds (datacenter: US Virginia, DE Hesse, NL).

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let stopServerAndBrowser: () => Promise<void>;

beforeAll(async () => {
  ({ server, browser, stop: stopServerAndBrowser } = await startServerAndBrowser());
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await stopServerAndBrowser?.();
});

const save = () => page.getByRole('button', { name: 'Save Settings' }).click();
const countriesText = () =>
  page.getByRole('group', { name: 'Countries', exact: true }).getByLabel('Or type them, comma-separated');
const option = (group: string, name: string) =>
  page.getByRole('group', { name: group, exact: true }).getByRole('checkbox', { name });

/** A refusal shows beside the setting it is about: the field is invalid, described by it, and focused. */
async function expectRefusedAt(field: Locator, message: string): Promise<void> {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const description = await field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
  expect(description).toContain(message);
  await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
  // Only the refused setting is marked.
  expect(await page.locator('form [aria-invalid="true"]').count()).toBe(1);
}

describe('Proxy Settings in the browser', () => {
  it('sends a signed-out visitor to the login page', async () => {
    await page.goto(`${server.url}/dashboard?section=proxy-settings`);
    await page.waitForURL(/\/login/);
  });

  it("shows 'No Proxy Plan Active' with a way to the plans until a plan is bought", async () => {
    await signUpThroughForm(page, server.url, newAccount());
    await openSection(page, 'Proxy Settings');
    await page.getByRole('heading', { name: 'No Proxy Plan Active' }).waitFor();
    await page.getByRole('button', { name: 'View Plans' }).click();
    await page.getByRole('heading', { level: 1, name: 'Plans & Pricing' }).waitFor();
  });

  it('shows the current plan and refuses each invalid combination with its message', async () => {
    // A purchase lands on Proxy Settings (SPEC section 4).
    await buyDatacenterPlan(page);
    await page.getByRole('heading', { name: 'Current Plan' }).waitFor();
    const pools = page.getByRole('radiogroup', { name: 'Pool type' });
    expect(await pools.getByRole('radio', { name: 'Datacenter' }).getAttribute('aria-checked')).toBe('true');
    expect(await pools.getByRole('radio', { name: 'Residential' }).isDisabled()).toBe(true);
    await page.getByText('5.00 GB', { exact: true }).waitFor();

    // Nothing chosen.
    await save();
    await expectRefusedAt(countriesText(), 'Please select at least one country or set excluded countries.');
    // Cities without countries.
    await page.getByLabel('Cities').fill('frankfurt');
    await save();
    await expectRefusedAt(
      countriesText(),
      'Countries must be specified when setting cities, states, zipcodes, or ASNs.',
    );
    await page.getByLabel('Cities').fill('');
    // A rotation interval out of range.
    await option('Countries', 'Germany').check();
    await page.getByLabel('Rotation interval').fill('500');
    await save();
    await expectRefusedAt(
      page.getByLabel('Rotation interval'),
      'Rotation interval must be between 1 and 120 minutes.',
    );
    // A country the pool has no IPs in, typed by hand: the server refuses it by name.
    await page.getByLabel('Rotation interval').fill('15');
    await countriesText().fill('DE, JP');
    await save();
    await expectRefusedAt(countriesText(), 'No datacenter exits in JP: choose countries from the list');
    await saveScreenshot(page, 'proxy-settings-refused-1280');
    // Changing the setting clears the refusal.
    await countriesText().fill('DE, NL');
    expect(await page.locator('form [aria-invalid="true"]').count()).toBe(0);
    await countriesText().fill('DE');
  });

  it('shows states once countries are chosen, locks the exclusions with the hint, saves, and keeps it after a reload', async () => {
    // Before a country: no states list, exclusions open.
    await option('Countries', 'Germany').uncheck();
    await page.getByText('Choose countries to see their states.').waitFor();
    expect(await option('Exclude countries', 'Netherlands').isDisabled()).toBe(false);

    await option('Countries', 'Germany').check();
    await option('States', 'Hesse').waitFor();
    expect(await option('States', 'Virginia').count()).toBe(0);
    expect(await option('Exclude countries', 'Netherlands').isDisabled()).toBe(true);
    await page.getByText('Cannot exclude countries when specific countries are selected').waitFor();
    // ASNs show as 'name (code)'.
    await option('ASNs', 'Hetzner (24940)').waitFor();

    await option('States', 'Hesse').check();
    await page.getByLabel('Anonymous filter').click();
    await page.getByLabel('Rotation interval').fill('15');
    await saveScreenshot(page, 'proxy-settings-1280');
    await save();
    await page.getByText('Settings saved').waitFor();

    await page.goto(`${server.url}/dashboard?section=proxy-settings`);
    await page.getByRole('heading', { name: 'Current Plan' }).waitFor();
    await option('Countries', 'Germany').waitFor();
    expect(await option('Countries', 'Germany').isChecked()).toBe(true);
    expect(await option('States', 'Hesse').isChecked()).toBe(true);
    expect(await page.getByLabel('Rotation interval').inputValue()).toBe('15');
    expect(await page.getByLabel('Anonymous filter').getAttribute('aria-checked')).toBe('false');

    await page.getByRole('button', { name: 'Reload Settings' }).click();
    await page.getByText('Settings loaded').waitFor();
  });

  it("switches pools: another pool starts from its own settings and its own countries, and this one's stay", async () => {
    // $10 topped up, $4.95 spent: $5.05 left, and 5 GB of residential costs $9.95.
    await topUp(page, 'Bitcart', '10');
    await openSection(page, 'Plans & Pricing');
    await page.getByRole('button', { name: 'Choose Residential' }).click();
    await page.getByRole('button', { name: 'Purchase $9.95' }).click();
    await page.getByRole('heading', { level: 1, name: 'Proxy Settings' }).waitFor();

    const pools = page.getByRole('radiogroup', { name: 'Pool type' });
    await pools.getByRole('radio', { name: 'Residential' }).click();
    // Residential has nothing saved: the defaults, and the residential inventory's countries.
    await option('Countries', 'France').waitFor();
    expect(await option('Countries', 'Netherlands').count()).toBe(0);
    expect(await option('Countries', 'Germany').isChecked()).toBe(false);
    expect(await page.getByLabel('Rotation interval').inputValue()).toBe('30');
    expect(await page.getByLabel('Anonymous filter').getAttribute('aria-checked')).toBe('true');
    await page.getByText('Choose countries to see their states.').waitFor();

    await pools.getByRole('radio', { name: 'Datacenter' }).click();
    await option('Countries', 'Netherlands').waitFor();
    expect(await option('Countries', 'Germany').isChecked()).toBe(true);
    expect(await page.getByLabel('Rotation interval').inputValue()).toBe('15');
  });

  it('fits a 375 px screen', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('heading', { name: 'Current Plan' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'proxy-settings-375');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
