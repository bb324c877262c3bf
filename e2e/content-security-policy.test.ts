// The Content-Security-Policy is in force on every page (no inline script, scripts from our origin only,
// nobody may frame us), and the product works under it: every public page, every dashboard section, the
// checkout dialog with its sandbox frame and the API reference load without a single violation.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServerAndBrowser } from './support/fixture.ts';
import { buyDatacenterPlan, newAccount, openSection, signUpThroughForm } from './support/journeys.ts';
import { PUBLIC_PAGES, DASHBOARD_SECTIONS as SECTIONS } from './support/pages.ts';
import type { RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Every CSP violation the page or its frames reported, as the console and the DOM event tell it. */
const violations: string[] = [];

function watch(target: Page): void {
  target.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) {
      violations.push(`${target.url()}: ${message.text()}`);
    }
  });
}

let stopServerAndBrowser: () => Promise<void>;

beforeAll(async () => {
  ({ server, browser, stop: stopServerAndBrowser } = await startServerAndBrowser());
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  // Runs before any page script, through the DevTools protocol (the CSP does not govern it).
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(
        `Content Security Policy violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`,
      );
    });
  });
  page = await context.newPage();
  watch(page);
});
afterAll(async () => {
  await context?.close();
  await stopServerAndBrowser?.();
});

describe('the Content-Security-Policy', () => {
  beforeEach(() => {
    violations.length = 0;
  });

  // One test per page: every public page in one test outran the test timeout on a loaded machine.
  it.each(PUBLIC_PAGES)('is sent with %s, and the page does not break it', async (path) => {
    const response = await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp, path).toContain("script-src 'self'");
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(violations).toEqual([]);
  });

  it('refuses an inline script, so the test above would see one', async () => {
    await page.goto(`${server.url}/help`, { waitUntil: 'load' });
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
    // Reported twice: Chromium's own console line and the securitypolicyviolation event.
    await expect.poll(() => violations.length).toBe(2);
  });

  it('holds through sign-up, a sandbox checkout in its frame, a purchase and every dashboard section', async () => {
    await signUpThroughForm(page, server.url, newAccount());
    await buyDatacenterPlan(page);
    for (const section of SECTIONS) {
      await openSection(page, section.label);
      await page.getByRole('heading', { level: 1, name: section.heading }).waitFor();
      await page.waitForLoadState('networkidle');
    }
    expect(violations).toEqual([]);
  });

  it('holds on the API reference', async () => {
    await page.goto(`${server.url}/api/docs`, { waitUntil: 'networkidle' });
    await page.getByText('Bytegate API').first().waitFor();
    expect(violations).toEqual([]);
  });

  it('keeps another site from framing our pages', async () => {
    const framing = await browser.newPage();
    const other = await startFramingSite(server.url);
    try {
      await framing.goto(other.url, { waitUntil: 'load' });
      // The browser puts its own error page in the frame instead of ours.
      const framedUrl = () =>
        framing
          .frames()
          .find((frame) => frame !== framing.mainFrame())
          ?.url() ?? '';
      await expect.poll(framedUrl).toMatch(/^chrome-error:/);
    } finally {
      await framing.close();
      await other.close();
    }
  });
});

/** A page on another origin that frames our sign-in page (a clickjacking attempt). */
async function startFramingSite(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const site = createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(`<!doctype html><title>other</title><iframe src="${target}/login"></iframe>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.2', resolve));
  const address = site.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.2:${port}/`,
    close: () => new Promise((resolve) => site.close(() => resolve())),
  };
}
