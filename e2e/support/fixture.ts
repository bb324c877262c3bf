import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { newAccount, signUpThroughForm, type TestAccount } from './journeys.ts';
import { type RunningServer, startServer } from './server.ts';

// The one start-up of a browser journey suite: the real server, a browser and (for journeys that need
// one) a page signed in as a new account. A suite calls it in beforeAll and calls stop() in afterAll:
//
//   beforeAll(async () => {
//     ({ server, browser, context, page, stop } = await startSignedInSuite({ context: { viewport } }));
//   });
//   afterAll(() => stop?.());

/** The product and a browser, running for one test file. */
export interface ServerAndBrowser {
  server: RunningServer;
  browser: Browser;
  /** Closes what the suite opened: its page's context (if any), the browser, then the server. */
  stop(): Promise<void>;
}

/** A browser context of its own (cookies, storage) with one page, signed up as a new account. */
export interface SignedInPage {
  context: BrowserContext;
  page: Page;
  account: TestAccount;
}

/** Starts the server (`env` over its defaults) and a browser. A browser that cannot start stops the server. */
export async function startServerAndBrowser(env: Record<string, string> = {}): Promise<ServerAndBrowser> {
  const server = await startServer(env);
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    server,
    browser,
    async stop() {
      await browser.close();
      await server.stop();
    },
  };
}

/**
 * Opens a new context and page and signs up a new account through the form, as a person would: the
 * page is on the dashboard when this answers. The caller closes the context.
 */
export async function openSignedInPage(
  browser: Browser,
  server: RunningServer,
  contextOptions: BrowserContextOptions = {},
): Promise<SignedInPage> {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const account = newAccount();
  await signUpThroughForm(page, server.url, account);
  return { context, page, account };
}

/** A suite whose tests share one signed-in page: the server, a browser and that page, started together. */
export async function startSignedInSuite(
  options: { env?: Record<string, string>; context?: BrowserContextOptions } = {},
): Promise<ServerAndBrowser & SignedInPage> {
  const running = await startServerAndBrowser(options.env);
  let signedIn: SignedInPage;
  try {
    signedIn = await openSignedInPage(running.browser, running.server, options.context);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return {
    ...running,
    ...signedIn,
    async stop() {
      await signedIn.context.close();
      await running.stop();
    },
  };
}
