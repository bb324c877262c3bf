import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../apps/server/src/mail/testing/smtp-sink.ts';
import { isSignatureValid } from '../apps/server/src/services/notifications/webhook-signature.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../apps/server/src/testing/webhook-receiver.ts';
import { axeViolations } from './support/axe.ts';
import { saveScreenshot } from './support/browser.ts';
import { settled } from './support/console.ts';
import { startSignedInSuite } from './support/fixture.ts';
import { buyDatacenterPlan, openSection, type TestAccount } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

// Notifications (issue 18) as a customer sets them up: a webhook with its test event and delivery log, a
// low-traffic alert on a plan, then real traffic through the gateway crossing it, and the alert arriving
// by email at an SMTP server this test runs and at a webhook receiver it runs, signed.

const run = promisify(execFile);
const BIG_BYTES = 2 * 1024 * 1024;

let origin: Server;
let smtp: SmtpSink;
let receiver: WebhookReceiver;
let server: RunningServer;
let page: Page;
let account: TestAccount;
let stop: () => Promise<void>;
let secret = '';

beforeAll(async () => {
  origin = createServer((_request, response) => {
    response.writeHead(200, { 'content-length': BIG_BYTES });
    response.end(Buffer.alloc(BIG_BYTES, 97));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  smtp = await startSmtpSink();
  receiver = await startWebhookReceiver();
  ({ server, page, account, stop } = await startSignedInSuite({
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      // This journey is about notifications; verifying the address has a journey of its own.
      EMAIL_VERIFICATION: 'off',
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'true',
      GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
      GATEWAY_OPEN_PORTS: String((origin.address() as AddressInfo).port),
    },
    context: { viewport: { width: 1280, height: 900 } },
  }));
  await buyDatacenterPlan(page);
});
afterAll(async () => {
  await stop?.();
  await smtp?.close();
  await receiver?.close();
  await new Promise((resolve) => origin?.close(resolve));
});

/** Polls until `check` answers something, for up to `ms`. */
async function eventually<T>(ms: number, check: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = check();
    if (found !== undefined) {
      return found;
    }
    if (Date.now() > deadline) {
      throw new Error(`not within ${ms} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The innermost box labelled by the heading `name`: its card (tab panels around it are labelled too). */
const cardTitled = (name: string) =>
  page
    .locator('[aria-labelledby]')
    .filter({ has: page.getByRole('heading', { name, exact: true }) })
    .last();

const sidewaysOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('notifications', () => {
  it('tells of the top-up and the purchase by email', async () => {
    const subjects = await eventually(15_000, () => {
      const found = smtp.received
        .filter((mail) => mail.rcptTo.includes(account.email))
        .map((mail) => mail.parsed.subject ?? '');
      return found.length >= 2 ? found : undefined;
    });
    expect(subjects).toEqual(
      expect.arrayContaining(['Top-up credited: $10.00', 'Purchase done: 5 GB of Datacenter traffic']),
    );
  });

  it('sets a webhook, shows its secret, sends a signed test event and logs its delivery', async () => {
    await openSection(page, 'User Settings');
    const card = cardTitled('Webhook');
    await card.getByLabel('Endpoint URL').fill('ftp://nowhere');
    await card.getByRole('button', { name: 'Set Webhook' }).click();
    await card
      .getByText('Enter the full address of your endpoint, starting with https:// (or http://).')
      .waitFor();
    await card.getByLabel('Endpoint URL').fill(receiver.url);
    await card.getByRole('button', { name: 'Set Webhook' }).click();
    await page.getByText('Webhook set: choose what it receives above').waitFor();
    await card.getByRole('button', { name: 'Show signing secret' }).click();
    secret = (await card.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);

    await card.getByRole('button', { name: 'Send Test Event' }).click();
    await page.getByText('Test event delivered: HTTP 200').waitFor();
    const test = receiver.received.at(-1);
    expect(JSON.parse(test?.body ?? '{}')).toMatchObject({ type: 'test' });
    expect(
      isSignatureValid({
        secret,
        header: test?.headers['bytegate-signature'] as string,
        body: test?.body ?? '',
        nowSeconds: Math.floor(Date.now() / 1000),
      }),
    ).toBe(true);
    const log = card.getByRole('list', { name: 'Deliveries' });
    await log.getByText('Test event').first().click();
    await log.getByText('Attempt 1').waitFor();
    await log.getByText('{"ok":true}').waitFor();

    // The webhook column now applies: the kinds it receives are chosen with the email ones.
    const notifications = cardTitled('Notifications');
    await expect.poll(() => notifications.getByLabel('Low traffic by webhook').isEnabled()).toBe(true);
    await notifications.getByLabel('New sign-in by webhook').uncheck();
    await notifications.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Notification settings saved').waitFor();

    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await settled(page);
      expect(await axeViolations(page)).toEqual([]);
      expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
      await card.screenshot({ path: `e2e/screenshots/webhook-card-${width}.png` });
      await notifications.screenshot({ path: `e2e/screenshots/notifications-card-${width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('sets a low-traffic alert that gateway traffic crosses, told once by email and by the webhook', async () => {
    await openSection(page, 'Proxy Setup');
    const card = cardTitled('Alerts & Auto-buy');
    await card.getByLabel('Warn under (GB left)').fill('0');
    await card.getByRole('button', { name: 'Save Alert' }).click();
    await card
      .getByText('The GB left is a number above 0 and at most 100000, with up to 3 decimals.')
      .waitFor();
    // 4.999 GB is about 1 MB under the 5 GB bought: the 2 MB below cross it.
    await card.getByLabel('Warn under (GB left)').fill('4.999');
    await card.getByRole('button', { name: 'Save Alert' }).click();
    await page.getByText('Low-traffic alert saved').waitFor();
    await card.getByText('Warns you under 4.999 GB left, once each time.').waitFor();

    const plans = await page.evaluate(
      async () => (await (await fetch('/api/subuser/plans')).json()) as unknown,
    );
    const plan = (plans as { plans: Array<{ login: string; password: string }> }).plans[0];
    const { stdout } = await run('curl', [
      '--silent',
      '--output',
      '/dev/null',
      '--write-out',
      '%{http_code} %{size_download}',
      '--proxy',
      `http://127.0.0.1:${server.gatewayPort}`,
      '--proxy-user',
      `${plan?.login}:${plan?.password}`,
      `http://127.0.0.1:${(origin.address() as AddressInfo).port}/big`,
    ]);
    expect(stdout).toBe(`200 ${BIG_BYTES}`);

    // The jobs check thresholds every 10 s and hand notifications out every 2 s.
    const mail = await eventually(30_000, () =>
      smtp.received.find(
        (one) => one.rcptTo.includes(account.email) && /traffic low/.test(one.parsed.subject ?? ''),
      ),
    );
    expect(mail.parsed.subject).toBe('Datacenter traffic low: 4.99 GB left');
    expect(mail.parsed.text).toContain('under the 4.999 GB you set');
    const hook = await eventually(15_000, () =>
      receiver.received.find((one) => one.body.includes('"low_traffic"')),
    );
    const event = JSON.parse(hook.body);
    expect(event).toMatchObject({
      type: 'low_traffic',
      data: { pool_type: 'datacenter', threshold: { gb: 4.999 } },
    });
    expect(
      isSignatureValid({
        secret,
        header: hook.headers['bytegate-signature'] as string,
        body: hook.body,
        nowSeconds: Math.floor(Date.now() / 1000),
      }),
    ).toBe(true);

    await page.reload();
    await openSection(page, 'Proxy Setup');
    await card.getByText(/^Below the threshold now \(under 4\.999 GB left\)/).waitFor();
    // Once: a further check finds it triggered, and nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    expect(receiver.received.filter((one) => one.body.includes('"low_traffic"'))).toHaveLength(1);
    expect(smtp.received.filter((one) => /traffic low/.test(one.parsed.subject ?? ''))).toHaveLength(1);
  });

  it('has no axe violations on the alerts and auto-buy at 1280 and 375 px', async () => {
    const card = cardTitled('Alerts & Auto-buy');
    await card.getByLabel('Under (GB left)', { exact: true }).fill('1');
    await card.getByLabel('Buy (GB)', { exact: true }).fill('4');
    await card.getByRole('button', { name: 'Save Auto-buy' }).click();
    await card.getByText('The minimum purchase is 5 GB').waitFor();
    await card.getByLabel('Buy (GB)', { exact: true }).fill('10');
    await card.getByText('Each buy costs $9.90 from your balance.').waitFor();
    await card.getByRole('button', { name: 'Save Auto-buy' }).click();
    await page.getByText('Auto-buy saved').waitFor();
    await card.getByText('0 of 3 this month.').waitFor();
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await settled(page);
      expect(await axeViolations(page)).toEqual([]);
      expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
      await card.screenshot({ path: `e2e/screenshots/alerts-auto-buy-${width}.png` });
    }
    await saveScreenshot(page, 'proxy-setup-alerts-375');
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
