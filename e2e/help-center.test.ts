import { HELP_ARTICLE_PATHS } from '@bytegate/contracts/routes';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/browser.ts';
import { startServerAndBrowser } from './support/fixture.ts';
import type { RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let page: Page;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, browser, stop } = await startServerAndBrowser());
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});
afterAll(() => stop?.());

describe('the Help Center', () => {
  it('links a card to each guide, with breadcrumbs', async () => {
    await page.goto(`${server.url}/help`);
    await page.getByRole('heading', { level: 1, name: 'Help Center' }).waitFor();
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await breadcrumb.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
    const hrefs = await page
      .getByRole('list', { name: 'Guides' })
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual([...HELP_ARTICLE_PATHS]);
    expect(await page.title()).toBe('Help Center | Bytegate');
  });

  it('opens a guide from its card, with its title, breadcrumbs and an outline whose links scroll to their sections', async () => {
    await page.getByRole('link', { name: /^Connection Types/ }).click();
    await page.waitForURL(`${server.url}/help/connection-types`);
    await page.getByRole('heading', { level: 1, name: 'Connection Types' }).waitFor();
    expect(await page.title()).toBe('Connection Types | Bytegate');
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    expect(await breadcrumb.getByRole('link', { name: 'Help Center' }).getAttribute('href')).toBe('/help');

    const outline = page.getByRole('navigation', { name: 'On this page' });
    // Moving inside the app, the guide's body arrives as its own chunk, with its outline.
    await outline.getByRole('link').first().waitFor();
    const links = await outline.getByRole('link').evaluateAll((anchors) =>
      anchors.map((anchor) => ({
        href: anchor.getAttribute('href') ?? '',
        text: anchor.textContent ?? '',
      })),
    );
    expect(links.map((link) => link.text)).toEqual([
      'Rotating',
      'Sticky',
      'Sticky ports',
      'Session IDs',
      'When a sticky IP changes anyway',
    ]);
    for (const link of links) {
      await outline.getByRole('link', { name: link.text, exact: true }).click();
      const heading = page.locator(`[id="${link.href.slice(1)}"]`);
      // Scrolled to its heading: the heading near the top, or as near as the end of the page allows.
      await expect
        .poll(() =>
          heading.evaluate((element) => {
            const top = element.getBoundingClientRect().top;
            const atBottom = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
            return top >= 0 && (top < 200 || (atBottom && top < window.innerHeight));
          }),
        )
        .toBe(true);
      expect(new URL(page.url()).hash).toBe(link.href);
      expect(await heading.textContent()).toBe(link.text);
      // The outline marks the section being read.
      await expect
        .poll(() => outline.locator('[aria-current="location"]').allTextContents(), { message: link.text })
        .toEqual([link.text]);
    }
    // The outline stays in view while the article scrolls.
    expect(await outline.isVisible()).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(page, 'help-article-1280');
  });

  // One test per guide: a single loop over them all took past 60 s on a loaded machine.
  for (const path of HELP_ARTICLE_PATHS) {
    it(`leads from the card to ${path}, and every outline link there to its section`, async () => {
      await page.goto(`${server.url}/help`);
      const card = page.getByRole('list', { name: 'Guides' }).locator(`a[href="${path}"]`);
      const title = (await card.locator('span').first().textContent()) ?? '';
      await card.click();
      await page.waitForURL(`${server.url}${path}`);
      await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
      expect(await page.title(), path).toBe(`${title} | Bytegate`);
      const outline = page.getByRole('navigation', { name: 'On this page' });
      await outline.waitFor();
      const targets = await outline
        .getByRole('link')
        .evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
      expect(targets.length, path).toBeGreaterThan(1);
      for (const target of targets) {
        expect(await page.locator(`[id="${target.slice(1)}"]`).count(), `${path} ${target}`).toBe(1);
      }
    });
  }

  it('searches the guides by title, section and text, keeps the query in the address, and says when nothing matches', async () => {
    await page.goto(`${server.url}/help`);
    const search = page.getByRole('searchbox', { name: 'Search the guides' });
    const cards = page.getByRole('list', { name: 'Guides' }).getByRole('link');
    await search.fill('sticky ports');
    await expect.poll(() => cards.count()).toBeLessThan(HELP_ARTICLE_PATHS.length);
    expect(await cards.filter({ hasText: 'Connection Types' }).count()).toBe(1);
    // An error code is in the articles' text, which the search loads when it is first used.
    await search.fill('NO_RAY');
    await cards.filter({ hasText: 'Troubleshooting' }).waitFor();
    await page.getByText(/guides? match/).waitFor();
    await search.fill('zzzzqx');
    await page.getByText('No guide matches “zzzzqx”.').waitFor();
    expect(await cards.count()).toBe(0);
    await page.getByRole('link', { name: 'ask our support team' }).waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('zzzzqx');
    // A shared address opens on its results.
    await page.goto(`${server.url}/help?q=socks5`);
    await expect.poll(() => cards.count()).toBeLessThan(HELP_ARTICLE_PATHS.length);
    expect(await search.inputValue()).toBe('socks5');
    expect(await cards.filter({ hasText: 'Protocols' }).count()).toBe(1);
    await search.fill('');
    await expect.poll(() => cards.count()).toBe(HELP_ARTICLE_PATHS.length);
  });

  it('leads from each guide to the previous and the next one', async () => {
    await page.goto(`${server.url}/help/getting-started`);
    const more = page.getByRole('navigation', { name: 'More guides' });
    expect(await more.getByText('Previous').count()).toBe(0);
    await more.getByRole('link', { name: /Next\s*Proxy Settings/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Proxy Settings' }).waitFor();
    await more.getByRole('link', { name: /Previous\s*Getting Started/ }).waitFor();
    await page.goto(`${server.url}/help/api`);
    await more.getByRole('link', { name: /Previous\s*Threads/ }).waitFor();
    await more.getByRole('link', { name: /Next\s*Two-factor authentication/ }).waitFor();
    // The last guide leads back only.
    await page.goto(`${server.url}${HELP_ARTICLE_PATHS.at(-1)}`);
    await more.getByRole('link', { name: /Previous/ }).waitFor();
    expect(await more.getByText('Next').count()).toBe(0);
  });

  it('follows a link between guides inside the app', async () => {
    await page.goto(`${server.url}/help/getting-started`);
    await page.getByRole('heading', { level: 1, name: 'Getting Started' }).waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Troubleshooting' }).click();
    await page.getByRole('heading', { level: 1, name: 'Troubleshooting' }).waitFor();
    await page.getByRole('heading', { name: 'Connection errors' }).waitFor();
  });

  it('copies a code block with its Copy button, and a keyboard can scroll a wide one', async () => {
    const context = await browser.newContext({
      viewport: { width: 375, height: 800 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const reader = await context.newPage();
    await reader.goto(`${server.url}/help/targeting`, { waitUntil: 'networkidle' });
    const block = reader.locator('.code-block').first();
    await block.getByRole('button', { name: 'Copy' }).click();
    await block.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await reader.evaluate(() => navigator.clipboard.readText())).toBe(
      "curl -x 'http://LOGIN__cr.us;state.texas:PASSWORD@GATEWAY:823' https://api.ipify.org",
    );
    await block.getByRole('button', { name: 'Copy' }).waitFor();
    // Wider than a phone: it scrolls, and takes focus so arrow keys scroll it.
    const pre = block.locator('pre');
    expect(await pre.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    await pre.focus();
    await reader.keyboard.press('ArrowRight');
    await expect.poll(() => pre.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
    await context.close();
  });

  it('reads well at 375 px', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${server.url}/help/targeting`);
    await page.getByRole('heading', { level: 1, name: 'Targeting' }).waitFor();
    await page.getByRole('heading', { name: 'Targeting in the login' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'help-article-375');
    // No side column on a phone: the outline is a disclosure above the article, closed at first.
    expect(await page.getByRole('navigation', { name: 'On this page' }).count()).toBe(0);
    await page.locator('summary', { hasText: 'On this page' }).click();
    const outline = page.getByRole('navigation', { name: 'On this page' });
    await outline.getByRole('link', { name: 'Strict by design' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#strict-by-design');
    await expect
      .poll(() =>
        page.locator('#strict-by-design').evaluate((element) => element.getBoundingClientRect().top),
      )
      .toBeLessThan(200);
  });
});
