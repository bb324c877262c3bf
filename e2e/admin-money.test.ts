// Money and credentials in the staff console (issue 15), as staff and the customer meet them: support
// refunds a purchase from the customer's page (the dialog says to the byte and the cent what moves) and
// the customer's balance and plan follow; a short payment in a coin waits on the Payments page, is
// approved for what arrived and credited once, and "check with provider" says what Cryptomus says;
// a port is opened and closed. axe checks every screen at a desktop and a phone width. Staff are made
// with `bytegate staff grant`, which needs the server on PostgreSQL (see support/staff.ts).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type Violation } from './support/axe.ts';
import { saveScreenshot } from './support/browser.ts';
import { type ConsoleSuite, settled as pageSettled, startConsoleSuite } from './support/console.ts';
import { openSection, type TestAccount } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';
import { hasTestPostgres } from './support/staff.ts';

/** Pays a top-up of `amount` through the Cryptomus sandbox with half of it in BTC and no USD figure. */
async function payShortInBtc(page: Page, amount: string): Promise<void> {
  await openSection(page, 'Top-up');
  await page.getByRole('button', { name: `$${amount}`, exact: true }).click();
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
}

describe.runIf(hasTestPostgres)('money and credentials in the staff console', () => {
  let server: RunningServer;
  let suite: ConsoleSuite;
  let customerPage: Page;
  let customer: TestAccount;
  let page: Page;
  let customerPath: string;

  beforeAll(async () => {
    suite = await startConsoleSuite({ staffRole: 'support' });
    ({ server } = suite);
    ({ page: customerPage, account: customer } = suite.customer);
    ({ page } = suite.staff);
    const found = await page.request.get(
      `${server.url}/api/admin/customers?q=${encodeURIComponent(customer.email)}`,
    );
    const { customers } = (await found.json()) as { customers: Array<{ id: string }> };
    customerPath = `/admin/customers/${customers[0]?.id}`;
  });

  afterAll(async () => {
    await suite?.stop();
  });

  const settled = (target: Page = page) => pageSettled(target);

  async function openCustomer(): Promise<void> {
    await page.goto(`${server.url}${customerPath}`);
    await page.getByRole('heading', { level: 1, name: /Margaret Hamilton/ }).waitFor();
    await settled();
  }

  const stat = (label: string) => page.getByTestId(`stat-${label}`);

  it("refund: staff refund a purchase's unused traffic and the customer's balance and plan follow", async () => {
    await openCustomer();
    expect(await stat('balance').textContent()).toBe('$5.05');
    const orders = page.getByRole('region', { name: 'Orders' });
    const purchaseRow = orders.getByRole('row').filter({ hasText: 'proxy traffic' });
    const refundButton = purchaseRow.getByRole('button', { name: /^Refund BG-/ });
    const orderId = ((await refundButton.getAttribute('aria-label')) ?? '').replace('Refund ', '');
    await refundButton.click();

    const dialog = page.getByRole('dialog', { name: `Refund ${orderId}` });
    const summary = dialog.getByRole('definition');
    await dialog.getByText('5.00 GB of 5.00 GB bought').waitFor();
    expect(await summary.allTextContents()).toEqual([
      '5.00 GB of 5.00 GB bought5,368,709,120 bytes',
      '5.00 GB → 0.00 GB0.00 GB used so far',
      '+$4.95',
      '$5.05 → $10.00',
      expect.stringMatching(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/),
    ]);
    await saveScreenshot(page, 'admin-money-refund-purchase');
    await dialog.getByRole('button', { name: 'Refund $4.95' }).click();
    await dialog.getByText('Reason must be at least 3 characters').waitFor();
    expect(await stat('balance').textContent()).toBe('$5.05');

    await dialog.getByLabel('Reason').fill('Bought the wrong pool, asked within a day (ticket 5120)');
    await dialog.getByRole('button', { name: 'Refund $4.95' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`${orderId} refunded: $4.95 back to the balance`).waitFor();
    expect(await stat('balance').textContent()).toBe('$10.00');
    await purchaseRow.getByText('Refunded $4.95').waitFor();
    expect(await purchaseRow.getByRole('button', { name: `Refund ${orderId}` }).count()).toBe(0);
    await page
      .getByRole('region', { name: 'Plans' })
      .getByText(/^0\.00 GB\s*used of\s*0\.00 GB$/)
      .waitFor();
    await page.getByRole('region', { name: 'Balance ledger' }).getByText('+$4.95').waitFor();
    const audit = page.getByRole('table', { name: 'Staff actions on this customer' });
    await audit.getByText('Order refunded').waitFor();
    await audit.getByText('Bought the wrong pool, asked within a day (ticket 5120)').waitFor();

    // The customer's dashboard says the same after a reload: $10.00, and no traffic left on the plan.
    await customerPage.reload();
    await openSection(customerPage, 'Top-up');
    await customerPage.getByTestId('balance').filter({ hasText: '$10.00' }).waitFor();
    await openSection(customerPage, 'Proxy Setup');
    await customerPage.getByTestId('traffic-left').filter({ hasText: '0.00 GB' }).waitFor();
    await saveScreenshot(customerPage, 'admin-money-customer-after-refund');
  });

  it('payments: a short payment in a coin waits for review, is approved for what arrived and credited once', async () => {
    await payShortInBtc(customerPage, '25');
    await payShortInBtc(customerPage, '10');

    await page
      .getByRole('navigation', { name: 'Console' })
      .first()
      .getByRole('link', { name: 'Payments' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
    await settled();
    const queue = page.getByRole('list', { name: 'Top-ups held for review' });
    const held = queue.getByRole('listitem').filter({ hasText: '$25.00 asked' });
    await held.getByText('0.00020833 BTC sent').waitFor();
    const approve = held.getByRole('button', { name: /^Approve BG-/ });
    const orderId = ((await approve.getAttribute('aria-label')) ?? '').replace('Approve ', '');

    await held.getByRole('button', { name: `Check with provider: ${orderId} at Cryptomus` }).click();
    await held
      .getByText(
        'Cryptomus says “wrong_amount”: paid short, the payer sent 0.00020833 BTC (no USD amount).',
        {
          exact: false,
        },
      )
      .waitFor();

    await approve.click();
    const dialog = page.getByRole('dialog', { name: `Approve ${orderId}` });
    await dialog.getByText('0.00020833 BTC').waitFor();
    await dialog.getByLabel('Amount to credit (USD)').fill('30');
    await dialog.getByText("At most the invoice's $25.00", { exact: false }).waitFor();
    await dialog.getByLabel('Amount to credit (USD)').fill('12.50');
    await dialog
      .getByLabel('Reason')
      .fill('0.00020833 BTC arrived: $12.50 at the day’s rate (Cryptomus dashboard)');
    await dialog.getByRole('button', { name: 'Approve and credit $12.50' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(`${orderId} approved: $12.50 credited`).waitFor();
    await held.waitFor({ state: 'detached' });

    // The order among all payments: completed, $12.50 credited, its webhook and a check that changes nothing.
    const search = page.getByLabel('Search');
    await search.fill(orderId);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('1 payment matches').waitFor();
    const payments = page.getByRole('table', { name: 'Payments' });
    await payments.getByText('$12.50 credited').waitFor();
    await payments.getByRole('button', { name: `Show 1 event of ${orderId}` }).click();
    const events = page.getByRole('list', { name: `Provider events of ${orderId}` });
    await events.getByText('wrong_amount', { exact: true }).waitFor();
    await events.getByText('Signature valid').waitFor();
    await payments.getByRole('button', { name: `Check with provider: ${orderId} at Cryptomus` }).click();
    await payments.getByText('The order was settled before; nothing changed.', { exact: false }).waitFor();

    await page.getByLabel('Status').selectOption('review');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No payments match these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText(/^\d+ payments$/).waitFor();

    await customerPage.reload();
    await openSection(customerPage, 'Top-up');
    await customerPage.getByTestId('balance').filter({ hasText: '$22.50' }).waitFor();
    await openSection(customerPage, 'Orders');
    await customerPage.getByRole('row').filter({ hasText: orderId }).getByText('Completed').waitFor();
  });

  it('opens a port for the customer and closes it again, with a reason each time', async () => {
    await openCustomer();
    const card = page.getByRole('region', { name: 'Unblocks' });
    await card.getByRole('button', { name: 'Open' }).click();
    const dialog = page.getByRole('dialog', { name: 'Open a port or domain' });
    await dialog.getByLabel('Port').fill('70000');
    await dialog.getByLabel('Reason').fill('Mail relay for the customer’s own domain');
    await dialog.getByRole('button', { name: 'Open port' }).click();
    await dialog.getByText('Port must be a whole number from 1 to 65535').waitFor();
    await dialog.getByLabel('Port').fill('25');
    await dialog.getByRole('button', { name: 'Open port' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.getByRole('list', { name: 'Unblocked ports' }).getByText('25').waitFor();

    await card.getByRole('button', { name: 'Close port 25' }).click();
    const close = page.getByRole('dialog', { name: 'Close port 25?' });
    await close.getByLabel('Reason').fill('Mail relay moved elsewhere');
    await close.getByRole('button', { name: 'Close port' }).click();
    await close.waitFor({ state: 'detached' });
    await card.getByText('Nothing opened', { exact: false }).waitFor();
    await page
      .getByRole('table', { name: 'Staff actions on this customer' })
      .getByText('Unblocks changed')
      .first()
      .waitFor();
  });

  for (const width of [1280, 375]) {
    it(`has no axe violations on the money screens at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const found: Record<string, Violation[]> = {};
      const check = async (name: string) => {
        await settled();
        const violations = await axeViolations(page);
        if (violations.length > 0) {
          found[name] = violations;
        }
        await saveScreenshot(page, `admin-money-${name}-${width}`);
      };

      await openCustomer();
      await check('customer');
      const topupRow =
        width > 767
          ? page
              .getByRole('region', { name: 'Orders' })
              .getByRole('row')
              .filter({ hasText: 'Cryptomus' })
              .last()
          : page
              .getByRole('region', { name: 'Orders' })
              .getByRole('listitem')
              .filter({ hasText: 'top-up' })
              .last();
      await topupRow.getByRole('button', { name: /^Refund BG-/ }).click();
      await page.getByRole('dialog').getByText('Taken off the balance').waitFor();
      await check('refund-topup');
      await page.keyboard.press('Escape');

      await page.getByRole('button', { name: /^New password for / }).click();
      await page.getByRole('dialog', { name: 'Replace the proxy password?' }).waitFor();
      await check('new-password');
      await page.keyboard.press('Escape');

      await page.getByRole('region', { name: 'Unblocks' }).getByRole('button', { name: 'Open' }).click();
      await page.getByRole('dialog').getByRole('radio', { name: 'Domain' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Open domain' }).click();
      await page.getByRole('dialog').getByText('Reason must be at least 3 characters').waitFor();
      await check('open-unblock');
      await page.keyboard.press('Escape');

      await page.goto(`${server.url}/admin/payments`);
      await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
      await check('payments');
      const held = page.getByRole('list', { name: 'Top-ups held for review' }).getByRole('listitem').first();
      await held.getByRole('button', { name: /^Approve BG-/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Approve and credit' }).click();
      await page.getByRole('dialog').getByText('Reason must be at least 3 characters').waitFor();
      await check('approve');
      await page.keyboard.press('Escape');

      await page
        .getByRole('button', { name: /^Show \d+ events? of BG-/ })
        .first()
        .click();
      await page.getByRole('list', { name: /^Provider events of / }).waitFor();
      await check('payment-details');

      expect(found).toEqual({});
    });
  }

  it('rejects the other held top-up: nothing is credited', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.url}/admin/payments`);
    await settled();
    const held = page.getByRole('list', { name: 'Top-ups held for review' }).getByRole('listitem');
    await held.getByRole('button', { name: /^Reject BG-/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Reject BG-/ });
    await dialog.getByLabel('Reason').fill('Nothing usable arrived on chain');
    await dialog.getByRole('button', { name: 'Reject top-up' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Nothing waits for review').waitFor();
    await customerPage.reload();
    await openSection(customerPage, 'Top-up');
    await customerPage.getByTestId('balance').filter({ hasText: '$22.50' }).waitFor();
  });
});
