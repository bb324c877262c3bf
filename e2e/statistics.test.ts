import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { saveScreenshot } from './support/browser.ts';
import { settled } from './support/console.ts';
import { startSignedInSuite } from './support/fixture.ts';
import { buyDatacenterPlan, openSection } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

// The Statistics section (issue 19) over real traffic through the gateway: the totals and success rate
// (a refusal by our policy apart), a credential filter, periods, the CSV downloads checked against what
// the plan was billed, and the live view moving while a download runs.

const run = promisify(execFile);
let origin: Server;
let originPort: number;
let server: RunningServer;
let page: Page;
let stop: () => Promise<void>;
let plan: { subUserId: string; login: string; password: string };
let proxyUser: { id: string; login: string; password: string };

beforeAll(async () => {
  origin = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://origin');
    if (url.pathname === '/slow') {
      // 64 KiB every 200 ms for 6 s: a download the live view can watch.
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      let sent = 0;
      const timer = setInterval(() => {
        response.write(Buffer.alloc(64 * 1024, 98));
        sent += 1;
        if (sent >= 30) {
          clearInterval(timer);
          response.end();
        }
      }, 200);
      request.on('close', () => clearInterval(timer));
      return;
    }
    const size = Number(url.searchParams.get('bytes') ?? 1000);
    response.writeHead(200, { 'content-length': size });
    response.end(Buffer.alloc(size, 97));
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  ({ server, page, stop } = await startSignedInSuite({
    env: { GATEWAY_ALLOW_PRIVATE_TARGETS: 'true', GATEWAY_OPEN_PORTS: String(originPort) },
    context: { viewport: { width: 1280, height: 900 }, acceptDownloads: true },
  }));
  await buyDatacenterPlan(page);
  // The plan, and a proxy user of it, as the dashboard's own calls make them.
  ({ plan, proxyUser } = await page.evaluate(async () => {
    const { csrfToken } = (await (await fetch('/api/auth/me')).json()) as { csrfToken: string };
    const plans = (await (await fetch('/api/subuser/plans')).json()) as {
      plans: Array<{ subUserId: string; login: string; password: string }>;
    };
    const first = plans.plans[0] as { subUserId: string; login: string; password: string };
    const created = await fetch(`/api/plans/${first.subUserId}/proxy-users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
      body: JSON.stringify({ label: 'Scraper EU' }),
    });
    const { proxy_user } = (await created.json()) as {
      proxy_user: { id: string; login: string; password: string };
    };
    return { plan: first, proxyUser: proxy_user };
  }));
  // Traffic: the plan's own login downloads 300,000 bytes and tries a port our policy closes; the proxy
  // user downloads 200,000 bytes. Each credential is tried until the gateway knows it (within a second).
  await curlUntil200(plan, `http://127.0.0.1:${originPort}/?bytes=300000`);
  await curlUntil200(proxyUser, `http://127.0.0.1:${originPort}/?bytes=200000`);
  expect((await curl(plan, 'http://127.0.0.1:25/')).status).toBe('403');
  // Usage is flushed every second.
  await new Promise((resolve) => setTimeout(resolve, 2500));
});
afterAll(async () => {
  await stop?.();
  await new Promise((resolve) => origin?.close(resolve));
});

async function curl(who: { login: string; password: string }, url: string) {
  const { stdout } = await run('curl', [
    '--silent',
    '--output',
    '/dev/null',
    '--write-out',
    '%{http_code}',
    '--proxy',
    `http://127.0.0.1:${server.gatewayPort}`,
    '--proxy-user',
    `${who.login}:${who.password}`,
    url,
  ]);
  return { status: stdout };
}

async function curlUntil200(who: { login: string; password: string }, url: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while ((await curl(who, url)).status !== '200') {
    if (Date.now() > deadline) {
      throw new Error(`${who.login} never got through`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** A figure of the summary by its label. */
const figure = (label: string) =>
  page
    .locator('dl > div')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd')
    .first();

const sidewaysOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('Statistics', () => {
  it('shows the totals of every credential, a refusal by our policy apart from the success rate', async () => {
    await openSection(page, 'Statistics');
    await page.getByRole('heading', { level: 1, name: 'Statistics' }).waitFor();
    await expect.poll(() => figure('Requests').textContent(), { timeout: 10_000 }).toBe('3');
    expect(await figure('Success rate').textContent()).toBe('100%');
    expect(await figure('Failed · refused by policy').textContent()).toBe('0 · 1');
    await page.getByText('Showing all credentials, the last 7 d, by the hour (UTC).').waitFor();
    const errors = page.getByRole('list', { name: 'Errors by code' });
    await errors.getByText('PORT_BLOCKED').waitFor();
    await errors.getByText('Refused by policy').waitFor();
    const hosts = page.getByRole('table', { name: 'Target hosts, most bytes first' });
    await hosts.getByRole('rowheader', { name: '127.0.0.1' }).waitFor();
    await saveScreenshot(page, 'statistics-1280');
  });

  it('narrows to the proxy user, then to another period, with the same figures where they should be', async () => {
    await page.getByLabel('Credential', { exact: true }).selectOption(`user:${proxyUser.id}`);
    await expect.poll(() => figure('Requests').textContent()).toBe('1');
    await page.getByText(/^Showing proxy user Scraper EU, the last 7 d/).waitFor();
    expect(await figure('Failed · refused by policy').textContent()).toBe('0 · 0');
    await page.getByLabel('Credential', { exact: true }).selectOption(`plan:${plan.subUserId}`);
    await expect.poll(() => figure('Requests').textContent()).toBe('2');
    await page.getByLabel('Credential', { exact: true }).selectOption('all');
    await page.getByRole('radio', { name: '24 h' }).click();
    await expect.poll(() => figure('Requests').textContent()).toBe('3');
    await page.getByRole('radio', { name: 'Custom' }).click();
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('From (UTC)').fill('2026-01-10');
    await page.getByLabel('To (UTC, included)').fill('2026-01-05');
    await page.getByText('The end date comes before the start date.').waitFor();
    await page.getByLabel('From (UTC)').fill(today);
    await page.getByLabel('To (UTC, included)').fill(today);
    await page.getByRole('radio', { name: 'Daily' }).click();
    await expect.poll(() => figure('Requests').textContent()).toBe('3');
    await page.getByRole('radio', { name: '7 d' }).click();
  });

  it('downloads CSVs whose bytes add up to what the plan was billed', async () => {
    const { trafficUsedBytes } = await page.evaluate(async () => {
      const plans = (await (await fetch('/api/subuser/plans')).json()) as {
        plans: Array<{ trafficUsedBytes: number }>;
      };
      return plans.plans[0] as { trafficUsedBytes: number };
    });
    const downloadOf = async (name: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name, exact: true }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^bytegate-\w+-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
      return readFileSync((await download.path()) as string, 'utf8')
        .trimEnd()
        .split('\r\n');
    };
    const traffic = await downloadOf('Traffic');
    expect(traffic[0]).toBe('start,bytes,billed_bytes,requests,succeeded,failed,refused_by_policy');
    const rows = traffic.slice(1).map((line) => line.split(','));
    expect(rows.every((row) => /^\d{4}-\d{2}-\d{2}T\d{2}:00:00\.000Z$/.test(row[0] ?? ''))).toBe(true);
    expect(rows.reduce((sum, row) => sum + Number(row[2]), 0)).toBe(trafficUsedBytes);
    expect(rows.reduce((sum, row) => sum + Number(row[3]), 0)).toBe(3);
    const hosts = await downloadOf('Hosts');
    expect(hosts[0]).toBe('host,bytes,requests,errors');
    const hostRows = hosts.slice(1).map((line) => line.split(','));
    expect(hostRows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(trafficUsedBytes);
    const errors = await downloadOf('Errors');
    expect(errors[1]).toMatch(/^PORT_BLOCKED,1,true,/);
  });

  it('shows a download live while it runs, and idle after', async () => {
    const live = page.locator('[data-testid="live-connections"]');
    await page.getByTestId('live-idle').waitFor({ timeout: 15_000 });
    const download = spawn('curl', [
      '--silent',
      '--output',
      '/dev/null',
      '--proxy',
      `http://127.0.0.1:${server.gatewayPort}`,
      '--proxy-user',
      `${plan.login}:${plan.password}`,
      `http://127.0.0.1:${originPort}/slow`,
    ]);
    const finished = new Promise((resolve) => download.once('exit', resolve));
    await expect.poll(() => live.first().textContent(), { timeout: 6000 }).toBe('1 connection');
    await expect
      .poll(async () => (await page.getByTestId('live-throughput').first().textContent()) ?? '', {
        timeout: 6000,
      })
      .toMatch(/^[1-9][\d.,]* (KB|MB)\/s$/);
    await saveScreenshot(page, 'statistics-live-1280');
    await finished;
    await page.getByTestId('live-idle').waitFor({ timeout: 15_000 });
  });

  it('has no axe violations and fits at 1280 and 375 px', async () => {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await settled(page).catch(() => undefined);
      expect(await axeViolations(page)).toEqual([]);
      expect(await sidewaysOverflow()).toBeLessThanOrEqual(0);
      await saveScreenshot(page, `statistics-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
