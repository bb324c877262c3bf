import type { Browser, Page } from 'playwright-core';
import { openSignedInPage, type SignedInPage, startServerAndBrowser } from './fixture.ts';
import { buyDatacenterPlan } from './journeys.ts';
import type { RunningServer } from './server.ts';
import { createSuiteDatabase, grantStaffRole } from './staff.ts';

// What the staff console's journeys share: a server on a PostgreSQL database of the suite's own (staff
// are granted with `bytegate staff grant` beside it), a customer and a staff member each signed in in a
// browser context of their own, and the waits the console's pages need.

export interface ConsoleSuite {
  server: RunningServer;
  browser: Browser;
  databaseUrl: string;
  customer: SignedInPage;
  staff: SignedInPage;
  /** Closes both contexts, the browser and the server, and drops the database. */
  stop(): Promise<void>;
}

/** Starts a console suite at 1280 × 900; the customer has bought a datacenter plan when it answers. */
export async function startConsoleSuite(options: {
  staffRole: 'support' | 'admin';
  env?: Record<string, string>;
}): Promise<ConsoleSuite> {
  const database = await createSuiteDatabase();
  const { server, browser, stop } = await startServerAndBrowser({
    ...options.env,
    DATABASE_URL: database.databaseUrl,
  });
  const viewport = { width: 1280, height: 900 };
  const customer = await openSignedInPage(browser, server, { viewport });
  await buyDatacenterPlan(customer.page);
  const staff = await openSignedInPage(browser, server, { viewport });
  await grantStaffRole(database.databaseUrl, staff.account.email, options.staffRole);
  return {
    server,
    browser,
    databaseUrl: database.databaseUrl,
    customer,
    staff,
    async stop() {
      await customer.context.close();
      await staff.context.close();
      await stop();
      await database.drop();
    },
  };
}

/** Waits until the page's network is idle and its loading skeletons and spinners are gone. */
export async function settled(page: Page): Promise<void> {
  // A quiet network, when it comes: on a busy machine a page's last request may keep it from ever being
  // idle for the 500 ms Playwright asks, and what matters is that nothing is shown as loading.
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await page.waitForFunction(
    () => document.querySelectorAll('[role="status"][aria-label^="Loading"]').length === 0,
  );
}

/** Moves the app to `path` as its own links do (history and the router, no page load). */
export async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}
