import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';
import { openSignedInPage } from './support/fixture.ts';
import { openSection } from './support/journeys.ts';
import { type RunningServer, startServer } from './support/server.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('payments on a fresh clone (both sandboxes)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('says test mode at start-up and on every dashboard section', async () => {
    // The banner is printed once the gateway is up too, which can be after the API answers.
    await expect
      .poll(() => server.output(), { timeout: 15_000 })
      .toContain('Payments: TEST MODE: payments are simulated (Cryptomus and Bitcart sandbox)');
    const { context, page } = await openSignedInPage(browser, server, {
      viewport: { width: 1280, height: 900 },
    });
    const banner = page.getByTestId('test-mode-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toBe('Test mode: payments are simulated');
    await openSection(page, 'Orders');
    expect(await banner.isVisible()).toBe(true);
    await context.close();
  });

  it('shows a short payment in a coin with no USD amount as Under review, crediting nothing', async () => {
    const { context, page } = await openSignedInPage(browser, server, {
      viewport: { width: 1280, height: 900 },
    });
    await openSection(page, 'Top-up');
    await page.getByRole('button', { name: '$25', exact: true }).click();
    await page.getByRole('button', { name: 'Pay with Cryptomus' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page
      .frameLocator('iframe[title="Payment"]')
      .getByRole('button', { name: 'Pay half in BTC and stop (no USD amount reported)' })
      .click();
    await page.getByText('Your payment arrived short and is under review.', { exact: false }).waitFor({
      timeout: 20_000,
    });
    await dialog.waitFor({ state: 'detached' });
    expect(await page.getByTestId('balance').textContent()).toBe('$0.00');
    await openSection(page, 'Orders');
    await page.getByRole('row').filter({ hasText: 'Under review' }).waitFor();
    await context.close();
  });
});

describe('payments beside a real Cryptomus (PAYMENTS_SANDBOX=auto)', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({
      CRYPTOMUS_MERCHANT_ID: 'merchant',
      CRYPTOMUS_API_KEY: 'payment-key',
      // Never contacted: nothing is paid in this test.
      CRYPTOMUS_API_URL: 'http://127.0.0.1:9',
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('disables the Bitcart button with a note, and shows no test-mode banner', async () => {
    await expect
      .poll(() => server.output(), { timeout: 15_000 })
      .toContain('Payments: Cryptomus live; Bitcart unavailable (no credentials)');
    expect(server.output()).not.toContain('TEST MODE');
    const { context, page } = await openSignedInPage(browser, server, {
      viewport: { width: 1280, height: 900 },
    });
    await openSection(page, 'Top-up');
    await page.getByRole('button', { name: '$10', exact: true }).click();
    await page
      .getByText('Payments with Bitcart are not available right now. Please use another payment method.')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Pay with Bitcart' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Pay with Cryptomus' }).isDisabled()).toBe(false);
    expect(await page.getByTestId('test-mode-banner').count()).toBe(0);
    expect(await page.getByText('Test mode.').count()).toBe(0);
    await context.close();
  });
});
