import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveScreenshot } from './support/browser.ts';
import { startSignedInSuite } from './support/fixture.ts';
import { buyDatacenterPlan, newAccount, openSection } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

const run = promisify(execFile);
const BIG_BYTES = 32 * 1024 * 1024;
// Deterministic bytes, so what arrives through the proxy can be checked against what was sent.
const bigBody = Buffer.alloc(BIG_BYTES, 'bytegate-');
const bigDigest = createHash('sha256').update(bigBody).digest('hex');

let origin: Server;
let originPort: number;
let server: RunningServer;
let page: Page;
let workDir: string;
let stop: () => Promise<void>;

beforeAll(async () => {
  origin = createServer((request, response) => {
    if (request.url === '/big') {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': BIG_BYTES });
      response.end(bigBody);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(`hello from origin, you came from ${request.socket.remoteAddress}`);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  workDir = mkdtempSync(join(tmpdir(), 'bytegate-proxy-setup-'));
  // Tests reach a loopback origin on a random port: the development settings open both.
  ({ server, page, stop } = await startSignedInSuite({
    env: { GATEWAY_ALLOW_PRIVATE_TARGETS: 'true', GATEWAY_OPEN_PORTS: String(originPort) },
    context: {
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
      acceptDownloads: true,
    },
  }));
});
afterAll(async () => {
  await stop?.();
  await new Promise((resolve) => origin?.close(resolve));
  rmSync(workDir, { recursive: true, force: true });
});

const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

/** Runs a copied cURL command as a shell would, adding only where to write the body and what to report. */
async function runCurl(command: string, bodyFile: string) {
  const { stdout } = await run(
    'sh',
    ['-c', `${command} --silent --show-error --output '${bodyFile}' --write-out '%{http_code}'`],
    { timeout: 60_000 },
  );
  return { status: stdout.trim(), body: readFileSync(bodyFile) };
}

const usageText = () =>
  page.getByRole('progressbar', { name: 'Traffic left' }).getAttribute('aria-valuetext');

describe('Proxy Setup in the browser', () => {
  it("shows 'No Active Proxy Plans' before any purchase, with a way to the plans", async () => {
    // Before any request the overview claims no success rate.
    await page.getByRole('region', { name: 'Overview' }).getByText('No requests yet').waitFor();
    await openSection(page, 'Proxy Setup');
    await page.getByRole('heading', { name: 'No Active Proxy Plans' }).waitFor();
    await page.getByRole('button', { name: 'View Plans' }).click();
    await page.getByRole('heading', { level: 1, name: 'Plans & Pricing' }).waitFor();
  });

  it('after buying datacenter GB: one enabled tab, the access details, and a cURL command that works', async () => {
    await buyDatacenterPlan(page);

    await openSection(page, 'Proxy Setup');
    const tabs = page.getByRole('tablist', { name: 'Pool' });
    await tabs.waitFor();
    expect(await tabs.getByRole('tab', { name: 'Datacenter' }).getAttribute('aria-selected')).toBe('true');
    expect(await tabs.getByRole('tab', { name: 'Residential' }).isDisabled()).toBe(true);
    expect(await tabs.getByRole('tab', { name: 'Mobile' }).isDisabled()).toBe(true);

    // The password is masked until revealed; its copy button copies the real one.
    await page.getByText('Password hidden').waitFor();
    await page.getByRole('button', { name: 'Copy password' }).click();
    const password = await clipboard();
    expect(password).toMatch(/^[A-Za-z0-9]{12,}$/);
    expect(await page.getByText(password, { exact: true }).count()).toBe(0);
    // Proxy Access's (the cURL command has its own, below).
    await page.getByRole('button', { name: 'Show password' }).first().click();
    await page.getByText(password, { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Copy http port' }).click();
    expect(await clipboard()).toBe(String(server.gatewayPort));
    expect(await usageText()).toBe('5.00 GB left of 5.00 GB');
    await saveScreenshot(page, 'proxy-setup-new-plan-1280');

    // Rotating HTTP: the copied command downloads 32 MiB through the gateway, intact.
    await page.getByLabel('Test URL').fill(`http://127.0.0.1:${originPort}/big`);
    await page.getByRole('button', { name: 'Copy cURL command' }).click();
    const httpCommand = await clipboard();
    // The command shows the password masked, as Proxy Access does; revealed, it is what was copied.
    expect(await page.getByTestId('curl-command').textContent()).not.toContain(password);
    await page.getByRole('button', { name: 'Show password' }).last().click();
    expect(httpCommand).toBe(await page.getByTestId('curl-command').textContent());
    expect(httpCommand).toContain(`--proxy http://127.0.0.1:${server.gatewayPort} `);
    // A purchase reaches the gateway within 2 s (its store refreshes every second): a command run
    // sooner may meet 407, as a person trying at once would, and simply works on the next try.
    let big = await runCurl(httpCommand, join(workDir, 'big'));
    for (let tries = 0; big.status === '407' && tries < 10; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      big = await runCurl(httpCommand, join(workDir, 'big'));
    }
    expect(big.status).toBe('200');
    expect(big.body.length).toBe(BIG_BYTES);
    expect(createHash('sha256').update(big.body).digest('hex')).toBe(bigDigest);

    // SOCKS5 on a sticky port: the same command shape works over the other protocol.
    await page.getByRole('radio', { name: 'SOCKS5' }).first().click();
    await page.getByRole('radio', { name: 'Sticky' }).first().click();
    await page.getByLabel('Test URL').fill(`http://127.0.0.1:${originPort}/hello`);
    await page.getByRole('button', { name: 'Copy cURL command' }).click();
    const socksCommand = await clipboard();
    expect(socksCommand).toContain(`--proxy socks5h://127.0.0.1:${server.stickyPorts.first} `);
    const hello = await runCurl(socksCommand, join(workDir, 'hello'));
    expect(hello.status).toBe('200');
    expect(hello.body.toString()).toMatch(/^hello from origin/);
  });

  it('moves the usage bar and the overview cards with the traffic just carried', async () => {
    // 32 MiB and the requests around it: 5 GiB - 32 MiB and a little is 4.97 GB, read within seconds.
    await expect.poll(usageText, { timeout: 20_000, interval: 500 }).toBe('4.97 GB left of 5.00 GB');
    await saveScreenshot(page, 'proxy-setup-1280');

    await openSection(page, 'Dashboard');
    const overview = page.getByRole('region', { name: 'Overview' });
    await expect.poll(() => overview.getByText('4.97', { exact: true }).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => overview.getByText('2', { exact: true }).count()).toBe(1);
    await overview.getByText(/^\d{1,3}\.\d% errors$/).waitFor();
    // The 30-day chart is drawn, and today's point (its table, for screen readers) carries the 32 MiB.
    const chart = page.getByTestId('traffic-chart');
    await chart.locator('canvas').first().waitFor();
    await chart.getByRole('cell', { name: /^3\d(\.\d+)? MB$/ }).waitFor({ state: 'attached' });
    await page.getByText(/^3\d\.\d\d MB carried; MB per UTC day$/).waitFor();
    await saveScreenshot(page, 'dashboard-traffic-1280');
  });

  it('builds a proxy list in the chosen format, copies it and downloads the same text', async () => {
    await openSection(page, 'Proxy Setup');
    await page.getByLabel('Quantity').fill('0');
    await page.getByText('Quantity must be a whole number from 1 to 5').waitFor();
    await page.getByLabel('Quantity').fill('3');
    await page.getByLabel('Format').selectOption('user:pass@host:port');
    const list = page.getByTestId('proxy-list');
    const lines = (await list.inputValue()).split('\n');
    expect(lines).toHaveLength(3);
    const { first } = server.stickyPorts;
    expect(lines.map((line) => line.split('@')[1])).toEqual([
      `127.0.0.1:${first}`,
      `127.0.0.1:${first + 1}`,
      `127.0.0.1:${first + 2}`,
    ]);

    await page.getByRole('button', { name: 'Copy All' }).click();
    expect(await clipboard()).toBe(`${lines.join('\n')}\n`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download .txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('bytegate-datacenter-sticky-http.txt');
    const saved = join(workDir, 'list.txt');
    await download.saveAs(saved);
    expect(readFileSync(saved, 'utf8')).toBe(`${lines.join('\n')}\n`);

    // Each listed line is a working proxy: the second one, through curl's -x user:pass@host:port form.
    const line = lines[1] ?? '';
    const viaList = await runCurl(
      `curl -x 'http://${line}' 'http://127.0.0.1:${originPort}/hello'`,
      join(workDir, 'l'),
    );
    expect(viaList.status).toBe('200');
  });

  it('sets a new proxy password: the old one is refused by the gateway, the new one works', async () => {
    // The login and, once shown, the password are the page's only texts of their shapes.
    await page.getByRole('button', { name: 'Show password' }).first().click();
    const login = await page
      .getByText(/^bg[a-z0-9]{10}$/)
      .first()
      .textContent();
    const oldPassword = await page
      .getByText(/^[A-Za-z0-9]{20}$/)
      .first()
      .textContent();
    const through = (password: string | null) =>
      `curl --proxy 'http://${login}:${password}@127.0.0.1:${server.gatewayPort}' 'http://127.0.0.1:${originPort}/hello'`;
    expect((await runCurl(through(oldPassword), join(workDir, 'old'))).status).toBe('200');

    await page.getByRole('button', { name: 'New password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Set a new proxy password?' });
    await dialog.getByText('The current password stops working at once').waitFor();
    await saveScreenshot(page, 'proxy-setup-new-password-1280');
    await dialog.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText('New proxy password set').waitFor();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () =>
        page
          .getByText(/^[A-Za-z0-9]{20}$/)
          .first()
          .textContent(),
      )
      .not.toBe(oldPassword);
    const newPassword = await page
      .getByText(/^[A-Za-z0-9]{20}$/)
      .first()
      .textContent();
    await page.getByRole('button', { name: 'Hide password' }).first().click();

    // The gateway reads changed plans every second.
    await expect
      .poll(async () => (await runCurl(through(oldPassword), join(workDir, 'old'))).status, {
        timeout: 10_000,
        interval: 500,
      })
      .toBe('407');
    expect((await runCurl(through(newPassword), join(workDir, 'new'))).status).toBe('200');
  });

  it('allowlists the client address, which then needs no credentials, and removes it', async () => {
    const bare = `curl --proxy http://127.0.0.1:${server.gatewayPort} 'http://127.0.0.1:${originPort}/hello'`;
    expect((await runCurl(bare, join(workDir, 'bare'))).status).toBe('407');

    await page.getByLabel('IPv4 or IPv6 address').fill('not-an-ip');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Enter a valid IPv4 or IPv6 address').waitFor();
    await page.getByRole('button', { name: 'Add it' }).click();
    const entries = page.getByRole('list', { name: 'Allowlisted addresses' });
    await entries.getByText('127.0.0.1', { exact: true }).waitFor();
    await saveScreenshot(page, 'proxy-setup-allowlist-1280');

    // The gateway reads allowlists every second.
    await expect
      .poll(async () => (await runCurl(bare, join(workDir, 'bare'))).status, {
        timeout: 10_000,
        interval: 500,
      })
      .toBe('200');

    // An address typed in from elsewhere is listed but admits nothing until it is added from it.
    await page.getByLabel('IPv4 or IPv6 address').fill('8.8.8.8');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await entries.getByText('not proved yet: add it again from this address').waitFor();
    await page.getByRole('button', { name: 'Remove 8.8.8.8' }).click();
    await entries.getByText('8.8.8.8').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Remove 127.0.0.1' }).click();
    await page.getByText('No addresses yet.').waitFor();
    await expect
      .poll(async () => (await runCurl(bare, join(workDir, 'bare'))).status, {
        timeout: 10_000,
        interval: 500,
      })
      .toBe('407');
  });

  it('fits a 375 px phone without sideways scrolling', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('heading', { name: 'Proxy Access' }).waitFor();
    await saveScreenshot(page, 'proxy-setup-375');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    const wide = await page.evaluate(() =>
      Array.from(document.querySelectorAll('main *'))
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 8)
        .map((element) => `${element.tagName}.${String(element.className).slice(0, 60)}`),
    );
    expect(overflow, wide.join('\n')).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows the next account to sign in on this tab nothing of the last one: no plan, no balance', async () => {
    const next = newAccount();
    const signup = await fetch(`${server.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(next),
    });
    expect(signup.status).toBe(201);
    // Log out and in without reloading the page: whatever the app kept in memory stays there.
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByLabel('Email', { exact: true }).fill(next.email);
    await page.getByLabel('Password', { exact: true }).fill(next.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${server.url}/dashboard`);

    await openSection(page, 'Proxy Setup');
    await page.getByRole('heading', { name: 'No Active Proxy Plans' }).waitFor();
    await openSection(page, 'Plans & Pricing');
    await expect.poll(() => page.getByTestId('balance').textContent()).toBe('$0.00');
  });
});
