// Issue 19, the money screens: what a picky customer met in Top-up, the checkout, Plans & Pricing and
// Orders at 1280 and 375 px, each checked as a person meets it (and by axe where the screen changed).
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { saveScreenshot } from './support/browser.ts';
import { openSignedInPage, startServerAndBrowser } from './support/fixture.ts';
import { openSection, topUp } from './support/journeys.ts';
import { horizontalOverflow, isWithinViewport, scrollPageTo } from './support/layout.ts';
import type { RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ server, browser, stop } = await startServerAndBrowser());
  ({ context, page } = await openSignedInPage(browser, server, { viewport: { width: 1280, height: 900 } }));
});
afterAll(async () => {
  await context?.close();
  await stop?.();
});
// A test that fails with the checkout still open leaves the next one a page it can use.
afterEach(async () => {
  const close = page.getByRole('dialog').getByRole('button', { name: 'Close' });
  if (await close.count()) {
    await close.first().click();
  }
});

const balanceText = () => page.getByTestId('balance').textContent();
/** The order form of a pool: the card titled 'Order <pool> traffic'. */
const orderForm = (pool: string) =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: `Order ${pool} traffic` }) });
const payButton = (provider: 'Cryptomus' | 'Bitcart') =>
  page.getByRole('button', { name: `Pay with ${provider}` });

/** Opens a checkout of a quick amount and waits for the provider's sandbox page in its frame. */
async function openCheckout(provider: 'Cryptomus' | 'Bitcart', amount: string): Promise<FrameLocator> {
  await openSection(page, 'Top-up');
  await page.getByRole('button', { name: `$${amount}`, exact: true }).click();
  await payButton(provider).click();
  await page.getByRole('dialog').waitFor();
  const frame = page.frameLocator('iframe[title="Payment"]');
  await frame.getByText('TEST MODE').waitFor();
  return frame;
}

/** Goes to a dashboard section by its address (works at any width, drawer or not). */
async function goToSection(target: Page, id: string, heading: string): Promise<void> {
  await target.goto(`${server.url}/dashboard?section=${id}`);
  await target.getByRole('heading', { level: 1, name: heading }).waitFor();
}

describe('Top-up amount', () => {
  it('says why the buttons are disabled as the amount is typed, and asks for an amount when it is emptied', async () => {
    await openSection(page, 'Top-up');
    const amount = page.getByLabel('Amount (USD)');
    await amount.fill('4');
    // No blur: the reason shows at once, tied to the field.
    await page.getByText('Minimum top-up amount is $5.00').waitFor({ timeout: 2_000 });
    expect(await amount.getAttribute('aria-invalid')).toBe('true');
    expect(await payButton('Cryptomus').isDisabled()).toBe(true);
    await amount.fill('');
    await page.getByText('Please enter a valid amount').waitFor({ timeout: 2_000 });
    expect(await payButton('Bitcart').isDisabled()).toBe(true);
    await amount.fill('12');
    expect(await page.getByText('Please enter a valid amount').count()).toBe(0);
    expect(await amount.getAttribute('aria-invalid')).toBeNull();
    expect(await payButton('Cryptomus').isDisabled()).toBe(false);
  });
});

describe('the checkout dialog', () => {
  for (const provider of ['Cryptomus', 'Bitcart'] as const) {
    it(`${provider}: says the status in words, and Escape inside the payment frame closes it`, async () => {
      const frame = await openCheckout(provider, '5');
      const dialog = page.getByRole('dialog');
      // The first poll brings the provider's own status word (Cryptomus 'check', Bitcart 'PENDING').
      await page.waitForResponse((response) =>
        response.url().includes(`/api/topup/${provider.toLowerCase()}/status`),
      );
      await page.waitForTimeout(300);
      const status = (await dialog.getByRole('status').textContent()) ?? '';
      expect(status).toContain('Waiting for your payment');
      expect(status).not.toMatch(/\b(check|pending|PENDING)\b/);
      await saveScreenshot(page, `checkout-${provider.toLowerCase()}-1280`);

      // Focus inside the payment page, as after clicking in it; Escape still closes the dialog.
      await frame.getByRole('heading', { level: 1 }).click();
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached', timeout: 3_000 });
      // Focus returns to the page, not lost with the frame.
      expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('IFRAME');
    });

    it(`${provider}: the payment page's Back to Bytegate link leaves the frame`, async () => {
      const frame = await openCheckout(provider, '5');
      const back = frame.getByRole('link', { name: 'Back to Bytegate' });
      await back.click();
      await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 5_000 });
      // Nothing of the dashboard was loaded inside a frame; the top window shows the dashboard.
      await page.getByRole('heading', { level: 1, name: 'Top Up Balance' }).waitFor();
      expect(page.frames().filter((f) => f !== page.mainFrame() && f.url().includes('/dashboard'))).toEqual(
        [],
      );
      expect(new URL(page.url()).pathname).toBe('/dashboard');
    });
  }
});

describe('a partial payment', () => {
  it('Cryptomus: the checkout says what was credited, and Orders shows invoiced and credited', async () => {
    const frame = await openCheckout('Cryptomus', '10');
    await frame.getByRole('button', { name: 'Pay half and stop', exact: true }).click();
    await page.getByText('Partial payment credited').waitFor({ timeout: 20_000 });
    await page.getByText('$5.00 of the $10.00 invoice reached us', { exact: false }).waitFor();
    expect(await page.getByText('Payment successful').count()).toBe(0);
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(balanceText).toBe('$5.00');

    await openSection(page, 'Orders');
    const row = page.getByRole('row').filter({ hasText: '$10.00 invoiced' });
    await row.waitFor();
    expect(await row.textContent()).toContain('$5.00 credited');
  });

  it('Bitcart: a payment that stopped at half is credited as half, and said so', async () => {
    const frame = await openCheckout('Bitcart', '10');
    await frame.getByRole('button', { name: 'Pay half, then let it expire' }).click();
    await page.getByText('Partial payment credited').waitFor({ timeout: 20_000 });
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(balanceText).toBe('$10.00');
    await openSection(page, 'Orders');
    await expect.poll(() => page.getByRole('row').filter({ hasText: '$5.00 credited' }).count()).toBe(2);
  });

  it('a full payment reads as its amount alone', async () => {
    await topUp(page, 'Cryptomus', '25');
    await openSection(page, 'Orders');
    const full = page.getByRole('row').filter({ hasText: '$25.00' });
    await full.waitFor();
    expect(await full.textContent()).toContain('Completed');
    expect(await full.textContent()).not.toContain('credited');
  });
});

describe('Plans & Pricing', () => {
  it('lands on the Proxy Settings of the pool just bought', async () => {
    // $35 in: 5 GB of datacenter ($4.95), then 5 GB of mobile ($19.95).
    await openSection(page, 'Plans & Pricing');
    await page.getByRole('button', { name: 'Choose Datacenter' }).click();
    await page.getByRole('button', { name: 'Purchase $4.95' }).click();
    await page.getByRole('heading', { level: 1, name: 'Proxy Settings' }).waitFor();
    const pools = page.getByRole('radiogroup', { name: 'Pool type' });
    await expect
      .poll(() => pools.getByRole('radio', { name: 'Datacenter' }).getAttribute('aria-checked'))
      .toBe('true');

    await openSection(page, 'Plans & Pricing');
    await page.getByRole('button', { name: 'Choose Mobile' }).click();
    await page.getByRole('button', { name: 'Purchase $19.95' }).click();
    await page.getByRole('heading', { level: 1, name: 'Proxy Settings' }).waitFor();
    await expect
      .poll(() => pools.getByRole('radio', { name: 'Mobile' }).getAttribute('aria-checked'))
      .toBe('true');
  });

  it('at 375 px: choosing scrolls the order form into view and moves focus there; the card title chooses too', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await goToSection(page, 'plans', 'Plans & Pricing');
    await page.getByRole('button', { name: 'Choose Datacenter' }).click();
    const form = orderForm('Datacenter');
    await form.waitFor();
    await expect.poll(() => isWithinViewport(page, form.getByLabel('Quantity (GB)'))).toBe(true);
    await expect.poll(() => form.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await saveScreenshot(page, 'plans-order-375');

    // The title (or anywhere on the card) chooses the plan: a click where a person sees the title.
    const heading = page.getByRole('heading', { level: 2, name: 'Residential', exact: true });
    await heading.scrollIntoViewIfNeeded();
    const title = await heading.boundingBox();
    expect(title).not.toBeNull();
    await page.mouse.click((title?.x ?? 0) + 10, (title?.y ?? 0) + (title?.height ?? 0) / 2);
    const residential = orderForm('Residential');
    await residential.waitFor();
    expect(await page.getByRole('button', { name: 'Choose Residential' }).count()).toBe(0);
    await expect.poll(() => isWithinViewport(page, residential.getByLabel('Quantity (GB)'))).toBe(true);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });

  it('checks the quantity as it is typed, says the limits up front, and groups thousands in totals', async () => {
    const form = orderForm('Residential');
    const quantity = form.getByLabel('Quantity (GB)');
    // Both limits are said before anything is typed.
    await form.getByText('Whole GB, from 5 to 100,000.').waitFor();
    const refusals: Array<[string, string]> = [
      ['4', 'The minimum purchase is 5 GB'],
      ['0', 'The minimum purchase is 5 GB'],
      ['-3', 'The minimum purchase is 5 GB'],
      ['5.5', 'Quantity must be a whole number of GB'],
      ['', 'Quantity must be a whole number of GB'],
      ['100001', 'The maximum purchase is 100,000 GB'],
    ];
    for (const [typed, message] of refusals) {
      await quantity.fill(typed);
      await form.getByText(message).waitFor({ timeout: 2_000 });
      expect(await quantity.getAttribute('aria-invalid'), typed).toBe('true');
      // No total from an earlier, valid quantity.
      expect(await form.getByTestId('order-total').count(), typed).toBe(0);
      expect(await form.getByRole('button', { name: /^Purchase/ }).isDisabled(), typed).toBe(true);
    }
    await saveScreenshot(page, 'plans-quantity-refused-375');
    expect(await axeViolations(page)).toEqual([]);

    await quantity.fill('1000');
    expect(await quantity.getAttribute('aria-invalid')).toBeNull();
    await expect.poll(() => form.getByTestId('order-total').textContent()).toBe('$1,990.00');
    await form.getByRole('button', { name: 'Purchase $1,990.00' }).waitFor();
    await quantity.fill('100000');
    await expect.poll(() => form.getByTestId('order-total').textContent()).toBe('$199,000.00');
    await form.getByText('100,000 GB ×', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

describe('Orders', () => {
  it("counts one order as '1 order'", async () => {
    const fresh = await openSignedInPage(browser, server, { viewport: { width: 1280, height: 900 } });
    try {
      await openSection(fresh.page, 'Top-up');
      await fresh.page.getByRole('button', { name: '$5', exact: true }).click();
      await fresh.page.getByRole('button', { name: 'Pay with Cryptomus' }).click();
      await fresh.page.getByRole('dialog').waitFor();
      await fresh.page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
      await openSection(fresh.page, 'Orders');
      await fresh.page.getByText('1 order', { exact: true }).waitFor();
      expect(await fresh.page.getByText('1 orders').count()).toBe(0);
    } finally {
      await fresh.context.close();
    }
  });

  it('at 375 px shows each order’s amount, status and invoice without sideways scrolling', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await goToSection(page, 'orders', 'Orders');
    const invoices = page.getByRole('button', { name: /^Invoice for order/ });
    await invoices.first().waitFor();
    const count = await invoices.count();
    expect(count).toBeGreaterThan(5);
    // Scrolled up and down only: what needs a sideways scroll is out of view.
    for (let index = 0; index < count; index++) {
      const invoice = invoices.nth(index);
      await scrollPageTo(invoice);
      expect(await isWithinViewport(page, invoice), `invoice ${index}`).toBe(true);
    }
    for (const text of ['Completed', 'Pending', '$25.00', '$10.00 invoiced', '$5.00 credited']) {
      const shown = page.getByText(text, { exact: true }).first();
      await scrollPageTo(shown);
      expect(await isWithinViewport(page, shown), text).toBe(true);
    }
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'orders-375');
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

describe('accessibility of the changed money screens', () => {
  for (const width of [1280, 375]) {
    it(`has no axe violations in Top-up (with a refusal), the checkout, Plans and Orders at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 800 });
      await goToSection(page, 'topup', 'Top Up Balance');
      await page.getByLabel('Amount (USD)').fill('3');
      await page.getByText('Minimum top-up amount is $5.00').waitFor();
      expect(await axeViolations(page), 'top-up').toEqual([]);
      await saveScreenshot(page, `topup-refused-${width}`);

      await page.getByRole('button', { name: '$5', exact: true }).click();
      await payButton('Bitcart').click();
      await page.getByRole('dialog').waitFor();
      await page.frameLocator('iframe[title="Payment"]').getByText('TEST MODE').waitFor();
      expect(await axeViolations(page), 'checkout').toEqual([]);
      await saveScreenshot(page, `checkout-${width}`);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });

      await goToSection(page, 'plans', 'Plans & Pricing');
      await page.getByRole('button', { name: 'Choose Mobile' }).click();
      await orderForm('Mobile').waitFor();
      expect(await axeViolations(page), 'plans').toEqual([]);
      await saveScreenshot(page, `plans-${width}`);

      await goToSection(page, 'orders', 'Orders');
      await page
        .getByRole('button', { name: /^Invoice for order/ })
        .first()
        .waitFor();
      // Where the table shows, all of it shows: no column behind a sideways scroll.
      const hiddenSideways = await page
        .locator('table')
        .evaluateAll((tables) =>
          tables.map(
            (table) => (table.parentElement?.scrollWidth ?? 0) - (table.parentElement?.clientWidth ?? 0),
          ),
        );
      expect(Math.max(0, ...hiddenSideways), 'orders table').toBe(0);
      expect(await axeViolations(page), 'orders').toEqual([]);
      await saveScreenshot(page, `orders-${width}`);
    });
  }
});
