// Reconciliation on the console's Supply page (issue 29): a wholesale network added with
// `bytegate sources add` at $1.20 a GB carried 1 GB two days ago and 2 GB yesterday, as the gateway's usage
// flush writes them. An admin imports the vendor's usage export (a refused file first, its bad line named),
// then finds yesterday flagged in words (+10.00%, +$0.24), not by colour alone; support reads the same
// days with no way to import. axe checks the section and the import dialog at 1280 and 375 px.
import { createDb, type DbHandle } from '@bytegate/db';
import { addSourceUsage, getSourceByName } from '@bytegate/db/queries';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, type Violation } from './support/axe.ts';
import { saveScreenshot, screenshotDir } from './support/browser.ts';
import { navigateInApp, settled } from './support/console.ts';
import { openSignedInPage, startServerAndBrowser } from './support/fixture.ts';
import type { RunningServer } from './support/server.ts';
import { createSuiteDatabase, grantStaffRole, hasTestPostgres, runBytegate } from './support/staff.ts';

const GB = 1024 ** 3;
const DAY_MS = 24 * 60 * 60 * 1000;
const dayAgo = (daysAgo: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS);
const dateAgo = (daysAgo: number) => dayAgo(daysAgo).toISOString().slice(0, 10);
const dayName = (daysAgo: number) =>
  new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(dayAgo(daysAgo));

describe.runIf(hasTestPostgres)('reconciliation on the Supply page', () => {
  let server: RunningServer;
  let browser: Browser;
  let stopServer: () => Promise<void>;
  let dropDatabase: () => Promise<void>;
  let database: DbHandle;
  let adminContext: BrowserContext;
  let supportContext: BrowserContext;
  let page: Page;
  let supportPage: Page;

  beforeAll(async () => {
    const suite = await createSuiteDatabase();
    dropDatabase = suite.drop;
    ({
      server,
      browser,
      stop: stopServer,
    } = await startServerAndBrowser({ DATABASE_URL: suite.databaseUrl }));
    await runBytegate(suite.databaseUrl, [
      'sources',
      'add',
      '--name',
      'Oxylabs residential',
      '--pool',
      'residential',
      '--grammar',
      'oxylabs',
      '--url',
      'http://acct:S3cretPass@127.0.0.1:7777',
      '--cost-per-gb',
      '1.20',
    ]);
    database = await createDb({ databaseUrl: suite.databaseUrl });
    const sourceId = (await getSourceByName(database.db, { name: 'Oxylabs residential' }))?.id ?? '';
    for (const [daysAgo, bytes] of [
      [2, GB],
      [1, 2 * GB],
    ] as const) {
      await addSourceUsage(database.db, {
        day: dayAgo(daysAgo),
        deltas: [{ sourceId, carriedBytes: bytes, billedBytes: bytes }],
      });
    }
    const viewport = { width: 1280, height: 900 };
    const admin = await openSignedInPage(browser, server, { viewport });
    adminContext = admin.context;
    page = admin.page;
    await grantStaffRole(suite.databaseUrl, admin.account.email, 'admin');
    const support = await openSignedInPage(browser, server, { viewport });
    supportContext = support.context;
    supportPage = support.page;
    await grantStaffRole(suite.databaseUrl, support.account.email, 'support');
    // The role is read at load: a page open before the grant knows its account as a customer's.
    await page.reload();
    await supportPage.reload();
  });

  afterAll(async () => {
    await adminContext?.close();
    await supportContext?.close();
    await database?.close();
    await stopServer?.();
    await dropDatabase?.();
  });

  const section = (target: Page) => target.getByRole('region', { name: 'Reconciliation' });
  const days = (target: Page) =>
    section(target).getByRole('table', { name: 'Reconciliation of Oxylabs residential' });
  /** A day's cells as their text, whitespace folded. */
  const cellsOf = async (target: Page, daysAgo: number) =>
    (
      await days(target)
        .getByRole('row')
        .filter({ hasText: dayName(daysAgo) })
        .getByRole('cell')
        .allInnerTexts()
    ).map((text) => text.replace(/\s+/g, ' ').trim());

  async function openSupply(target: Page) {
    await navigateInApp(target, '/admin/supply');
    await target.getByRole('heading', { level: 1, name: 'Supply' }).waitFor();
    await section(target).getByRole('heading', { name: 'Reconciliation' }).waitFor();
    await settled(target);
  }

  it('lets an admin import a vendor’s export, refused by line first, and shows the flagged day in words', async () => {
    await openSupply(page);
    expect(await section(page).getByLabel('Source').inputValue()).toBe(
      (await getSourceByName(database.db, { name: 'Oxylabs residential' }))?.id,
    );
    await section(page).getByText('No vendor figures for these days').waitFor();

    await section(page).getByRole('button', { name: 'Import usage' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import Oxylabs residential’s usage' });
    await dialog.getByLabel('Or paste it').fill(`Date,Traffic (GB)\n${dateAgo(1)},abc\n`);
    await dialog.getByLabel('Reason').fill('March invoice from Oxylabs');
    await dialog.getByRole('button', { name: 'Import usage' }).click();
    await dialog.getByText('Nothing was imported: 1 line has a problem').waitFor();
    await dialog
      .getByRole('list', { name: 'Problems by line' })
      .getByText('"abc" is not an amount of traffic', { exact: false })
      .waitFor();
    await saveScreenshot(page, 'admin-reconciliation-refused');

    // The export as a file: 1 GiB two days ago (as we counted), 2.2 GiB yesterday (+10%).
    await dialog.getByLabel('Usage export (CSV)').setInputFiles({
      name: 'oxylabs-march.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`Date,Traffic,Unit\n${dateAgo(2)},1,GiB\n${dateAgo(1)},2.2,GiB\nTotal,3.2,GiB\n`),
    });
    await expect.poll(() => dialog.getByLabel('Or paste it').inputValue()).toContain('2.2,GiB');
    await dialog.getByRole('button', { name: 'Import usage' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Imported 2 days of Oxylabs residential’s usage: 1 flagged').waitFor();

    await days(page).waitFor();
    expect(await cellsOf(page, 1)).toEqual([
      dayName(1),
      '2.00 GB',
      '2.20 GB',
      '+10.00% +214,748,365 bytes',
      '+$0.24',
      'Flagged: over 2%',
    ]);
    expect(await cellsOf(page, 2)).toEqual([
      dayName(2),
      '1.00 GB',
      '1.00 GB',
      '0.00% 0 bytes',
      '$0.00',
      'Within 2%',
    ]);
    const summary = await section(page).getByRole('definition').allInnerTexts();
    expect(summary.slice(0, 2)).toEqual(['2 of 7', 'days with the vendor’s figure']);
    await section(page).getByText('+6.67%').waitFor();
    await saveScreenshot(page, 'admin-reconciliation');

    // The import is in the audit log, with its reason.
    await navigateInApp(page, '/admin/audit');
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await settled(page);
    await page
      .getByRole('table', { name: 'Audit entries' })
      .getByText('March invoice from Oxylabs')
      .waitFor();
    expect(await page.getByText('Vendor usage imported').count()).toBeGreaterThan(0);
  });

  it('shows support the same days, with no way to import', async () => {
    await openSupply(supportPage);
    await section(supportPage).getByText('Only admins import usage.', { exact: false }).waitFor();
    await days(supportPage).waitFor();
    expect((await cellsOf(supportPage, 1)).at(-1)).toBe('Flagged: over 2%');
    expect(await section(supportPage).getByRole('button', { name: 'Import usage' }).count()).toBe(0);
  });

  for (const width of [1280, 375]) {
    it(`has no axe violations in the reconciliation and its import at ${width} px`, async () => {
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
      // A table from 768 px up, a list of days on a phone; either way the flag is in words.
      const view = section(page).getByRole(width >= 768 ? 'table' : 'list', {
        name: 'Reconciliation of Oxylabs residential',
      });
      await view.getByText('Flagged: over 2%').waitFor();
      await view.scrollIntoViewIfNeeded();
      await check('reconciliation');

      await section(page).getByRole('button', { name: 'Import usage' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import Oxylabs residential’s usage' });
      await dialog.getByLabel('Or paste it').fill('Date,Requests\n2025-01-01,5\n');
      await dialog.getByRole('button', { name: 'Import usage' }).click();
      await dialog.getByText('Reason must be at least 3 characters').waitFor();
      await dialog.getByLabel('Reason').fill('Checking the header');
      await dialog.getByRole('button', { name: 'Import usage' }).click();
      await dialog.getByText('the header must name a date column', { exact: false }).waitFor();
      await check('reconciliation-import');
      await page.screenshot({ path: `${screenshotDir}/admin-reconciliation-import-screen-${width}.png` });
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      expect(found).toEqual({});
    });
  }
});
