import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/browser.ts';
import { startSignedInSuite } from './support/fixture.ts';
import { openSection as openSectionIn, topUp as topUpIn } from './support/journeys.ts';

let context: BrowserContext;
let page: Page;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ context, page, stop } = await startSignedInSuite({
    context: { viewport: { width: 1280, height: 900 } },
  }));
});
afterAll(() => stop?.());

const openSection = (name: string) => openSectionIn(page, name);
const balanceText = () => page.getByTestId('balance').textContent();
const topUp = (provider: 'Cryptomus' | 'Bitcart', amount: string) => topUpIn(page, provider, amount);

describe('billing in the browser', () => {
  it('refuses amounts under $5 and keeps the payment buttons disabled', async () => {
    await openSection('Top-up');
    const amount = page.getByLabel('Amount (USD)');
    await amount.fill('4');
    await amount.blur();
    await page.getByText('Minimum top-up amount is $5.00').waitFor();
    expect(await page.getByRole('button', { name: 'Pay with Cryptomus' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Pay with Bitcart' }).isDisabled()).toBe(true);
    await amount.fill('');
    await amount.pressSequentially('12abc.5x');
    expect(await amount.inputValue()).toBe('12.5');
    expect(await page.getByRole('button', { name: 'Pay with Cryptomus' }).isDisabled()).toBe(false);
    await page.getByText('Test mode.').waitFor();
  });

  it('tops up $10 through each provider’s sandbox checkout and sees the balance and completed orders', async () => {
    await topUp('Cryptomus', '10');
    await expect.poll(balanceText).toBe('$10.00');
    await topUp('Bitcart', '10');
    await expect.poll(balanceText).toBe('$20.00');
    await saveScreenshot(page, 'topup-1280');

    await openSection('Orders');
    const rows = page.getByRole('row');
    await expect.poll(() => rows.filter({ hasText: 'Completed' }).count()).toBe(2);
    expect(await rows.filter({ hasText: 'Cryptomus' }).count()).toBe(1);
    expect(await rows.filter({ hasText: 'Bitcart' }).count()).toBe(1);
  });

  it('buys 5 GB of datacenter traffic: the balance drops by $4.95, the plan and its invoice appear', async () => {
    await openSection('Plans & Pricing');
    await page.getByRole('button', { name: 'Choose Datacenter' }).click();
    await expect.poll(() => page.getByTestId('order-total').textContent()).toBe('$4.95');
    // Under the minimum: said at once, and no total from the last valid quantity.
    await page.getByLabel('Quantity (GB)').fill('3');
    await page.getByText('The minimum purchase is 5 GB').waitFor();
    expect(await page.getByTestId('order-total').count()).toBe(0);
    await page.getByLabel('Quantity (GB)').fill('6');
    expect(await page.getByTestId('order-total').textContent()).toBe('$5.94');
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('order-total').count()).toBe(0);

    await page.getByRole('button', { name: 'Choose Datacenter' }).click();
    await page.getByRole('button', { name: 'Purchase $4.95' }).click();
    await page.getByRole('heading', { level: 1, name: 'Proxy Settings' }).waitFor();

    await openSection('Plans & Pricing');
    await expect.poll(balanceText).toBe('$15.05');
    await openSection('Dashboard');
    const activePlans = page.getByRole('region', { name: 'Overview' });
    await expect.poll(() => activePlans.getByText('5.00', { exact: true }).count()).toBe(1);

    await openSection('Orders');
    const purchase = page.getByRole('row').filter({ hasText: 'Datacenter proxy traffic, 5 GB' });
    await purchase.waitFor();
    const [invoiceTab] = await Promise.all([
      context.waitForEvent('page'),
      purchase.getByRole('button', { name: /Invoice/ }).click(),
    ]);
    await invoiceTab.waitForLoadState();
    await expect.poll(() => invoiceTab.getByText('Datacenter proxy traffic, 5 GB').count()).toBe(1);
    expect(await invoiceTab.getByText('$4.95').count()).toBeGreaterThan(0);
    await invoiceTab.close();
    await saveScreenshot(page, 'orders-1280');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('shows the Insufficient Balance toast for a purchase the balance does not cover', async () => {
    await openSection('Plans & Pricing');
    await page.getByRole('button', { name: 'Choose Mobile' }).click();
    await page.getByLabel('Quantity (GB)').fill('100');
    await page.getByRole('button', { name: 'Purchase $399.00' }).click();
    await page.getByText('Insufficient Balance').waitFor();
    await page.getByText('This order needs $399.00; your balance is $15.05.').waitFor();
    await expect.poll(balanceText).toBe('$15.05');
  });

  it("says 'No Invoice Available' for an order without one", async () => {
    await openSection('Top-up');
    await page.getByRole('button', { name: '$5', exact: true }).click();
    await page.getByRole('button', { name: 'Pay with Cryptomus' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // The checkout page's own way back asks the dialog to close.
    await page
      .frameLocator('iframe[title="Payment"]')
      .getByRole('link', { name: 'Back to Bytegate' })
      .click();
    await dialog.waitFor({ state: 'detached' });
    await openSection('Orders');
    const pending = page.getByRole('row').filter({ hasText: 'Pending' });
    await pending.waitFor();
    await pending.getByRole('button', { name: /Invoice/ }).click();
    await page.getByText('No Invoice Available').waitFor();
  });
});
