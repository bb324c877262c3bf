// The staff console (issue 15) as staff and customers meet it: a customer is kept out, staff sign in
// through the normal login and find the Console in their dashboard, search customers by email and by
// proxy login, adjust a balance with a reason, change a plan's thread limit, disable an account (whose
// session then ends) and enable it again, and read all of it in the audit log. axe checks every screen
// at a desktop and a phone width. Staff are made with `bytegate staff grant`, which needs the server on
// PostgreSQL (see support/staff.ts).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type Violation } from './support/axe.ts';
import { saveScreenshot } from './support/browser.ts';
import { navigateInApp } from './support/console.ts';
import { openSignedInPage, startServerAndBrowser } from './support/fixture.ts';
import { buyDatacenterPlan, logInThroughForm, type TestAccount } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';
import { createSuiteDatabase, grantStaffRole, hasTestPostgres } from './support/staff.ts';

describe.runIf(hasTestPostgres)('the staff console', () => {
  let server: RunningServer;
  let browser: Browser;
  let stopServer: () => Promise<void>;
  let dropDatabase: () => Promise<void>;
  let databaseUrl: string;
  let customerContext: BrowserContext;
  let customerPage: Page;
  let customer: TestAccount;
  let staffContext: BrowserContext;
  let page: Page;
  let staff: TestAccount;
  let proxyLogin: string;

  beforeAll(async () => {
    const database = await createSuiteDatabase();
    databaseUrl = database.databaseUrl;
    dropDatabase = database.drop;
    ({ server, browser, stop: stopServer } = await startServerAndBrowser({ DATABASE_URL: databaseUrl }));
    const viewport = { width: 1280, height: 900 };
    ({
      context: customerContext,
      page: customerPage,
      account: customer,
    } = await openSignedInPage(browser, server, { viewport }));
    await buyDatacenterPlan(customerPage);
    const plans = (await (await customerPage.request.get(`${server.url}/api/subuser/plans`)).json()) as {
      plans: Array<{ login: string }>;
    };
    proxyLogin = plans.plans[0]?.login ?? '';
    ({ context: staffContext, page, account: staff } = await openSignedInPage(browser, server, { viewport }));
    await grantStaffRole(databaseUrl, staff.email, 'admin');
  });

  afterAll(async () => {
    await customerContext?.close();
    await staffContext?.close();
    await stopServer?.();
    await dropDatabase?.();
  });

  /** Waits until the console's skeletons and spinners are gone. */
  async function settled(target: Page = page): Promise<void> {
    await target.waitForLoadState('networkidle');
    await target.waitForFunction(
      () => document.querySelectorAll('[role="status"][aria-label^="Loading"]').length === 0,
    );
  }

  const stat = (label: string) => page.getByTestId(`stat-${label}`);

  it('keeps a customer out: no Console link, a 403 page at /admin, 403 from the API', async () => {
    const sidebar = customerPage.getByRole('navigation', { name: 'Dashboard' });
    await sidebar.getByRole('link', { name: 'Home' }).waitFor();
    expect(await sidebar.getByRole('link', { name: 'Console' }).count()).toBe(0);

    await navigateInApp(customerPage, '/admin');
    await customerPage.getByRole('heading', { level: 1, name: 'This area is for Bytegate staff' }).waitFor();
    expect(await customerPage.getByRole('link', { name: 'Go to your dashboard' }).isVisible()).toBe(true);
    expect(await axeViolations(customerPage)).toEqual([]);

    const answer = await customerPage.request.get(`${server.url}/api/admin/customers?q=`);
    expect(answer.status()).toBe(403);
    expect(((await answer.json()) as { code: string }).code).toBe('FORBIDDEN');
    await customerPage.getByRole('link', { name: 'Go to your dashboard' }).click();
    await customerPage.waitForURL(`${server.url}/dashboard`);
  });

  it('opens from the dashboard for staff, noindex, in a chunk the public pages do not load', async () => {
    await page.reload();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Console' }).click();
    await page.waitForURL(`${server.url}/admin`);
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    await settled();
    expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
    expect(await page.title()).toBe('Customers · Console | Bytegate');

    const landing = await (await fetch(`${server.url}/`)).text();
    expect(landing).not.toMatch(/console-page/);
    for (const file of ['/robots.txt', '/sitemap.xml']) {
      expect(await (await fetch(`${server.url}${file}`)).text()).not.toContain('/admin');
    }
  });

  it('finds the customer by email and by proxy login', async () => {
    const search = page.getByRole('searchbox', { name: 'Search customers' });
    await search.fill(customer.email);
    const results = page.getByRole('table', { name: 'Customers' });
    await page.getByText(`1 customer matches “${customer.email}”`).waitFor();
    expect(await results.getByRole('row').count()).toBe(2);
    await results.getByText('Email', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe(customer.email);

    await search.fill(proxyLogin);
    await page.getByText(`1 customer matches “${proxyLogin}”`).waitFor();
    await results.getByText('Proxy login', { exact: true }).waitFor();
    await results.getByRole('link', { name: new RegExp(customer.email) }).click();

    await page.getByRole('heading', { level: 1, name: /Margaret Hamilton/ }).waitFor();
    await settled();
    expect(await stat('balance').textContent()).toBe('$5.05');
    const plans = page.getByRole('region', { name: 'Plans' });
    await plans.getByText(proxyLogin).waitFor();
    await plans.getByText('Datacenter', { exact: true }).waitFor();
    await page.getByRole('region', { name: 'Balance ledger' }).getByText('-$4.95').waitFor();
  });

  it('adjusts the balance only with a reason, and shows the new balance and the audit entry', async () => {
    await page.getByRole('button', { name: 'Adjust balance' }).click();
    const dialog = page.getByRole('dialog', { name: 'Adjust balance' });
    await dialog.getByLabel('Amount (USD)').fill('12.50');
    await dialog.getByText('New balance: $17.55').waitFor();
    await dialog.getByRole('button', { name: 'Adjust balance' }).click();
    await dialog.getByText('Reason must be at least 3 characters').waitFor();
    expect(await stat('balance').textContent()).toBe('$5.05');

    await dialog.getByLabel('Reason').fill('Goodwill credit for the outage on ticket 4411');
    await dialog.getByRole('button', { name: 'Adjust balance' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Balance adjusted by +$12.50').waitFor();
    expect(await stat('balance').textContent()).toBe('$17.55');
    await page.getByRole('region', { name: 'Balance ledger' }).getByText('+$12.50').waitFor();
    const audit = page.getByRole('table', { name: 'Staff actions on this customer' });
    await audit.getByText('Balance adjusted').waitFor();
    await audit.getByText('Goodwill credit for the outage on ticket 4411').waitFor();
    await audit.getByText(staff.email.toLowerCase()).waitFor();
  });

  it("changes a plan's thread limit with a reason", async () => {
    await page.getByRole('button', { name: `Change limit of ${proxyLogin}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Change thread limit' });
    await dialog.getByLabel('Thread limit').fill('250');
    await dialog.getByLabel('Reason').fill('Customer scrapes with 200 workers');
    await dialog.getByRole('button', { name: 'Save limit' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Plans' }).getByText('250', { exact: true }).waitFor();
    await page
      .getByRole('table', { name: 'Staff actions on this customer' })
      .getByText('Thread limit changed')
      .waitFor();
  });

  it("disables the account, which ends the customer's session and sign-in, and enables it again", async () => {
    await settled();
    expect(await stat('open-sessions').textContent()).toBe('1');

    await page.getByRole('button', { name: 'Disable account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable this account?' });
    await dialog.getByLabel('Reason').fill('Chargeback fraud, see ticket 4412');
    await dialog.getByRole('button', { name: 'Disable account' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1 }).getByText('Disabled').waitFor();
    expect(await stat('open-sessions').textContent()).toBe('0');
    await page.getByText('This account is disabled').waitFor();

    // The customer's tab learns at its next request that the session is gone, and cannot sign in again.
    await customerPage.reload();
    await customerPage.waitForURL(`${server.url}/login`);
    await logInThroughForm(customerPage, server.url, customer.email, customer.password);
    await customerPage.getByText('This account has been disabled. Please contact support.').first().waitFor();

    await page.getByRole('button', { name: 'Enable account' }).click();
    const enable = page.getByRole('dialog', { name: 'Enable this account?' });
    await enable.getByLabel('Reason').fill('Chargeback withdrawn');
    await enable.getByRole('button', { name: 'Enable account' }).click();
    await enable.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 1 }).getByText('Active').waitFor();
    await logInThroughForm(customerPage, server.url, customer.email, customer.password);
    await customerPage.waitForURL(`${server.url}/dashboard`);
  });

  it('shows every action in the audit log, filterable by action and actor', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await settled();
    const entries = page.getByRole('table', { name: 'Audit entries' });
    for (const action of [
      'Balance adjusted',
      'Thread limit changed',
      'Account disabled',
      'Account enabled',
    ]) {
      await entries.getByText(action, { exact: true }).waitFor();
    }
    // The grant made with the command line is there too, by 'cli'.
    await entries.getByText('Staff role granted').waitFor();

    await page.getByLabel('Action').selectOption('customer.disable');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('1 entry matches').waitFor();
    await entries.getByText('Chargeback fraud, see ticket 4412').waitFor();
    expect(new URL(page.url()).searchParams.get('action')).toBe('customer.disable');

    await page.getByLabel('Action').selectOption('');
    await page.getByLabel('Actor email').fill('nobody@example.com');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No entries match these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await entries.getByText('Balance adjusted').waitFor();
  });

  it('serves the console on a load or reload of any of its pages', async () => {
    for (const path of ['/admin', '/admin/audit', '/admin/customers/00000000-0000-4000-8000-000000000000']) {
      const response = await page.goto(`${server.url}${path}`);
      expect(response?.status()).toBe(200);
      await page.getByRole('navigation', { name: 'Console' }).first().waitFor();
    }
    await page.getByRole('heading', { level: 1, name: 'Customer not found' }).waitFor();
    await customerPage.goto(`${server.url}/admin`);
    await customerPage.getByRole('heading', { level: 1, name: 'This area is for Bytegate staff' }).waitFor();
  });

  for (const width of [1280, 375]) {
    it(`has no axe violations on the console's screens at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const found: Record<string, Violation[]> = {};
      const check = async (name: string) => {
        await settled();
        const violations = await axeViolations(page);
        if (violations.length > 0) {
          found[name] = violations;
        }
        await saveScreenshot(page, `admin-${name}-${width}`);
      };

      await navigateInApp(page, '/admin');
      await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
      const search = page.getByRole('searchbox', { name: 'Search customers' });
      await search.fill('no-such-customer');
      await page.getByText('No customers match “no-such-customer”').waitFor();
      await check('customers-empty');

      await search.fill(customer.email);
      await page.getByText(`1 customer matches “${customer.email}”`).waitFor();
      await check('customers');
      await page.getByRole('link', { name: new RegExp(customer.email) }).click();
      await page.getByRole('heading', { level: 1, name: /Margaret Hamilton/ }).waitFor();
      await check('customer');

      await page.getByRole('button', { name: 'Adjust balance' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Adjust balance' }).click();
      await page.getByRole('dialog').getByText('Reason must be at least 3 characters').waitFor();
      await check('adjust-balance');
      await page.keyboard.press('Escape');

      await navigateInApp(page, '/admin/audit');
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      await check('audit');

      expect(found).toEqual({});
    });
  }
});
