// Issue 19, everywhere else: long names and long searches, the section in the address, messages written
// for people (and one per failure), Proxy Settings and Proxy Setup details, the contact form.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { saveScreenshot } from './support/browser.ts';
import { openSignedInPage, startServerAndBrowser } from './support/fixture.ts';
import { newAccount, openSection, signUpThroughForm, topUp } from './support/journeys.ts';
import { horizontalOverflow, isWithinViewport, watchToasts } from './support/layout.ts';
import { DASHBOARD_SECTIONS } from './support/pages.ts';
import type { RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, browser, stop } = await startServerAndBrowser());
  ({ context, page } = await openSignedInPage(browser, server, {
    viewport: { width: 1280, height: 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
  }));
});
afterAll(async () => {
  await context?.close();
  await stop?.();
});

async function goToSection(target: Page, id: string, heading: string): Promise<void> {
  await target.goto(`${server.url}/dashboard?section=${id}`);
  await target.getByRole('heading', { level: 1, name: heading }).waitFor();
}

const option = (group: string, name: string) =>
  page.getByRole('group', { name: group, exact: true }).getByRole('checkbox', { name });
const typedList = (group: string) =>
  page.getByRole('group', { name: group, exact: true }).getByLabel('Or type them, comma-separated');
const pools = () => page.getByRole('radiogroup', { name: 'Pool type' });
const card = (title: string) =>
  page.locator('section').filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) });

/** Whether a field is marked invalid and described by a text containing `message`. */
async function describedBy(field: Locator): Promise<string> {
  return field.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

describe('long names and long searches', () => {
  it('keeps the section title in the header and nothing scrolls sideways with 100-character names', async () => {
    const long = newAccount();
    long.firstName = 'Bartholomew'.repeat(10).slice(0, 100);
    long.lastName = 'Wolfeschlegelsteinhausenbergerdorff'.repeat(3).slice(0, 100);
    const own = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const target = await own.newPage();
      await signUpThroughForm(target, server.url, long);
      for (const width of [1280, 375]) {
        await target.setViewportSize({ width, height: 800 });
        for (const section of DASHBOARD_SECTIONS) {
          // From the sidebar (the drawer on a phone), as a person opens it.
          if (width < 768) {
            await target.getByRole('button', { name: 'Toggle Sidebar' }).click();
          }
          await openSection(target, section.label);
          await target.getByRole('heading', { level: 1, name: section.heading }).waitFor();
          const title = target.getByRole('heading', { level: 1, name: section.heading });
          expect(await isWithinViewport(target, title), `${section.label} at ${width}`).toBe(true);
          const header = await target.locator('header').first().boundingBox();
          const box = await title.boundingBox();
          expect(box && header && box.x + box.width <= header.x + header.width, section.label).toBe(true);
          expect(await horizontalOverflow(target), `${section.label} at ${width}`).toBeLessThanOrEqual(0);
        }
        await goToSection(target, 'dashboard', 'Dashboard');
        await saveScreenshot(target, `long-names-${width}`);
        expect(await axeViolations(target), `dashboard at ${width}`).toEqual([]);
      }
      // The full name is still there for whoever wants it.
      await target.setViewportSize({ width: 1280, height: 800 });
      await target.getByTitle(`${long.firstName} ${long.lastName}`).first().waitFor();
    } finally {
      await own.close();
    }
  });

  it('fits a 5,000-character Help Center search into a phone screen, and an emoji matches no guide', async () => {
    const visitor = await browser.newPage({ viewport: { width: 375, height: 800 } });
    try {
      const query = 'proxy'.repeat(1000);
      await visitor.goto(`${server.url}/help?q=${query}`);
      await visitor.getByText('No guide matches', { exact: false }).waitFor();
      expect(await horizontalOverflow(visitor)).toBeLessThanOrEqual(0);
      await saveScreenshot(visitor, 'help-long-search-375');
      expect(await axeViolations(visitor)).toEqual([]);
      await visitor.setViewportSize({ width: 1280, height: 800 });
      expect(await horizontalOverflow(visitor)).toBeLessThanOrEqual(0);
      expect(await axeViolations(visitor)).toEqual([]);

      await visitor.goto(`${server.url}/help?q=${encodeURIComponent('🚀')}`);
      await visitor.getByText('No guide matches “🚀”.').waitFor();
      expect(await visitor.getByText(/\d+ guides? match/).count()).toBe(0);
    } finally {
      await visitor.close();
    }
  });
});

describe('the section in the address', () => {
  it('keeps the section over a reload, and Back and Forward move between sections', async () => {
    await openSection(page, 'Orders');
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    expect(new URL(page.url()).searchParams.get('section')).toBe('orders');
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    await openSection(page, 'Top-up');
    await page.getByRole('heading', { level: 1, name: 'Top Up Balance' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    await page.goForward();
    await page.getByRole('heading', { level: 1, name: 'Top Up Balance' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
  });
});

describe('the contact form', () => {
  it('shows a refusal once, under the field it is about, and marks that field', async () => {
    const visitor = await browser.newPage({ viewport: { width: 375, height: 800 } });
    try {
      await visitor.goto(`${server.url}/contact`);
      await visitor.getByRole('heading', { level: 1, name: 'Contact' }).waitFor();
      const toasts = await watchToasts(visitor);
      const name = visitor.getByLabel('Name', { exact: true });
      const email = visitor.getByLabel('Email', { exact: true });
      const message = visitor.getByLabel('Message', { exact: true });
      await visitor.getByRole('button', { name: 'Send Message' }).click();
      await visitor.getByText('Please fill in all required fields.').waitFor();
      expect(await visitor.getByText('Please fill in all required fields.').count()).toBe(1);
      for (const field of [name, email, message]) {
        expect(await field.getAttribute('aria-invalid')).toBe('true');
      }

      await name.fill('Grace Hopper');
      await email.fill('grace@');
      await message.fill('Can you open port 25 for our monitoring?');
      await visitor.getByRole('button', { name: 'Send Message' }).click();
      await visitor.getByText('Please enter a valid email address', { exact: false }).first().waitFor();
      await visitor.waitForTimeout(500);
      expect(await visitor.getByText('Please enter a valid email address', { exact: false }).count()).toBe(1);
      expect(await email.getAttribute('aria-invalid')).toBe('true');
      expect(await describedBy(email)).toContain('Please enter a valid email address');
      expect(await name.getAttribute('aria-invalid')).toBeNull();
      expect(await message.getAttribute('aria-invalid')).toBeNull();
      expect(await toasts.seen()).toEqual([]);
      await saveScreenshot(visitor, 'contact-refused-375');
      expect(await axeViolations(visitor)).toEqual([]);
      await visitor.setViewportSize({ width: 1280, height: 800 });
      expect(await axeViolations(visitor)).toEqual([]);
      await saveScreenshot(visitor, 'contact-refused-1280');
    } finally {
      await visitor.close();
    }
  });
});

describe('Proxy Settings', () => {
  it('has its cards in the spec’s order: Basic, Location, Exclusion, Advanced', async () => {
    // $25 in: 5 GB of datacenter ($4.95) and 5 GB of residential ($9.95).
    await topUp(page, 'Cryptomus', '25');
    for (const [pool, price] of [
      ['Datacenter', '$4.95'],
      ['Residential', '$9.95'],
    ]) {
      await openSection(page, 'Plans & Pricing');
      await page.getByRole('button', { name: `Choose ${pool}` }).click();
      await page.getByRole('button', { name: `Purchase ${price}` }).click();
      await page.getByRole('heading', { level: 1, name: 'Proxy Settings' }).waitFor();
    }
    await pools().getByRole('radio', { name: 'Residential' }).click();
    await option('Countries', 'France').waitFor();
    const titles = await page
      .getByRole('form', { name: 'Proxy settings' })
      .getByRole('heading', { level: 2 })
      .allTextContents();
    expect(titles).toEqual([
      'Basic Settings',
      'Location Settings',
      'Exclusion Settings',
      'Advanced Settings',
    ]);
  });

  it("shows France's code as it shows every other country's", async () => {
    for (const [country, code] of [
      ['France', 'FR'],
      ['Germany', 'DE'],
    ]) {
      const label = page.getByRole('group', { name: 'Countries', exact: true }).locator('label').filter({
        hasText: country,
      });
      expect(await label.textContent(), country).toContain(code);
    }
  });

  it('empties the excluded countries when specific countries lock them', async () => {
    await typedList('Exclude countries').fill('DE');
    await option('Countries', 'France').check();
    await expect.poll(() => typedList('Exclude countries').inputValue()).toBe('');
    expect(await typedList('Exclude countries').isDisabled()).toBe(true);
    expect(await option('Exclude countries', 'Germany').isChecked()).toBe(false);
    await page.getByText('Cannot exclude countries when specific countries are selected').waitFor();
    await option('Countries', 'France').uncheck();
  });

  it('says a too-long city in words for people, at the field, once', async () => {
    await option('Countries', 'France').check();
    const toasts = await watchToasts(page);
    await page.getByLabel('Cities').fill('a'.repeat(201));
    await page.getByRole('button', { name: 'Save Settings' }).click();
    const cities = page.getByLabel('Cities');
    await expect.poll(() => cities.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(cities)).toContain('Each city must be at most 200 characters');
    await page.waitForTimeout(2_000);
    expect(await page.locator('body').textContent()).not.toMatch(/Too big|expected string/);
    const seen = await toasts.seen();
    expect(seen.join(' | ')).not.toMatch(/Too big|expected string|<=/);
    // Said beside the field; no toast repeats it.
    expect(seen.filter((text) => text.includes('200 characters'))).toEqual([]);
    await page.getByLabel('Cities').fill('');
    await option('Countries', 'France').uncheck();
  });

  it('gives the option lists failing together one toast, and none from a pool left behind', async () => {
    const failing = /\/api\/proxy-settings\/(states|asns|zipcodes)$/;
    await page.route(failing, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"down"}' }),
    );
    try {
      const toasts = await watchToasts(page);
      // A country not chosen before in this suite: its lists are not cached yet.
      await option('Countries', 'Germany').check();
      await page.getByText('Failed to load available states.').first().waitFor();
      await page.waitForTimeout(1_000);
      // Leave the pool while the failures are fresh: nothing more is said about the one left.
      await pools().getByRole('radio', { name: 'Datacenter' }).click();
      const after = await watchToasts(page, { isNewOnly: true });
      await page.waitForTimeout(9_000);
      expect((await toasts.seen()).filter((text) => text.includes('Failed to load'))).toHaveLength(1);
      expect(await after.seen()).toEqual([]);
    } finally {
      await page.unroute(failing);
    }
    await pools().getByRole('radio', { name: 'Residential' }).click();
    await option('Countries', 'France').waitFor();
  });

  it("says 'Failed to load current plan' and 'Failed to load available countries.' where they fail", async () => {
    await page.route('**/api/subuser/plan?**', (route) => route.fulfill({ status: 500, body: '{}' }));
    await goToSection(page, 'proxy-settings', 'Proxy Settings');
    await page.getByText('Failed to load current plan').first().waitFor();
    await page.unroute('**/api/subuser/plan?**');

    await page.route('**/api/proxy-settings/countries', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"down"}' }),
    );
    await goToSection(page, 'proxy-settings', 'Proxy Settings');
    await page.getByText('Failed to load available countries.').first().waitFor();
    await page.unroute('**/api/proxy-settings/countries');
  });

  for (const width of [1280, 375]) {
    it(`has no axe violations at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 800 });
      await goToSection(page, 'proxy-settings', 'Proxy Settings');
      await option('Countries', 'Germany').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await axeViolations(page)).toEqual([]);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      await saveScreenshot(page, `proxy-settings-edges-${width}`);
      await page.setViewportSize({ width: 1280, height: 900 });
    });
  }
});

describe('Proxy Setup', () => {
  it('masks the password in the cURL command as Proxy Access does; the copied command carries it', async () => {
    await goToSection(page, 'proxy-setup', 'Proxy Setup');
    await page.getByRole('tab', { name: 'Datacenter' }).click();
    await card('Proxy Access').getByRole('button', { name: 'Copy password' }).click();
    const password = await page.evaluate(() => navigator.clipboard.readText());
    expect(password).toMatch(/^[A-Za-z0-9]{12,}$/);
    const command = page.getByTestId('curl-command');
    expect(await command.textContent()).not.toContain(password);
    await card('Proxy URL').getByRole('button', { name: 'Copy cURL command' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`:${password}`);
    await card('Proxy URL').getByRole('button', { name: 'Show password' }).click();
    expect(await command.textContent()).toContain(`:${password}`);
    await card('Proxy URL').getByRole('button', { name: 'Hide password' }).click();
    expect(await command.textContent()).not.toContain(password);
  });

  it('shows every proxy list line whole at 375 px', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await goToSection(page, 'proxy-setup', 'Proxy Setup');
    await page.getByRole('tab', { name: 'Datacenter' }).click();
    const list = page.getByTestId('proxy-list');
    await list.scrollIntoViewIfNeeded();
    // No line runs past the box's edge (a line longer than the box wraps instead of being cut).
    const hidden = await list.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(hidden).toBeLessThanOrEqual(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'proxy-setup-375');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await axeViolations(page)).toEqual([]);
  });
});
