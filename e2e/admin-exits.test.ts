// The console's exits and health (issue 15): an admin imports exits (one a direct exit on 127.0.0.2, one
// an upstream whose proxy is not there), after a refused import that names the wrong line; the exit probe,
// run every second against a local origin, takes the dead exit out of rotation and the page shows it; the
// admin puts it back with a reason; the health view shows a customer's traffic and refusals. axe checks
// each screen at 1280 and 375 px. Staff are made with `bytegate staff grant`, on PostgreSQL.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { freePort } from '@bytegate/gateway/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type Violation } from './support/axe.ts';
import { saveScreenshot } from './support/browser.ts';
import { navigateInApp, settled as pageSettled } from './support/console.ts';
import { openSignedInPage, startServerAndBrowser } from './support/fixture.ts';
import { buyDatacenterPlan } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';
import { createSuiteDatabase, grantStaffRole, hasTestPostgres } from './support/staff.ts';

const run = promisify(execFile);

describe.runIf(hasTestPostgres)('exits and health in the console', () => {
  let origin: Server;
  let originPort: number;
  let deadPort: number;
  let server: RunningServer;
  let browser: Browser;
  let stopServer: () => Promise<void>;
  let dropDatabase: () => Promise<void>;
  let customerContext: BrowserContext;
  let staffContext: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    // The probe's target, and the customer's: a local origin only the gateway's exits reach.
    origin = createServer((request, response) => response.end(`from ${request.socket.remoteAddress}`));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originPort = (origin.address() as AddressInfo).port;
    // The dead upstream exit's proxy port: nothing listens there.
    deadPort = await freePort();
    const database = await createSuiteDatabase();
    dropDatabase = database.drop;
    ({
      server,
      browser,
      stop: stopServer,
    } = await startServerAndBrowser({
      DATABASE_URL: database.databaseUrl,
      EXIT_PROBE_URL: `http://127.0.0.1:${originPort}/health`,
      EXIT_PROBE_INTERVAL_SECONDS: '1',
      GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
      GATEWAY_OPEN_PORTS: String(originPort),
    }));
    const viewport = { width: 1280, height: 900 };
    const customer = await openSignedInPage(browser, server, { viewport });
    customerContext = customer.context;
    await buyDatacenterPlan(customer.page);
    const plans = (await (await customer.page.request.get(`${server.url}/api/subuser/plans`)).json()) as {
      plans: Array<{ login: string; password: string }>;
    };
    const plan = plans.plans[0];
    // Traffic the health view shows: one request through the US exit once it exists (see the import test),
    // and refusals now: a blocked port and a blocked host.
    proxyAs = (login) => `http://${login}:${plan?.password}@127.0.0.1:${server.gatewayPort}`;
    proxyLogin = plan?.login ?? '';
    // The gateway learns of the new plan within a second: until then it answers 407.
    for (const target of ['http://127.0.0.1:25/', 'http://www.paypal.com/']) {
      for (let attempt = 0; ; attempt++) {
        const { stdout } = await run('curl', [
          '-s',
          '-o',
          '/dev/null',
          '-w',
          '%{http_code}',
          '-x',
          proxyAs(proxyLogin),
          target,
        ]);
        if (stdout === '403') {
          break;
        }
        expect(attempt).toBeLessThan(20);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    const staff = await openSignedInPage(browser, server, { viewport });
    staffContext = staff.context;
    page = staff.page;
    await grantStaffRole(database.databaseUrl, staff.account.email, 'admin');
    await page.reload();
  });

  let proxyAs: (login: string) => string;
  let proxyLogin: string;

  afterAll(async () => {
    await customerContext?.close();
    await staffContext?.close();
    await stopServer?.();
    await dropDatabase?.();
    await new Promise((resolve) => origin?.close(resolve));
  });

  /** Waits until the console's skeletons are gone. */
  const settled = () => pageSettled(page);

  const table = () => page.getByRole('table', { name: 'Exits' });
  const row = (name: string) => table().getByRole('row').filter({ hasText: name });

  it('imports exits from CSV, refusing a file with a wrong line and naming it', async () => {
    await navigateInApp(page, '/admin');
    await page
      .getByRole('navigation', { name: 'Console' })
      .first()
      .getByRole('link', { name: 'Exits' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Exits' }).waitFor();
    await page.getByText('No exits yet').waitFor();
    await page.getByText(`Probing every exit every 1 s through`).waitFor();

    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import exits' });
    const header = 'name,pool,country,city,kind,localAddress,upstreamUrl';
    const good = 'US loopback,datacenter,US,Ashburn,direct,127.0.0.2,';
    const dead = `DE dead upstream,datacenter,DE,Berlin,upstream,,http://127.0.0.1:${deadPort}`;
    await dialog
      .getByLabel('Exits')
      .fill([header, good, 'Broken,datacenter,Germany,,direct,,', dead].join('\n'));
    await dialog.getByRole('button', { name: 'Import exits' }).click();
    await dialog.getByText('Nothing was imported: 1 line has a problem').waitFor();
    const problems = dialog.getByRole('list', { name: 'Problems by line' });
    expect(await problems.textContent()).toBe('Line 3: country: country must be a two-letter ISO code');
    await saveScreenshot(page, 'admin-exits-import-refused');

    await dialog.getByLabel('Exits').fill([header, good, dead].join('\n'));
    await dialog.getByLabel(/^Reason/).fill('Initial inventory');
    await dialog.getByRole('button', { name: 'Import exits' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Imported 2 exits').waitFor();
    await row('US loopback').getByText('In rotation').waitFor();
    await row('DE dead upstream').waitFor();

    // The customer's traffic goes out through the new US exit (the gateway picks it up within a second).
    for (let attempt = 0; ; attempt++) {
      const { stdout } = await run('curl', [
        '-s',
        '-x',
        proxyAs(`${proxyLogin}__cr.us`),
        `http://127.0.0.1:${originPort}/`,
      ]);
      if (stdout === 'from 127.0.0.2') {
        break;
      }
      expect(attempt).toBeLessThan(20);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  it('watches the failing exit leave rotation after three failed probes, and puts it back', async () => {
    // The probe runs every second; the page reads the inventory again on a reload.
    for (let attempt = 0; ; attempt++) {
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Exits' }).waitFor();
      await settled();
      if ((await row('DE dead upstream').getByText('Out of rotation').count()) > 0) {
        break;
      }
      expect(attempt).toBeLessThan(20);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    const deadRow = row('DE dead upstream');
    await deadRow.getByText(/3 probes in a row failed: .*ECONNREFUSED/).waitFor();
    await row('US loopback').getByText('In rotation').waitFor();
    await row('US loopback').getByText(/^OK/).waitFor();
    await page.getByRole('button', { name: /Out of rotation\s*1/ }).click();
    await page.getByText('1 exit matches').waitFor();
    await saveScreenshot(page, 'admin-exits-out-of-rotation');

    await deadRow.getByRole('button', { name: 'Actions for DE dead upstream' }).click();
    await page.getByRole('menuitem', { name: 'Put back into rotation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Put back into rotation' });
    await dialog.getByLabel('Reason').fill('Provider says the proxy is fixed');
    await dialog.getByRole('button', { name: 'Put back' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('DE dead upstream is back in rotation').waitFor();

    await navigateInApp(page, '/admin/audit');
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const entries = page.getByRole('table', { name: 'Audit entries' });
    await entries.getByText('Exit put back into rotation').waitFor();
    await entries.getByText('Exit taken out of rotation').first().waitFor();
    await entries.getByText('Exits imported').waitFor();
  });

  it('shows the health view: traffic, refusals by code, blocked hits and this process’s connections', async () => {
    await page
      .getByRole('navigation', { name: 'Console' })
      .first()
      .getByRole('link', { name: 'Health' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Abuse and health' }).waitFor();
    await settled();
    const byTraffic = page.getByRole('list', { name: 'Top plans by traffic' });
    await byTraffic.getByRole('link', { name: proxyLogin }).waitFor();
    const codes = page.getByRole('list', { name: 'Refusals by code' });
    await codes.getByText('Blocked port').waitFor();
    await codes.getByText('Blocked host').waitFor();
    await page
      .getByRole('list', { name: 'Plans that hit blocks' })
      .getByRole('link', { name: proxyLogin })
      .first()
      .waitFor();
    await page.getByText('Held by the gateway in this server process only', { exact: false }).waitFor();
    await saveScreenshot(page, 'admin-health');
  });

  for (const width of [1280, 375]) {
    it(`has no axe violations on the exits and health screens at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const found: Record<string, Violation[]> = {};
      const check = async (name: string) => {
        const violations = await axeViolations(page);
        if (violations.length > 0) {
          found[name] = violations;
        }
        await saveScreenshot(page, `admin-${name}-${width}`);
      };

      await navigateInApp(page, '/admin/exits');
      await page.getByRole('heading', { level: 1, name: 'Exits' }).waitFor();
      await settled();
      await check('exits');

      await page.getByRole('button', { name: 'Add exit' }).click();
      const add = page.getByRole('dialog', { name: 'Add exit' });
      await add.getByLabel('Name', { exact: true }).fill('Paris 1');
      await add.getByLabel(/^Country/).fill('fr');
      await add.getByRole('radio', { name: 'Upstream proxy' }).click();
      await add.getByLabel('Upstream URL').fill('ftp://proxy.example:21');
      await add.getByRole('button', { name: 'Add exit' }).click();
      // The server's rule, shown under the field it names.
      await add.getByText(/^upstreamUrl must be an http:\/\/, https:\/\/ or socks5:\/\/ proxy URL/).waitFor();
      await check('exits-add');
      await page.keyboard.press('Escape');
      await add.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Actions for US loopback' }).first().click();
      await page.getByRole('menuitem', { name: 'Disable' }).click();
      const disable = page.getByRole('dialog', { name: 'Disable exit' });
      await disable.getByRole('button', { name: 'Disable exit' }).click();
      await disable.getByText('Reason must be at least 3 characters').waitFor();
      await check('exits-action');
      await page.keyboard.press('Escape');
      await disable.waitFor({ state: 'detached' });

      await navigateInApp(page, '/admin/health');
      await page.getByRole('heading', { level: 1, name: 'Abuse and health' }).waitFor();
      await settled();
      await check('health');

      expect(found).toEqual({});
    });
  }
});
