// Thread raises as a flow (issue 15): a customer with a plan asks for more threads from Proxy Setup
// (inline errors first), support finds the request in the console's queue and approves a different
// number with a message, and the customer sees the new limit and the answer; then a request declined
// with a message, and one the customer cancels. axe checks the console page, its approve dialog, the
// customer's dialog and the Threads card at a desktop and a phone width. Staff are made with
// `bytegate staff grant`, which needs the server on PostgreSQL (see support/staff.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type Violation } from './support/axe.ts';
import { saveScreenshot } from './support/browser.ts';
import { type ConsoleSuite, settled, startConsoleSuite } from './support/console.ts';
import { openSection, type TestAccount } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';
import { hasTestPostgres } from './support/staff.ts';

const PURPOSE = 'Price monitoring of 40 retail sites, about 800 parallel crawlers at peak.';

describe.runIf(hasTestPostgres)('thread requests from the dashboard to the console and back', () => {
  let server: RunningServer;
  let suite: ConsoleSuite;
  let customerPage: Page;
  let customer: TestAccount;
  let page: Page;
  let staff: TestAccount;

  beforeAll(async () => {
    suite = await startConsoleSuite({ staffRole: 'support' });
    ({ server } = suite);
    ({ page: customerPage, account: customer } = suite.customer);
    ({ page, account: staff } = suite.staff);
  });

  afterAll(async () => {
    await suite?.stop();
  });

  /** The customer's Proxy Setup, opened afresh (through the drawer on a phone), and its Threads card. */
  async function openThreadsCard(width = 1280) {
    await customerPage.goto(`${server.url}/dashboard`);
    if (width < 768) {
      await customerPage.getByRole('button', { name: 'Toggle Sidebar' }).click();
    }
    await openSection(customerPage, 'Proxy Setup');
    await customerPage.getByRole('heading', { level: 1, name: 'Proxy Setup' }).waitFor();
    await settled(customerPage);
    return customerPage.getByRole('region', { name: 'Threads' });
  }

  /** The console's queue of thread requests with a status filter, opened from the console's menu. */
  async function openQueue(filter = 'Pending') {
    await page.goto(`${server.url}/admin`);
    await page
      .getByRole('navigation', { name: 'Console' })
      .first()
      .getByRole('link', { name: 'Thread requests' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Thread requests' }).waitFor();
    if (filter !== 'Pending') {
      await page
        .getByRole('navigation', { name: 'Filter by status' })
        .getByRole('link', { name: new RegExp(`^${filter}`) })
        .click();
    }
    await settled(page);
  }

  /** The customer's request in the queue. */
  const requestItem = () => page.getByRole('listitem').filter({ hasText: customer.email });

  /** Sends a valid request for `threads` from the customer's Threads card. */
  async function askFor(threads: number): Promise<void> {
    const card = await openThreadsCard();
    await card.getByRole('button', { name: 'Request more threads' }).click();
    const dialog = customerPage.getByRole('dialog', { name: 'Request more threads' });
    await dialog.getByLabel(/Threads you need/).fill(String(threads));
    await dialog.getByLabel('What are they for?').fill(PURPOSE);
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card.getByText('Pending', { exact: true }).waitFor();
  }

  /** The outbox's messages (the server has no SMTP_URL): their subjects, oldest first. */
  function outboxSubjects(): string[] {
    const dir = join(server.dataDir, 'outbox');
    return readdirSync(dir)
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .map((name) => /^Subject: (.*)$/m.exec(readFileSync(join(dir, name), 'utf8'))?.[1] ?? '');
  }

  it('lets the customer ask for more threads from Proxy Setup, refusing bad input inline', async () => {
    const card = await openThreadsCard();
    expect(await card.getByTestId('thread-limit').textContent()).toBe('500');
    await card.getByRole('button', { name: 'Request more threads' }).click();
    const dialog = customerPage.getByRole('dialog', { name: 'Request more threads' });
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await dialog.getByText('Please enter a whole number of threads.').waitFor();
    await dialog.getByText('Please describe what the threads are for.').waitFor();

    await dialog.getByLabel(/Threads you need/).fill('400');
    await dialog.getByLabel('What are they for?').fill('scraping');
    await dialog.getByLabel(/Website/).fill('not a website');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await dialog.getByText('Requested threads must be more than your current limit of 500.').waitFor();
    await dialog.getByText('Purpose must be at least 20 characters.').waitFor();
    await dialog.getByText('Please enter a valid website address, such as https://example.com.').waitFor();
    // Each error is tied to its field for screen readers.
    expect(await dialog.getByLabel(/Threads you need/).getAttribute('aria-invalid')).toBe('true');

    await dialog.getByLabel(/Threads you need/).fill('800');
    await dialog.getByLabel('What are they for?').fill(PURPOSE);
    await dialog.getByLabel(/Company/).fill('Acme Retail');
    await dialog.getByLabel(/Website/).fill('acme-retail.example.com');
    await dialog.getByRole('button', { name: 'Send request' }).click();
    await dialog.waitFor({ state: 'detached' });
    await customerPage.getByText('Request sent').waitFor();
    await card.getByText('Pending', { exact: true }).waitFor();
    await card.getByText(/^You asked for 800 threads on /).waitFor();
    expect(await card.getByRole('button', { name: 'Request more threads' }).count()).toBe(0);
    // Focus went to the request's status, not to the page's start.
    await customerPage.waitForFunction(
      () => document.activeElement?.getAttribute('aria-labelledby')?.startsWith('thread-request-') === true,
    );
  });

  it('shows support the request in the queue, which approves a different number with a message', async () => {
    await openQueue();
    const item = requestItem();
    await item.getByText(PURPOSE).waitFor();
    await item.getByText('Acme Retail').waitFor();
    await item.getByRole('link', { name: /acme-retail\.example\.com/ }).waitFor();
    expect(await item.getByText('Threads now').locator('..').textContent()).toContain('500');
    expect(await item.getByText('Asked for', { exact: true }).locator('..').textContent()).toContain('800');

    await item
      .getByRole('button', { name: `Approve the request of ${customer.email.toLowerCase()}` })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Approve thread request' });
    expect(await dialog.getByLabel(/Threads to grant/).inputValue()).toBe('800');
    await dialog.getByLabel(/Threads to grant/).fill('500');
    await dialog.getByRole('button', { name: 'Approve 500 threads' }).click();
    await dialog.getByText(/more than the plan's current limit of 500/).waitFor();
    await dialog.getByLabel(/Threads to grant/).fill('750');
    await dialog
      .getByLabel(/Message to the customer/)
      .fill('Approved 750 for now; ask again when you need more.');
    await dialog.getByRole('button', { name: 'Approve 750 threads' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText(/now allows 750 threads/).waitFor();
    await page.getByText('No requests waiting').waitFor();

    await openQueue('Approved');
    const approved = requestItem();
    await approved.getByText(`Approved by ${staff.email.toLowerCase()}`, { exact: false }).waitFor();
    await approved.getByText('Approved 750 for now; ask again when you need more.').waitFor();
  });

  it('shows the customer the new limit and support’s answer, and mails it', async () => {
    const card = await openThreadsCard();
    expect(await card.getByTestId('thread-limit').textContent()).toBe('750');
    await card.getByText('Approved', { exact: true }).waitFor();
    await card.getByText(/your limit was raised to 750 threads \(you asked for 800 threads\)/).waitFor();
    await card.getByText('Approved 750 for now; ask again when you need more.').waitFor();
    await card.getByRole('button', { name: 'Request more threads' }).waitFor();
    const plans = (await (await customerPage.request.get(`${server.url}/api/subuser/plans`)).json()) as {
      plans: Array<{ threads: number }>;
    };
    expect(plans.plans[0]?.threads).toBe(750);
    expect(outboxSubjects().at(-1)).toMatch(/^Thread limit raised: Datacenter \(bg/);
  });

  it('declines a request with a message the customer reads, and lets the customer cancel one', async () => {
    await askFor(5000);
    await openQueue();
    await requestItem()
      .getByRole('button', { name: /^Decline the request/ })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Decline thread request' });
    await dialog.getByRole('button', { name: 'Decline request' }).click();
    await dialog.getByText('Please tell the customer why the request is declined.').waitFor();
    await dialog
      .getByLabel(/Message to the customer/)
      .fill('5,000 threads needs a call with our team first: please write to us through the contact page.');
    await dialog.getByRole('button', { name: 'Decline request' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('No requests waiting').waitFor();
    expect(outboxSubjects().at(-1)).toMatch(/^Thread limit request declined: Datacenter/);

    let card = await openThreadsCard();
    expect(await card.getByTestId('thread-limit').textContent()).toBe('750');
    await card.getByText('Declined', { exact: true }).waitFor();
    await card.getByText(/5,000 threads needs a call with our team first/).waitFor();
    // The approval before it is folded away under the earlier requests.
    await card.getByText('Earlier requests (1)').click();
    await card.getByText(/raised to 750 threads/).waitFor();

    await askFor(1000);
    card = customerPage.getByRole('region', { name: 'Threads' });
    await card.getByRole('button', { name: 'Cancel request' }).click();
    const confirm = customerPage.getByRole('dialog', { name: 'Cancel this request?' });
    await confirm.getByRole('button', { name: 'Cancel request' }).click();
    await confirm.waitFor({ state: 'detached' });
    await card.getByText(/^You cancelled your request for 1,000 threads/).waitFor();
    await card.getByRole('button', { name: 'Request more threads' }).waitFor();
    await openQueue('Cancelled');
    await requestItem()
      .getByText(/^Cancelled by the customer/)
      .waitFor();
  });

  for (const width of [1280, 375]) {
    it(`has no axe violations on the queue, its dialogs and the customer's at ${width} px`, async () => {
      await customerPage.setViewportSize({ width, height: 900 });
      await page.setViewportSize({ width, height: 900 });
      const found: Record<string, Violation[]> = {};
      const check = async (target: Page, name: string) => {
        const violations = await axeViolations(target);
        if (violations.length > 0) {
          found[name] = violations;
        }
        await saveScreenshot(target, `thread-requests-${name}-${width}`);
      };

      // The customer's dialog with its errors showing, then the card with the request pending.
      const card = await openThreadsCard(width);
      await card.getByRole('button', { name: 'Request more threads' }).click();
      const dialog = customerPage.getByRole('dialog', { name: 'Request more threads' });
      await dialog.getByLabel(/Threads you need/).fill('100');
      await dialog.getByRole('button', { name: 'Send request' }).click();
      await dialog.getByText('Please describe what the threads are for.').waitFor();
      await check(customerPage, 'customer-dialog');
      await dialog.getByLabel(/Threads you need/).fill(String(1000 + width));
      await dialog.getByLabel('What are they for?').fill(PURPOSE);
      await dialog.getByRole('button', { name: 'Send request' }).click();
      await dialog.waitFor({ state: 'detached' });
      await card.getByText('Pending', { exact: true }).waitFor();
      await card.scrollIntoViewIfNeeded();
      await check(customerPage, 'customer-card');

      await openQueue();
      await requestItem().waitFor();
      await check(page, 'console-queue');
      await requestItem()
        .getByRole('button', { name: /^Approve the request/ })
        .click();
      await page.getByRole('dialog', { name: 'Approve thread request' }).waitFor();
      await check(page, 'console-approve');
      await page.keyboard.press('Escape');
      await openQueue('All');
      await check(page, 'console-all');

      // The next width starts without a pending request: this one is withdrawn.
      await customerPage
        .getByRole('region', { name: 'Threads' })
        .getByRole('button', { name: 'Cancel request' })
        .click();
      await customerPage
        .getByRole('dialog', { name: 'Cancel this request?' })
        .getByRole('button', { name: 'Cancel request' })
        .click();
      await customerPage
        .getByRole('region', { name: 'Threads' })
        .getByTestId('thread-request-summary')
        .getByText(/^You cancelled your request/)
        .waitFor();

      expect(found).toEqual({});
    });
  }
});
