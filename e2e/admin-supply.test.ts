// The console's Supply page (issue 29): two wholesale networks added with `bytegate sources add`, their
// days written as the gateway's usage flush and health counts write them, so the figures are known to the
// cent. An admin reads them over 7 and 30 days and downloads the CSV, changes a weight with a reason and
// finds it saved after a reload and in the audit log, clears an alarm, and imports a network's catalog;
// support reads the same page with no way to change it. axe checks the page and its dialogs at 1280 and
// 375 px. On PostgreSQL, as the other console journeys (support/staff-console.ts starts them).
import { addSourceHealth, addSourceUsage, getSourceByName, raiseSourceAlarm } from '@bytegate/db/queries';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type Violation } from './support/axe.ts';
import { saveScreenshot, screenshotDir } from './support/browser.ts';
import { navigateInApp, settled } from './support/console.ts';
import type { RunningServer } from './support/server.ts';
import { hasTestPostgres } from './support/staff.ts';
import {
  addNetworkSource,
  openSupply,
  type StaffConsoleSuite,
  startStaffConsoleSuite,
} from './support/staff-console.ts';

const GB = 1024 ** 3;
const DAY_MS = 24 * 60 * 60 * 1000;
const PASSWORDS = ['S3cretPass', 'Hidden9ws'];

describe.runIf(hasTestPostgres)('the Supply page in the console', () => {
  let suite: StaffConsoleSuite;
  let server: RunningServer;
  let page: Page;
  let supportPage: Page;

  beforeAll(async () => {
    suite = await startStaffConsoleSuite();
    ({ server } = suite);
    page = suite.admin.page;
    supportPage = suite.support.page;
    await addNetworkSource(suite.databaseUrl, {
      name: 'Oxylabs residential',
      pool: 'residential',
      grammar: 'oxylabs',
      url: `http://acct:${PASSWORDS[0]}@127.0.0.1:7777`,
      costPerGb: '1.20',
    });
    await addNetworkSource(suite.databaseUrl, {
      name: 'Webshare DC',
      pool: 'datacenter',
      grammar: 'webshare',
      url: `socks5://ws:${PASSWORDS[1]}@127.0.0.1:1080`,
      costPerGb: '0.50',
    });
    const { db } = suite.database;
    const idOf = async (name: string) => (await getSourceByName(db, { name }))?.id ?? '';
    const [oxylabs, webshare] = [await idOf('Oxylabs residential'), await idOf('Webshare DC')];
    const day = (daysAgo: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS);
    const usage = async (sourceId: string, daysAgo: number, bytes: [number, number], dials: number[]) => {
      const [connects = 0, failures = 0, connectMsTotal = 0] = dials;
      await addSourceUsage(db, {
        day: day(daysAgo),
        deltas: [{ sourceId, carriedBytes: bytes[0], billedBytes: bytes[1] }],
      });
      await addSourceHealth(db, {
        day: day(daysAgo),
        deltas: [{ sourceId, connects, failures, connectMsTotal }],
      });
    };
    // Oxylabs over 7 days: 1.5 GB carried, 2.5 billed ($4.98 at $1.99, $1.80 at $1.20), 8 of 10 dials
    // opened in 21 ms on average; 10 days ago 2 GB more, in the 30 days only.
    await usage(oxylabs, 0, [GB, 2 * GB], [6, 0, 120]);
    await usage(oxylabs, 3, [GB / 2, GB / 2], [2, 2, 45]);
    await usage(oxylabs, 10, [2 * GB, 2 * GB], [10, 0, 100]);
    // Webshare today: 1.5 GB ($1.49 at $0.99, $0.75 at $0.50).
    await usage(webshare, 0, [1.5 * GB, 1.5 * GB], [3, 1, 30]);
    await raiseSourceAlarm(db, {
      sourceId: webshare,
      alarm: 'the network refused our account credentials (407 Proxy Authentication Required)',
      at: new Date(Date.now() - 5 * 60_000),
    });
    await raiseSourceAlarm(db, {
      sourceId: oxylabs,
      alarm: "the network says our account's traffic or credit is used up (402)",
      at: new Date(Date.now() - 2 * 60 * 60_000),
    });
  });

  afterAll(() => suite?.stop());

  const table = (target: Page = page) => target.getByRole('table', { name: 'Sources' });
  const row = (name: string, target: Page = page) => table(target).getByRole('row').filter({ hasText: name });
  /** A row's cells as their text, whitespace folded. */
  const cellsOf = async (name: string, target: Page = page) =>
    (await row(name, target).getByRole('cell').allInnerTexts()).map((text) =>
      text.replace(/\s+/g, ' ').trim(),
    );

  it('shows an admin each source’s figures over 7 and 30 days, and the CSV of them', async () => {
    await openSupply(page);
    expect(await cellsOf('Oxylabs residential')).toEqual([
      'Oxylabs residential Residential · Network · Oxylabs http://acct:***@127.0.0.1:7777',
      // A network not probed yet says so (this suite runs no probe job: no EXIT_PROBE_URL).
      'Active weight 100 Not probed yet',
      '$1.20',
      '1.50 GB billed 2.50 GB',
      '$4.98',
      '$1.80',
      '$3.18',
      '80.0% 2 of 10 failed',
      '21 ms',
      expect.stringMatching(
        /^Alarm: The network says our account's traffic or credit is used up \(402\) 2 hours ago Clear alarm$/,
      ),
      'Days Catalog Change',
    ]);
    expect((await cellsOf('Webshare DC')).slice(2, 9)).toEqual([
      '$0.50',
      '1.50 GB billed 1.50 GB',
      '$1.49',
      '$0.75',
      '$0.74',
      '75.0% 1 of 4 failed',
      '10 ms',
    ]);
    // Our own exits carried nothing here: their rows are there, at zero.
    expect((await cellsOf('Own mobile exits')).slice(2, 9)).toEqual([
      '$0.00',
      '0.00 GB billed 0.00 GB',
      '$0.00',
      '$0.00',
      '$0.00',
      '— no dials',
      '—',
    ]);
    const totals = page.getByRole('definition').filter({ hasText: /^\$/ });
    expect(await totals.allInnerTexts()).toEqual(['$6.47', '$2.55', '$3.92']);
    await saveScreenshot(page, 'admin-supply-7-days');

    await page.getByRole('radio', { name: '30 days' }).click();
    await expect.poll(() => page.url()).toMatch(/\/admin\/supply\?days=30$/);
    await row('Oxylabs residential').getByRole('cell', { name: '$8.96', exact: true }).waitFor();
    expect((await cellsOf('Oxylabs residential')).slice(3, 7)).toEqual([
      '3.50 GB billed 4.50 GB',
      '$8.96',
      '$4.20',
      '$4.76',
    ]);

    const csvLink = page.getByRole('link', { name: 'CSV, 30 days' });
    expect(await csvLink.getAttribute('href')).toBe('/api/admin/sources.csv?days=30');
    // The download, with the browser's own session cookie.
    const csv = await page.request.get(`${server.url}/api/admin/sources.csv?days=30`);
    expect(csv.status()).toBe(200);
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe(
      'date,source,pool,carried_gb,billed_gb,revenue_usd,cost_usd,margin_usd,success_rate,connect_ms',
    );
    expect(lines).toHaveLength(1 + 5 * 30 + 1);
    for (const password of PASSWORDS) {
      expect(await page.content()).not.toContain(password);
    }
  });

  it('shows support the same figures, with no way to change a source', async () => {
    await openSupply(supportPage);
    await supportPage.getByText('Only admins add and change sources.', { exact: false }).waitFor();
    expect((await cellsOf('Oxylabs residential', supportPage)).slice(4, 7)).toEqual([
      '$4.98',
      '$1.80',
      '$3.18',
    ]);
    await row('Webshare DC', supportPage)
      .getByText(/refused our account credentials/)
      .waitFor();
    expect(await supportPage.getByRole('button', { name: /^Change / }).count()).toBe(0);
    expect(await supportPage.getByRole('button', { name: /^Clear alarm/ }).count()).toBe(0);

    // Reading a source day by day is for support too.
    await row('Oxylabs residential', supportPage)
      .getByRole('button', { name: 'Days of Oxylabs residential' })
      .click();
    const dialog = supportPage.getByRole('dialog', { name: 'Oxylabs residential' });
    const days = dialog.getByRole('table', { name: 'Days of Oxylabs residential' });
    await days.waitFor();
    expect(await days.getByRole('row').count()).toBe(1 + 7);
    const today = (await days.getByRole('row').nth(1).getByRole('cell').allInnerTexts()).slice(1);
    expect(today.map((text) => text.replace(/\s+/g, ' '))).toEqual([
      '1.00 GB billed 2.00 GB',
      '$3.98',
      '$1.20',
      '$2.78',
      '100%',
      '20 ms',
    ]);
    await saveScreenshot(supportPage, 'admin-supply-support-days');
    await supportPage.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await saveScreenshot(supportPage, 'admin-supply-support');
  });

  it('lets an admin change a weight with a reason, saved and audited, and clear an alarm', async () => {
    await navigateInApp(page, '/admin/supply');
    await settled(page);
    await row('Oxylabs residential').getByRole('button', { name: 'Change Oxylabs residential' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Oxylabs residential' });
    // Nothing changed, and no reason: both said at once.
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText('Nothing changed: set a new weight, state or cost first.').waitFor();
    await dialog.getByText('Reason must be at least 3 characters').waitFor();
    await dialog.getByLabel('Weight').fill('2000000');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByText('Weight must be a whole number from 0 to 1,000,000').waitFor();
    await saveScreenshot(page, 'admin-supply-change-refused');

    await dialog.getByLabel('Weight').fill('300');
    await dialog.getByLabel('Reason').fill('Oxylabs gave us a better rate this month');
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Oxylabs residential: active, weight 300, $1.20 a GB').waitFor();
    await row('Oxylabs residential').getByText('weight 300').waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Supply' }).waitFor();
    await settled(page);
    await row('Oxylabs residential').getByText('weight 300').waitFor();

    await row('Webshare DC').getByRole('button', { name: 'Clear alarm of Webshare DC' }).click();
    const clear = page.getByRole('dialog', { name: 'Clear alarm' });
    await clear.getByLabel('Reason').fill('Rotated the Webshare password');
    await clear.getByRole('button', { name: 'Clear alarm' }).click();
    await clear.waitFor({ state: 'detached' });
    await row('Webshare DC').getByRole('cell', { name: 'None', exact: true }).waitFor();

    await navigateInApp(page, '/admin/audit');
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await settled(page);
    const entries = page.getByRole('table', { name: 'Audit entries' });
    await entries.getByText('Oxylabs gave us a better rate this month').waitFor();
    await entries.getByText('Rotated the Webshare password').waitFor();
    expect(await entries.getByText('Source changed').count()).toBe(2);
    await saveScreenshot(page, 'admin-supply-audit');
  });

  it("lets an admin import a network's catalog, line by line when refused, and support read it", async () => {
    await navigateInApp(page, '/admin/supply');
    await settled(page);
    await row('Oxylabs residential').getByRole('button', { name: 'Catalog of Oxylabs residential' }).click();
    const dialog = page.getByRole('dialog', { name: 'Catalog of Oxylabs residential' });
    await dialog.getByText('No places yet').waitFor();
    const file = dialog.getByLabel('File');
    const reason = dialog.getByLabel('Reason');
    const send = dialog.getByRole('button', { name: 'Import places' });
    await file.setInputFiles({
      name: 'oxylabs-cities.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('country,state,city\nUS,TX,Dallas\nUK,,London\nUS,,Austin\n'),
    });
    await reason.fill('Oxylabs list of December');
    await send.click();
    await dialog.getByText('Nothing was imported: 1 line has a problem').waitFor();
    await dialog
      .getByRole('list', { name: 'Problems by line' })
      .getByText('country "UK" is not a country (an ISO 3166 code such as US, or its English name)')
      .waitFor();
    await saveScreenshot(page, 'admin-supply-catalog-refused');

    await file.setInputFiles({
      name: 'oxylabs-cities.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ US: { Texas: ['Dallas', 'Houston'] }, DE: ['Berlin'], FR: [] })),
    });
    await reason.fill('Oxylabs list of December');
    await send.click();
    await dialog
      .getByText('Read 4 lines: 4 new places, 0 already there. The catalog lists 4 places in 3 countries.')
      .waitFor();
    const countries = dialog.getByRole('table', { name: 'Countries of Oxylabs residential' });
    await countries.waitFor();
    const united = (
      await countries.getByRole('row').filter({ hasText: 'United States' }).getByRole('cell').allInnerTexts()
    ).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(united).toEqual([
      'United States US',
      '2',
      '1',
      '0',
      '2 imported 0 learned',
      '0',
      'Dallas, Houston',
    ]);
    await saveScreenshot(page, 'admin-supply-catalog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // Support reads the catalog, with no import.
    await navigateInApp(supportPage, '/admin/supply');
    await settled(supportPage);
    await row('Oxylabs residential', supportPage)
      .getByRole('button', { name: 'Catalog of Oxylabs residential' })
      .click();
    const read = supportPage.getByRole('dialog', { name: 'Catalog of Oxylabs residential' });
    await read.getByRole('table', { name: 'Countries of Oxylabs residential' }).waitFor();
    expect(await read.getByRole('button', { name: 'Import places' }).count()).toBe(0);
    await supportPage.keyboard.press('Escape');

    await navigateInApp(page, '/admin/audit');
    await settled(page);
    await page.getByRole('table', { name: 'Audit entries' }).getByText('Oxylabs list of December').waitFor();
  });

  for (const width of [1280, 375]) {
    it(`has no axe violations on the Supply page and its dialogs at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      const found: Record<string, Violation[]> = {};
      const check = async (name: string) => {
        const violations = await axeViolations(page);
        if (violations.length > 0) {
          found[name] = violations;
        }
        await saveScreenshot(page, `admin-${name}-${width}`);
      };
      await navigateInApp(page, '/admin/supply');
      await page.getByRole('heading', { level: 1, name: 'Supply' }).waitFor();
      await settled(page);
      await check('supply');

      await page.getByRole('button', { name: 'Change Webshare DC' }).first().click();
      const change = page.getByRole('dialog', { name: 'Change Webshare DC' });
      await change.getByLabel('Cost per GB').fill('1.234');
      await change.getByRole('button', { name: 'Save changes' }).click();
      await change.getByText('Cost per GB must be an amount in dollars, such as 1.20').waitFor();
      await check('supply-change');
      await page.keyboard.press('Escape');
      await change.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Days of Oxylabs residential' }).first().click();
      const days = page.getByRole('dialog', { name: 'Oxylabs residential' });
      // A table from 768 px up, a list of days on a phone.
      await days
        .getByRole(width >= 768 ? 'table' : 'list', { name: 'Days of Oxylabs residential' })
        .waitFor();
      await check('supply-days');
      // The full-page shot stretches the window; this is the dialog as the screen shows it.
      await page.screenshot({ path: `${screenshotDir}/admin-supply-days-screen-${width}.png` });
      await page.keyboard.press('Escape');
      await days.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Catalog of Oxylabs residential' }).first().click();
      const catalog = page.getByRole('dialog', { name: 'Catalog of Oxylabs residential' });
      await catalog
        .getByRole(width >= 768 ? 'table' : 'list', { name: 'Countries of Oxylabs residential' })
        .waitFor();
      await catalog.getByRole('button', { name: 'Import places' }).click();
      await catalog.getByText('Choose the vendor’s file first.').waitFor();
      await check('supply-catalog');
      await page.keyboard.press('Escape');
      await catalog.waitFor({ state: 'detached' });

      expect(found).toEqual({});
    });
  }
});
