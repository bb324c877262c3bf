// Adding a source from the console (issue 29): an admin adds a wholesale network in the Supply page's
// "Add source" dialog (every problem shown under its field, the server's rules included), the account's
// password is never shown again, the addition is in the audit log with its reason, and the source probe
// job (EXIT_PROBE_URL: a local origin answering the address it was reached from) probes the network
// within seconds: the page shows the probe and the exit IP, and a network that refuses our account
// gets its alarm. Support gets no Add source button. axe checks the page and the dialog at 1280 and
// 375 px. On PostgreSQL, as the other console journeys.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeNetwork, startFakeNetwork } from '@bytegate/gateway/testing/fake-networks';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type Violation } from './support/axe.ts';
import { saveScreenshot } from './support/browser.ts';
import { navigateInApp, settled } from './support/console.ts';
import { openSignedInPage, startServerAndBrowser } from './support/fixture.ts';
import type { RunningServer } from './support/server.ts';
import { createSuiteDatabase, grantStaffRole, hasTestPostgres } from './support/staff.ts';

const EXIT_IP = '127.0.0.81';

describe.runIf(hasTestPostgres)('adding a source in the console', () => {
  let server: RunningServer;
  let browser: Browser;
  let stopServer: () => Promise<void>;
  let dropDatabase: () => Promise<void>;
  let network: FakeNetwork;
  let probeTarget: Server;
  let adminContext: BrowserContext;
  let supportContext: BrowserContext;
  let page: Page;
  let supportPage: Page;

  beforeAll(async () => {
    network = await startFakeNetwork({ grammar: 'oxylabs', exits: [{ address: EXIT_IP, country: 'US' }] });
    probeTarget = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ ip: request.socket.remoteAddress }));
    });
    await new Promise<void>((resolve) => probeTarget.listen(0, '127.0.0.1', resolve));
    const suite = await createSuiteDatabase();
    dropDatabase = suite.drop;
    ({
      server,
      browser,
      stop: stopServer,
    } = await startServerAndBrowser({
      DATABASE_URL: suite.databaseUrl,
      EXIT_PROBE_URL: `http://127.0.0.1:${(probeTarget.address() as AddressInfo).port}/ip`,
      EXIT_PROBE_INTERVAL_SECONDS: '1',
    }));
    const viewport = { width: 1280, height: 900 };
    const admin = await openSignedInPage(browser, server, { viewport });
    adminContext = admin.context;
    page = admin.page;
    await grantStaffRole(suite.databaseUrl, admin.account.email, 'admin');
    const support = await openSignedInPage(browser, server, { viewport });
    supportContext = support.context;
    supportPage = support.page;
    await grantStaffRole(suite.databaseUrl, support.account.email, 'support');
    await page.reload();
    await supportPage.reload();
  });

  afterAll(async () => {
    await adminContext?.close();
    await supportContext?.close();
    await stopServer?.();
    await dropDatabase?.();
    await network?.close();
    await new Promise((resolve) => probeTarget?.close(resolve));
  });

  const row = (name: string) =>
    page.getByRole('table', { name: 'Sources' }).getByRole('row').filter({ hasText: name });

  async function openSupply(target: Page) {
    await navigateInApp(target, '/admin/supply');
    await target.getByRole('heading', { level: 1, name: 'Supply' }).waitFor();
    await settled(target);
  }

  /** Fills the dialog with a network at the fake vendor's endpoint. */
  async function fillNetwork(dialog: ReturnType<Page['getByRole']>, name: string, password: string) {
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Pool').selectOption('residential');
    await dialog.getByLabel('Grammar').selectOption('oxylabs');
    await dialog.getByLabel('Protocol').selectOption('http');
    await dialog.getByLabel('Host and port').fill(`127.0.0.1:${network.port}`);
    await dialog.getByLabel('Account username').fill(network.account.username);
    await dialog.getByLabel('Account password').fill(password);
    await dialog.getByLabel('Cost per GB').fill('1.20');
    await dialog.getByLabel('Reason').fill('Signed with Oxylabs, ticket 733');
  }

  it('names every problem under its field, the server’s too, and adds the network', async () => {
    await openSupply(page);
    await page.getByRole('button', { name: 'Add source' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add source' });
    // Nothing filled in: each field says what it needs, at once; the first takes the focus.
    await dialog.getByRole('button', { name: 'Add source' }).click();
    for (const message of [
      'Name is required',
      'Host and port are required, such as pr.oxylabs.io:7777',
      'The account’s username is required',
      'The account’s password is required',
      'Reason must be at least 3 characters',
    ]) {
      await dialog.getByText(message, { exact: true }).waitFor();
    }
    await expect
      .poll(() =>
        dialog.getByLabel('Name', { exact: true }).evaluate((input) => input === document.activeElement),
      )
      .toBe(true);

    // A template the server cannot parse: its message under the template, from the server's rules.
    await fillNetwork(dialog, 'Oxylabs US', network.account.password);
    await dialog.getByLabel('Grammar').selectOption('template');
    await dialog.getByLabel('Username template').fill('customer-{user}-cc-{cuntry}');
    await dialog.getByRole('button', { name: 'Add source' }).click();
    await dialog.getByText(/^Template: .*\{cuntry\}/).waitFor();
    await saveScreenshot(page, 'admin-supply-add-refused');

    await dialog.getByLabel('Grammar').selectOption('oxylabs');
    await dialog.getByRole('button', { name: 'Add source' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Oxylabs US added: the gateway routes through it within a second').waitFor();
    await row('Oxylabs US').getByText(`http://fakeuser:***@127.0.0.1:${network.port}`).waitFor();
    expect(await page.content()).not.toContain(network.account.password);
  });

  it('shows the probe the job ran through the new network, with the exit IP the target saw', async () => {
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('heading', { level: 1, name: 'Supply' }).waitFor();
          await settled(page);
          return (await row('Oxylabs US').innerText()).replace(/\s+/g, ' ');
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toMatch(new RegExp(`Last probe: Probe OK · \\d+ ms .* exit ${EXIT_IP.replaceAll('.', '\\.')}`));
    expect(network.seen.some((seen) => seen.username === 'customer-fakeuser' && seen.answer === 'open')).toBe(
      true,
    );
    await saveScreenshot(page, 'admin-supply-added-probed');
  });

  it('raises the alarm of a network that refuses our account, in our words', async () => {
    await page.getByRole('button', { name: 'Add source' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add source' });
    await fillNetwork(dialog, 'Oxylabs wrong password', 'not-the-password');
    await dialog.getByRole('button', { name: 'Add source' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole('heading', { level: 1, name: 'Supply' }).waitFor();
          await settled(page);
          return (await row('Oxylabs wrong password').innerText()).replace(/\s+/g, ' ');
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toMatch(/Probe failed \d+× in a row .*Tried last until a probe works/);
    const text = (await row('Oxylabs wrong password').innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('The network refused our account credentials (a probe: answered 407)');
    expect(text).not.toContain('not-the-password');

    await navigateInApp(page, '/admin/audit');
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await settled(page);
    const entries = page.getByRole('table', { name: 'Audit entries' });
    await entries.getByText('Signed with Oxylabs, ticket 733').first().waitFor();
    expect(await entries.getByText('Source added').count()).toBe(2);
    expect(await page.content()).not.toContain(network.account.password);
  });

  it('gives support no way to add a source', async () => {
    await openSupply(supportPage);
    await supportPage.getByText('Only admins add and change sources.', { exact: false }).waitFor();
    expect(await supportPage.getByRole('button', { name: 'Add source' }).count()).toBe(0);
  });

  for (const width of [1280, 375]) {
    it(`has no axe violations on the Supply page and the Add source dialog at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const found: Record<string, Violation[]> = {};
      const check = async (name: string) => {
        const violations = await axeViolations(page);
        if (violations.length > 0) {
          found[name] = violations;
        }
        await saveScreenshot(page, `admin-${name}-${width}`);
      };
      await openSupply(page);
      await check('supply-probed');
      await page.getByRole('button', { name: 'Add source' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add source' });
      await dialog.getByLabel('Grammar').selectOption('template');
      await dialog.getByRole('button', { name: 'Add source' }).click();
      await dialog.getByText('The template grammar needs a username template').waitFor();
      await check('supply-add');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(found).toEqual({});
    });
  }
});
