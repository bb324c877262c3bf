// Every public page checked by axe-core (WCAG 2.1 A and AA, and axe's best practices: landmarks, heading
// order, labels, contrast) at a desktop and a phone width, and kept within a 360 px screen.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type Violation } from './support/axe.ts';
import { startServerAndBrowser } from './support/fixture.ts';
import { PUBLIC_PAGES as PAGES } from './support/pages.ts';
import type { RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, browser, stop } = await startServerAndBrowser());
});
afterAll(() => stop?.());

describe('accessibility of the public site', () => {
  // One test a page: 35 pages in one test passed the 60 s test timeout on a loaded machine, and a failure
  // now names its page.
  for (const width of [1280, 375]) {
    describe(`at ${width} px`, () => {
      let page: Page;
      beforeAll(async () => {
        page = await browser.newPage({ viewport: { width, height: 800 } });
      });
      afterAll(() => page?.close());
      it.each(PAGES)('has no axe violations on %s', async (path) => {
        await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
        const violations: Violation[] = await axeViolations(page);
        expect(violations).toEqual([]);
      });
    });
  }

  it('fits every public page into a 360 px screen, cutting no text short', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    for (const path of PAGES) {
      await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      // A country shown as 'United King…' is no country at all: nothing in the content may be clipped.
      const clipped = await page.evaluate(() =>
        Array.from(document.querySelectorAll('main *'))
          .filter((element) => {
            const { overflowX } = getComputedStyle(element);
            const hides = overflowX === 'hidden' || overflowX === 'clip';
            // Screen-reader-only text is 1 px wide on purpose.
            return hides && element.clientWidth > 1 && element.scrollWidth > element.clientWidth + 1;
          })
          .map((element) => element.textContent?.trim()),
      );
      expect(clipped, path).toEqual([]);
    }
    await page.close();
  });

  it('offers a skip link first, which moves focus past the navigation', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/help/targeting`, { waitUntil: 'networkidle' });
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await skip.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    // The next stop is inside the main content, not the header.
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
    await page.close();
  });
});
