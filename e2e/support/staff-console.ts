import { createDb, type DbHandle } from '@bytegate/db';
import type { Browser, Page } from 'playwright-core';
import { navigateInApp, settled } from './console.ts';
import { openSignedInPage, type SignedInPage, startServerAndBrowser } from './fixture.ts';
import type { RunningServer } from './server.ts';
import { createSuiteDatabase, grantStaffRole, runBytegate } from './staff.ts';

// The start-up of a console journey for staff: a PostgreSQL database of the suite's own, the server on
// it and a browser, a connection for the suite's own rows, and two pages signed in as new accounts made
// admin and support with `bytegate staff grant`. Then what the Supply page's journeys share: a network
// added as an operator adds one, and the page opened from the console's navigation.

export interface StaffConsoleSuite {
  server: RunningServer;
  browser: Browser;
  databaseUrl: string;
  /** The suite's own connection, for rows written as the gateway or a job would write them. */
  database: DbHandle;
  admin: SignedInPage;
  support: SignedInPage;
  /** Closes the pages, the connection, the browser and the server, and drops the database. */
  stop(): Promise<void>;
}

/** Starts a staff console suite (see the module's comment); pages of `viewport`'s size. */
export async function startStaffConsoleSuite(
  viewport = { width: 1280, height: 900 },
): Promise<StaffConsoleSuite> {
  const suite = await createSuiteDatabase();
  const closers: Array<() => Promise<void>> = [suite.drop];
  const stop = async () => {
    for (const close of closers.reverse()) {
      await close();
    }
  };
  try {
    const running = await startServerAndBrowser({ DATABASE_URL: suite.databaseUrl });
    closers.push(running.stop);
    const database = await createDb({ databaseUrl: suite.databaseUrl });
    closers.push(() => database.close());
    const admin = await openSignedInPage(running.browser, running.server, { viewport });
    closers.push(() => admin.context.close());
    const support = await openSignedInPage(running.browser, running.server, { viewport });
    closers.push(() => support.context.close());
    await grantStaffRole(suite.databaseUrl, admin.account.email, 'admin');
    await grantStaffRole(suite.databaseUrl, support.account.email, 'support');
    // The role is read at load: a page open before the grant knows its account as a customer's.
    await admin.page.reload();
    await support.page.reload();
    return { ...running, databaseUrl: suite.databaseUrl, database, admin, support, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `bytegate sources add` for a wholesale network, as an operator types it. */
export function addNetworkSource(
  databaseUrl: string,
  source: { name: string; pool: string; grammar: string; url: string; costPerGb: string },
): Promise<string> {
  return runBytegate(databaseUrl, [
    'sources',
    'add',
    '--name',
    source.name,
    '--pool',
    source.pool,
    '--grammar',
    source.grammar,
    '--url',
    source.url,
    '--cost-per-gb',
    source.costPerGb,
  ]);
}

/** The console's Supply page, reached through its navigation, its figures loaded. */
export async function openSupply(target: Page): Promise<void> {
  await navigateInApp(target, '/admin');
  await target
    .getByRole('navigation', { name: 'Console' })
    .first()
    .getByRole('link', { name: 'Supply' })
    .click();
  await target.getByRole('heading', { level: 1, name: 'Supply' }).waitFor();
  await settled(target);
}
