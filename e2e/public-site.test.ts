import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, saveScreenshot } from './support/browser.ts';
import { type RunningServer, startServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const routes = [
  { path: '/', heading: 'Proxies billed by the gigabyte. Traffic that never expires.' },
  { path: '/contact', heading: 'Contact' },
  { path: '/privacy', heading: 'Privacy Policy' },
  { path: '/terms', heading: 'Terms of Service' },
  { path: '/locations', heading: 'Proxies by Location' },
  { path: '/help', heading: 'Help Center' },
  { path: '/help/targeting/target-filters', heading: 'Target Filters' },
];

describe('the public site', () => {
  it('renders every public route with its heading, without errors', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    for (const route of routes) {
      const response = await page.goto(`${server.url}${route.path}`);
      expect(response?.status(), route.path).toBe(200);
      await page.getByRole('heading', { level: 1, name: route.heading }).waitFor();
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the three per-GB prices and the navigation on the landing page', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url);
    for (const price of ['$0.99', '$1.99', '$3.99']) {
      expect(await page.getByText(price, { exact: true }).count(), price).toBe(1);
    }
    const nav = page.getByRole('navigation', { name: 'Main' }).first();
    for (const label of ['Home', 'Features', 'Pricing', 'Support', 'Help Center', 'Contact']) {
      expect(await nav.getByRole('link', { name: label, exact: true }).count(), label).toBe(1);
    }
    expect(await page.getByRole('link', { name: 'Get Started' }).count()).toBeGreaterThan(0);
    await saveScreenshot(page, 'landing-1280');
    await page.close();
  });

  it('opens the mobile menu with the keyboard at 375 px', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await page.goto(server.url);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Close menu' }).waitFor();
    expect(await page.locator('#mobile-menu').getByRole('link', { name: 'Help Center' }).isVisible()).toBe(
      true,
    );
    await page.close();
  });

  it('lists where each pool has IPs on the locations page, with the stats and a Why card per pool', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/locations`);
    await page.getByRole('heading', { level: 1, name: 'Proxies by Location' }).waitFor();
    for (const figure of ['843,453+', '19,316,171+', '2,560,705+']) {
      await page.getByText(figure, { exact: true }).waitFor();
    }
    for (const pool of ['Residential', 'Mobile', 'Datacenter', 'Premium Residential']) {
      await page.getByRole('heading', { level: 2, name: pool, exact: true }).waitFor();
      expect(
        await page
          .getByRole('list', { name: `${pool} countries`, exact: true })
          .getByRole('listitem')
          .count(),
        pool,
      ).toBe(12);
      await page.getByRole('complementary', { name: `Why ${pool}`, exact: true }).waitFor();
    }
    await page.getByText('5G, 4G, 3G and LTE networks').waitFor();
    await page.getByText('Targeting by country, state, city, ZIP code and ASN').waitFor();
    await saveScreenshot(page, 'locations-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'locations-375');
    await page.close();
  });

  it('publishes real legal documents: logs kept up to 30 days, the restricted regions, the refund window', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/privacy`);
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    await page.getByText('Logs are kept for up to 30 days').waitFor();
    expect(await page.title()).toBe('Privacy Policy | Bytegate');
    await page.goto(`${server.url}/terms`);
    await page.getByRole('heading', { level: 2, name: 'Restricted regions' }).waitFor();
    await page.getByText('Cuba, Iran, North Korea, Syria', { exact: false }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Money-back guarantee' }).waitFor();
    await page
      .getByRole('navigation', { name: 'On this page' })
      .getByRole('link', { name: 'Restricted regions' })
      .click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#restricted-regions');
    await saveScreenshot(page, 'terms-1280');
    await page.close();
  });
});
