import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/browser.ts';
import { startServerAndBrowser } from './support/fixture.ts';
import { newAccount, signUpThroughForm } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, browser, stop } = await startServerAndBrowser());
});
afterAll(() => stop?.());

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

  it("makes SPEC's claims on the landing page: 20M+ IPs, 195 countries, 99.9% uptime, traffic that never expires, 24/7 support, premium residential through contact", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url);
    const figures = page.locator('#home dl');
    for (const [value, label] of <Array<[string, string]>>[
      ['20M+', 'IPs worldwide'],
      ['195', 'countries'],
      ['99.9%', 'uptime'],
      ['24/7', 'support'],
    ]) {
      expect(await figures.getByText(value, { exact: true }).count(), value).toBe(1);
      expect(await figures.getByText(label, { exact: true }).count(), label).toBe(1);
    }
    await page.getByRole('heading', { name: 'Traffic never expires' }).waitFor();
    await page.getByRole('heading', { name: '24/7 support from people who run proxies' }).waitFor();
    const premium = page.getByRole('region', { name: 'Premium Residential' });
    for (const point of [
      'Response times under 50 ms',
      '99.9% uptime',
      'A dedicated account manager',
      'Custom endpoints',
      'Pricing on request',
    ]) {
      await premium.getByText(point, { exact: true }).waitFor();
    }
    await premium.getByRole('link', { name: 'Contact Sales' }).click();
    await page.getByRole('heading', { level: 1, name: 'Contact' }).waitFor();
    await page.close();
  });

  it('scrolls to each section from the navigation, and back from any page', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/help`);
    const nav = page.getByRole('navigation', { name: 'Main' }).first();
    // The section's top sits just under the sticky header (64 px), unless the page ends first.
    const placement = (id: string) =>
      page.evaluate((sectionId) => {
        const top = document.getElementById(sectionId)?.getBoundingClientRect().top ?? Number.NaN;
        const atBottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
        return Math.abs(top - 64) <= 2 || (atBottom && top >= 0 && top < window.innerHeight)
          ? 'in place'
          : top;
      }, id);
    for (const [label, id] of <Array<[string, string]>>[
      ['Pricing', 'pricing'],
      ['Features', 'features'],
      ['Support', 'support'],
    ]) {
      await nav.getByRole('link', { name: label, exact: true }).click();
      await expect.poll(() => new URL(page.url()).hash, { message: label }).toBe(`#${id}`);
      await expect.poll(() => placement(id), { message: label }).toBe('in place');
    }
    await nav.getByRole('link', { name: 'Home', exact: true }).click();
    // The top of the page (within the header's 1 px border).
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThanOrEqual(1);
    // None of the section links claims to be the current page.
    expect(await nav.locator('[aria-current="page"]').count()).toBe(0);
    await page.close();
  });

  it('shows the scroll-to-top button only past 300 px, and it takes the page back up', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url);
    const button = page.getByRole('button', { name: 'Scroll to top' });
    expect(await button.count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 300));
    await page.waitForTimeout(100);
    expect(await button.count()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 301));
    await button.waitFor();
    await page.evaluate(() => window.scrollTo(0, 1400));
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect.poll(() => button.count()).toBe(0);
    await page.close();
  });

  it('moves at once for a visitor who asks for less motion: no colour fades, no smooth scroll to the top', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    await page.goto(server.url);
    await page.evaluate(() => window.scrollTo(0, 1400));
    const button = page.getByRole('button', { name: 'Scroll to top' });
    await button.waitFor();
    // Buttons change colour on hover in 150 ms for everyone else.
    expect(await button.evaluate((element) => getComputedStyle(element).transitionDuration)).toBe('0s');
    // The page is at the top as the click is handled, not on its way there.
    expect(
      await button.evaluate((element) => {
        (element as HTMLButtonElement).click();
        return window.scrollY;
      }),
    ).toBe(0);
    await page.close();
  });

  it('leaves the page where the visitor scrolled it while the app was loading, and where a reload left it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Scripts held back: the visitor reads and scrolls the prerendered page before the app runs it.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/*.js', async (route) => {
      await held;
      await route.continue();
    });
    // (DOMContentLoaded waits for module scripts, so the page is taken as soon as its HTML is in.)
    await page.goto(server.url, { waitUntil: 'commit' });
    await page.locator('footer').waitFor();
    await page.evaluate(() => window.scrollTo(0, 900));
    expect(await page.evaluate(() => window.scrollY)).toBe(900);
    release();
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Scroll to top' }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(900);
    await page.unroute('**/assets/*.js');
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Scroll to top' }).waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(900);
    // Moving to another page still starts it at the top.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Locations' }).click();
    await page.getByRole('heading', { level: 1, name: 'Proxies by Location' }).waitFor();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.close();
  });

  it('shows Dashboard instead of Login and Get Started once signed in', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(server.url);
    const header = page.getByRole('banner');
    await header.getByRole('link', { name: 'Login' }).waitFor();
    expect(await header.getByRole('link', { name: 'Dashboard' }).count()).toBe(0);
    await signUpThroughForm(page, server.url, newAccount());
    // A fresh load of a prerendered page (built for anonymous visitors) shows the signed-in navigation.
    await page.goto(server.url);
    await header.getByRole('link', { name: 'Dashboard' }).first().waitFor();
    expect(await header.getByRole('link', { name: 'Login' }).count()).toBe(0);
    expect(await header.getByRole('link', { name: 'Get Started' }).count()).toBe(0);
    await header.getByRole('link', { name: 'Dashboard' }).first().click();
    await page.waitForURL(`${server.url}/dashboard`);
    await context.close();
  });

  it('links every public page from the footer', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/locations`);
    const hrefs = await page
      .getByRole('contentinfo')
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    for (const path of ['/', '/locations', '/help', '/contact', '/privacy', '/terms', '/login', '/signup']) {
      expect(hrefs, path).toContain(path);
    }
    await page.close();
  });

  it('opens the mobile menu with the keyboard at 375 px', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await page.goto(server.url);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    // It works once the app has taken over the prerendered page.
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    await toggle.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Close menu' }).waitFor();
    expect(await page.locator('#mobile-menu').getByRole('link', { name: 'Help Center' }).isVisible()).toBe(
      true,
    );
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    expect(await page.locator('#mobile-menu').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-controls'))).toBe(
      'mobile-menu',
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

  it('fits 1280 px and 375 px without sideways scrolling (screenshots for review)', async () => {
    const shots = [
      { path: '/', name: 'landing' },
      { path: '/help/targeting', name: 'help-article' },
      { path: '/locations', name: 'locations' },
      { path: '/no/such/page', name: 'not-found' },
    ];
    for (const width of [1280, 375]) {
      const page = await browser.newPage({ viewport: { width, height: 800 } });
      for (const { path, name } of shots) {
        await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
        await saveScreenshot(page, `${name}-${width}`);
      }
      await page.close();
    }
  });
});
