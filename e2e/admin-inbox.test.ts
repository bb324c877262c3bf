// The support inbox (issue 15) as a customer and staff meet it: a customer writes through the contact
// page; staff find the message in the console's Inbox, assign it, add an internal note and reply, and
// the reply arrives at an SMTP server this test runs (smtp-server on 127.0.0.1, the server started with
// SMTP_URL pointing at it). Then the server runs again on the same database without SMTP_URL, and a
// reply lands in the Outbox, which shows it. axe checks the inbox, a thread and the Outbox at a desktop
// and a phone width. Staff are made with `bytegate staff grant`, which needs PostgreSQL (support/staff.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ReceivedMail,
  type SmtpSink,
  startSmtpSink,
} from '../apps/server/src/mail/testing/smtp-sink.ts';
import { axeViolations, type Violation } from './support/axe.ts';
import { saveScreenshot } from './support/browser.ts';
import { navigateInApp, settled as pageSettled } from './support/console.ts';
import { openSignedInPage, startServerAndBrowser } from './support/fixture.ts';
import { logInThroughForm, type TestAccount } from './support/journeys.ts';
import { type RunningServer, SERVER_TEST_TIMEOUT_MS, startServer } from './support/server.ts';
import { createSuiteDatabase, grantStaffRole, hasTestPostgres } from './support/staff.ts';

const SUBJECT = 'Port 25 for our monitoring';
const QUESTION = 'Could you open port 25 for our monitoring?\nWe send alerts by mail.';
const NOTE = 'Customer since March; KYC done, port 25 is fine to open.';
const REPLY = 'Hello again,\n\nPort 25 is now open on your account.';

/** Support's replies the SMTP server took (accounts get other mail too: verification links, notices). */
const repliesIn = (sink: SmtpSink) => sink.received.filter((mail) => mail.parsed.subject?.startsWith('Re: '));

/** Waits until the SMTP server has taken `count` replies (delivery is over by the time the API answers). */
async function receivedMail(sink: SmtpSink, count: number): Promise<ReceivedMail[]> {
  const deadline = Date.now() + 10_000;
  while (repliesIn(sink).length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return repliesIn(sink);
}

describe.runIf(hasTestPostgres)('the support inbox', () => {
  let sink: SmtpSink;
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
  let threadPath: string;
  let outboxMessagePath: string;

  beforeAll(async () => {
    sink = await startSmtpSink();
    const database = await createSuiteDatabase();
    databaseUrl = database.databaseUrl;
    dropDatabase = database.drop;
    ({
      server,
      browser,
      stop: stopServer,
    } = await startServerAndBrowser({
      DATABASE_URL: databaseUrl,
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      MAIL_FROM: 'Bytegate Support <support@bytegate.test>',
    }));
    const viewport = { width: 1280, height: 900 };
    ({
      context: customerContext,
      page: customerPage,
      account: customer,
    } = await openSignedInPage(browser, server, { viewport }));
    ({ context: staffContext, page, account: staff } = await openSignedInPage(browser, server, { viewport }));
    await grantStaffRole(databaseUrl, staff.email, 'support');
  });

  afterAll(async () => {
    await customerContext?.close();
    await staffContext?.close();
    await stopServer?.();
    await dropDatabase?.();
    await sink?.close();
  });

  const settled = (target: Page = page) => pageSettled(target);

  const details = () => page.getByRole('region', { name: 'Details' });
  const conversation = () => page.getByRole('list', { name: 'Conversation' });

  it('takes a message from the contact page into the inbox as new', async () => {
    await customerPage.goto(`${server.url}/contact`);
    await customerPage.getByLabel('Name', { exact: true }).fill('Margaret Hamilton');
    await customerPage.getByLabel('Email', { exact: true }).fill(customer.email);
    await customerPage.getByLabel(/^Subject/).fill(SUBJECT);
    await customerPage.getByLabel('Message', { exact: true }).fill(QUESTION);
    await customerPage.getByRole('button', { name: 'Send Message' }).click();
    await customerPage.getByText('Message Sent!').first().waitFor();

    // The role was granted after sign-in: a reload asks the server again.
    await page.reload();
    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Console' }).click();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Inbox' }).click();
    await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
    await settled();
    expect(await page.title()).toBe('Inbox · Console | Bytegate');
    const tabs = page.getByRole('navigation', { name: 'Message status' });
    expect(await tabs.getByRole('link', { name: /^New 1 message$/ }).count()).toBe(1);
    const row = page.getByRole('list', { name: 'Messages' }).getByRole('link', { name: new RegExp(SUBJECT) });
    await row.getByText('New', { exact: true }).waitFor();
    await row.getByText('Unassigned').waitFor();

    // Filters are in the address: nothing is assigned to me yet, and the search finds the message.
    await page.getByLabel('Assignee').selectOption('me');
    await page.getByText('No messages match these filters').waitFor();
    expect(new URL(page.url()).searchParams.get('assignee')).toBe('me');
    await page.getByLabel('Assignee').selectOption('anyone');
    await page.getByLabel('Search messages').fill('monitoring');
    await page.getByText('1 message matches').waitFor();
    await row.click();
    await page.getByRole('heading', { level: 1, name: new RegExp(SUBJECT) }).waitFor();
    threadPath = new URL(page.url()).pathname;
  });

  it('shows the thread with the customer it matches, and assigns it to me (a new message opens)', async () => {
    await settled();
    await conversation().getByText('Could you open port 25 for our monitoring?').waitFor();
    const account = details().getByRole('link', { name: /Margaret Hamilton/ });
    expect(await account.getAttribute('href')).toMatch(/^\/admin\/customers\/[0-9a-f-]{36}$/);
    await details().getByText('Same email as the account').waitFor();

    await details()
      .getByRole('button', { name: /^Assignee/ })
      .click();
    await page.getByRole('menuitemradio', { name: /Margaret Hamilton \(you\)/ }).click();
    await page.getByText('Assigned to you').waitFor();
    await details().getByRole('button', { name: 'Assignee Margaret Hamilton (you)' }).waitFor();
    await details().getByRole('button', { name: 'Status Open' }).waitFor();
  });

  it('adds an internal note, shown apart from what the customer sees', async () => {
    await page.getByRole('tab', { name: 'Internal note' }).click();
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Note is required').waitFor();
    await page.getByRole('textbox', { name: 'Internal note' }).fill(NOTE);
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByText('Note added', { exact: true }).waitFor();
    const note = conversation().getByRole('article', {
      name: `Internal note by ${staff.email.toLowerCase()}`,
    });
    await note.getByText(NOTE).waitFor();
    await note.getByText('Only staff see this note.').waitFor();
  });

  it('replies, and the email arrives at the SMTP server with the message quoted', async () => {
    await page.getByRole('tab', { name: 'Reply' }).click();
    await page.getByLabel('Reply to Margaret Hamilton').fill(REPLY);
    await page.getByLabel('Reply to Margaret Hamilton').press('Control+Enter');
    await page.getByText(`Reply sent to ${customer.email.toLowerCase()}`).waitFor();
    const reply = conversation().getByRole('article', { name: `Reply by ${staff.email.toLowerCase()}` });
    await reply.getByText('Port 25 is now open on your account.').waitFor();
    await details().getByRole('button', { name: 'Status Answered' }).waitFor();
    expect(await page.getByLabel('Reply to Margaret Hamilton').inputValue()).toBe('');

    const [mail] = await receivedMail(sink, 1);
    expect(repliesIn(sink)).toHaveLength(1);
    expect(mail?.rcptTo).toEqual([customer.email.toLowerCase()]);
    expect(mail?.mailFrom).toBe('support@bytegate.test');
    expect(mail?.parsed.subject).toBe(`Re: ${SUBJECT}`);
    expect(mail?.parsed.to).toMatchObject({
      value: [{ name: 'Margaret Hamilton', address: customer.email.toLowerCase() }],
    });
    expect(mail?.parsed.text).toContain(
      'Hello Margaret Hamilton,\n\nHello again,\n\nPort 25 is now open on your account.',
    );
    expect(mail?.parsed.text).toContain(
      '> Could you open port 25 for our monitoring?\n> We send alerts by mail.',
    );
    expect(mail?.parsed.html).toContain('<p>Port 25 is now open on your account.</p>');
    // The note never left the building.
    expect(mail?.source).not.toContain('KYC done');
    // The thread keeps the Message-ID the customer's mail server got.
    await reply.getByText(mail?.parsed.messageId ?? 'no Message-ID').waitFor();
  });

  it('closes the thread, and the audit log has every step', async () => {
    await details().getByRole('button', { name: 'Status Answered' }).click();
    await page.getByRole('menuitemradio', { name: /^Closed/ }).click();
    await details().getByRole('button', { name: 'Status Closed' }).waitFor();

    await navigateInApp(page, '/admin/audit');
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    await settled();
    const entries = page.getByRole('table', { name: 'Audit entries' });
    for (const action of ['Message assigned', 'Note added', 'Reply sent', 'Message status changed']) {
      await entries.getByText(action, { exact: true }).waitFor();
    }
    await entries.getByText(NOTE).waitFor();

    // The customer's link leads to their page.
    await navigateInApp(page, threadPath);
    await details()
      .getByRole('link', { name: /Margaret Hamilton/ })
      .click();
    await page.getByRole('heading', { level: 1, name: /Margaret Hamilton/ }).waitFor();
  });

  for (const width of [1280, 375]) {
    it(`has no axe violations on the inbox, a thread and the Outbox (SMTP) at ${width} px`, async () => {
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
      await navigateInApp(page, '/admin/inbox');
      await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
      await check('inbox');
      await navigateInApp(page, '/admin/inbox?status=new');
      await page.getByText('No messages match these filters').waitFor();
      await check('inbox-empty');

      await navigateInApp(page, threadPath);
      await conversation().waitFor();
      await check('thread');
      await details()
        .getByRole('button', { name: /^Status/ })
        .click();
      await page.getByRole('menu').waitFor();
      await check('thread-status-menu');
      await page.keyboard.press('Escape');

      await navigateInApp(page, '/admin/outbox');
      await page.getByText('Mail goes out through the SMTP server in SMTP_URL').waitFor();
      await page.getByText('Nothing in the outbox').first().waitFor();
      await check('outbox-smtp');
      expect(found).toEqual({});
    });
  }

  it(
    'writes mail to the Outbox without SMTP_URL, and shows it there',
    async () => {
      // The same database, the server started again without SMTP_URL: mail goes to DATA_DIR/outbox.
      await page.setViewportSize({ width: 1280, height: 900 });
      await server.stop();
      server = await startServer({
        DATABASE_URL: databaseUrl,
        MAIL_FROM: 'Bytegate Support <support@bytegate.test>',
      });
      const stopFirst = stopServer;
      stopServer = async () => {
        await server.stop();
        await stopFirst().catch(() => undefined);
      };
      await logInThroughForm(page, server.url, staff.email, staff.password);
      await page.waitForURL(`${server.url}/dashboard`);
      await page.goto(`${server.url}${threadPath}`);
      await conversation().waitFor();
      await page.getByLabel('Reply to Margaret Hamilton').fill('One more thing: port 587 works too.');
      await page.getByRole('button', { name: 'Send reply' }).click();
      await page.getByText(`Reply sent to ${customer.email.toLowerCase()}`).waitFor();
      // Written to the outbox this time: the SMTP server took no other reply.
      expect(repliesIn(sink)).toHaveLength(1);

      await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Outbox' }).click();
      await page.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor();
      await settled();
      expect(await page.getByText('Mail goes out through the SMTP server').count()).toBe(0);
      const list = page.getByRole('list', { name: 'Outbox messages' });
      await list.getByRole('link', { name: new RegExp(`Re: ${SUBJECT}`) }).click();
      const message = page.getByRole('article', { name: `Re: ${SUBJECT}` });
      await message.getByText(`Margaret Hamilton <${customer.email.toLowerCase()}>`).waitFor();
      await message.getByText('Bytegate Support <support@bytegate.test>').waitFor();
      // The HTML in its sandboxed frame: the reply, the question quoted, and no script may run there.
      const frame = page.frameLocator(`iframe[title="HTML of the message: Re: ${SUBJECT}"]`);
      await frame.getByText('One more thing: port 587 works too.').waitFor();
      await frame.getByText('Could you open port 25 for our monitoring?').waitFor();
      expect(await page.locator('iframe[sandbox=""]').count()).toBe(1);
      outboxMessagePath = new URL(page.url()).pathname;
      expect(outboxMessagePath).toMatch(/^\/admin\/outbox\/\d{8}T\d{9}Z-[0-9a-f]{12}$/);
      await message.getByRole('tab', { name: 'Plain text' }).click();
      await message.getByText(/> Could you open port 25 for our monitoring\?/).waitFor();
    },
    SERVER_TEST_TIMEOUT_MS,
  );

  for (const width of [1280, 375]) {
    it(`has no axe violations on the Outbox with a message open at ${width} px`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}${outboxMessagePath}`);
      await page.getByRole('article', { name: `Re: ${SUBJECT}` }).waitFor();
      await settled();
      const violations = await axeViolations(page);
      await saveScreenshot(page, `admin-outbox-message-${width}`);
      await navigateInApp(page, '/admin/outbox');
      await page.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor();
      await settled();
      const listViolations = await axeViolations(page);
      await saveScreenshot(page, `admin-outbox-${width}`);
      expect({ message: violations, list: listViolations }).toEqual({ message: [], list: [] });
    });
  }
});

// Issue 28: a one-time link is its addressee's alone. Support sends a customer a password reset link from
// their page; the Outbox lists it and shows it with the link redacted, saying why, while the addressee's
// copy (the .eml file) holds the link; the read is in the audit log.
describe.runIf(hasTestPostgres)('one-time links in the Outbox', () => {
  let running: Awaited<ReturnType<typeof startServerAndBrowser>>;
  let dropDatabase: () => Promise<void>;
  let staffContext: BrowserContext;
  let page: Page;
  let staff: TestAccount;
  const customerEmail = `ada.${Date.now()}@example.com`;

  beforeAll(async () => {
    const database = await createSuiteDatabase();
    dropDatabase = database.drop;
    running = await startServerAndBrowser({ DATABASE_URL: database.databaseUrl });
    ({
      context: staffContext,
      page,
      account: staff,
    } = await openSignedInPage(running.browser, running.server, {
      viewport: { width: 1280, height: 900 },
    }));
    await grantStaffRole(database.databaseUrl, staff.email, 'support');
    const signup = await fetch(`${running.server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: customerEmail,
        password: 'correct horse battery',
      }),
    });
    expect(signup.status).toBe(201);
  });

  afterAll(async () => {
    await staffContext?.close();
    await running?.stop();
    await dropDatabase?.();
  });

  it('sends a customer a reset link from their page, and the Outbox shows it redacted, saying why', async () => {
    const found = await page.request.get(
      `${running.server.url}/api/admin/customers?q=${encodeURIComponent(customerEmail)}`,
    );
    const { customers } = (await found.json()) as { customers: Array<{ id: string }> };
    await page.goto(`${running.server.url}/admin/customers/${customers[0]?.id}`);
    await page.getByRole('button', { name: 'Send password reset' }).click();
    await page.getByLabel('Reason').fill('Locked out, identity checked by phone');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(`Password reset link sent to ${customerEmail}`).waitFor();

    await navigateInApp(page, '/admin/outbox');
    const list = page.getByRole('list', { name: 'Outbox messages' });
    const item = list.getByRole('link', { name: /Reset your Bytegate password/ });
    await item.getByText('Link redacted').waitFor();
    await item.click();
    const message = page.getByRole('article', { name: 'Reset your Bytegate password' });
    await message.getByText('One-time link redacted.').waitFor();
    const frame = page.frameLocator('iframe[title="HTML of the message: Reset your Bytegate password"]');
    await frame.getByText('[one-time link redacted]').first().waitFor();
    const framed = await frame.locator('body').innerHTML();
    await message.getByRole('tab', { name: 'Plain text' }).click();
    await message.locator('pre', { hasText: '[one-time link redacted]' }).waitFor();

    // The addressee's copy has the link; nothing on the console's page does.
    const outboxId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    const file = await simpleParser(readFileSync(join(running.server.dataDir, 'outbox', `${outboxId}.eml`)));
    const token = /reset-password\?token=([A-Za-z0-9_-]{20,})/.exec(file.text ?? '')?.[1];
    expect(token).toBeTruthy();
    expect(framed).not.toContain(token);
    expect(await page.content()).not.toContain(token);
    await pageSettled(page);
    const violations = await axeViolations(page);
    await saveScreenshot(page, 'admin-outbox-redacted-1280');
    expect(violations).toEqual([]);

    await navigateInApp(page, '/admin/audit');
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const entries = page.getByRole('table', { name: 'Audit entries' });
    await entries.getByText('Outbox message read', { exact: true }).waitFor();
    await entries.getByText('Password reset link sent', { exact: true }).waitFor();
    await entries.getByText('Locked out, identity checked by phone', { exact: false }).waitFor();
  });
});
