import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { API_KEY_SECRET } from '@bytegate/contracts/api-keys';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSignedInSuite } from './support/fixture.ts';
import { openSection, type TestAccount, topUp } from './support/journeys.ts';
import type { RunningServer } from './support/server.ts';

// A reseller's journey (issue 17): an API key made in the browser, then with that key alone and curl,
// buying traffic, a proxy user with a cap for a customer of theirs, its proxy list, and traffic through
// it, cut at its cap while the reseller's own login goes on.

const run = promisify(execFile);
const BIG_BYTES = 3 * 1024 * 1024;

let origin: Server;
let originPort: number;
let server: RunningServer;
let page: Page;
let account: TestAccount;
let stop: () => Promise<void>;
let secret = '';

beforeAll(async () => {
  origin = createServer((request, response) => {
    if (request.url === '/big') {
      response.writeHead(200, { 'content-length': BIG_BYTES });
      response.end(Buffer.alloc(BIG_BYTES, 98));
      return;
    }
    response.end(`hello reseller, you came from ${request.socket.remoteAddress}`);
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originPort = (origin.address() as AddressInfo).port;
  ({ server, page, account, stop } = await startSignedInSuite({
    env: { GATEWAY_ALLOW_PRIVATE_TARGETS: 'true', GATEWAY_OPEN_PORTS: String(originPort) },
    context: { viewport: { width: 1280, height: 900 } },
  }));
});
afterAll(async () => {
  await stop?.();
  await new Promise((resolve) => origin?.close(resolve));
});

/** curl as a reseller's script runs it: the answer's status and body. */
async function curl(args: string[]): Promise<{ status: number; body: string }> {
  const { stdout } = await run(
    'curl',
    ['--silent', '--show-error', '--write-out', '\n%{http_code}', ...args],
    {
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}

/** The public API with the key alone. */
const api = (method: string, path: string, body?: unknown, headers: string[] = []) =>
  curl([
    '--request',
    method,
    '--header',
    `Authorization: Bearer ${secret}`,
    ...(body === undefined
      ? []
      : ['--header', 'Content-Type: application/json', '--data', JSON.stringify(body)]),
    ...headers.flatMap((header) => ['--header', header]),
    `${server.url}${path}`,
  ]);

describe('a reseller automating with an API key', () => {
  it('creates a key in the browser with the scopes a reseller needs', async () => {
    await topUp(page, 'Cryptomus', '10');
    await openSection(page, 'User Settings');
    const card = page.getByRole('region', { name: 'API Keys' });
    await card.getByRole('button', { name: 'Create API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create API Key' });
    await dialog.getByLabel('Name').fill('Storefront');
    for (const scope of ['Proxy users', 'Purchase']) {
      await dialog.getByRole('checkbox', { name: scope }).check();
    }
    await dialog.getByLabel('Current Password').fill(account.password);
    await dialog.getByRole('button', { name: 'Create Key' }).click();
    const shown = page.getByRole('dialog', { name: 'Copy your key now' });
    secret = await shown.getByLabel('Secret key').inputValue();
    expect(secret).toMatch(API_KEY_SECRET);
    await shown.getByRole('button', { name: 'Done' }).click();
  });

  it('with the key alone: buys traffic, makes a capped proxy user, fetches its list and proxies through it', async () => {
    const idempotency = `Idempotency-Key: ${randomUUID()}`;
    const bought = await api('POST', '/api/v1/purchases', { pool_type: 'datacenter', gb: 5 }, [idempotency]);
    expect(bought.status).toBe(201);
    const plan = (JSON.parse(bought.body) as { plan: { id: string; login: string; password: string } }).plan;
    // A retry of the same purchase (a lost answer) buys nothing more.
    const retried = await api('POST', '/api/v1/purchases', { pool_type: 'datacenter', gb: 5 }, [idempotency]);
    expect(retried.status).toBe(201);
    const plans = JSON.parse((await api('GET', '/api/v1/plans')).body) as {
      plans: Array<{ traffic: { total_bytes: number } }>;
    };
    expect(plans.plans[0]?.traffic.total_bytes).toBe(5 * 1024 ** 3);

    // A customer of the reseller gets 2 MiB a day (0.002 GB rounds to 2,147,484 bytes).
    const created = await api('POST', `/api/v1/plans/${plan.id}/proxy-users`, {
      label: 'customer 42',
      traffic_cap_gb: 0.002,
      cap_period: 'day',
      threads: 10,
    });
    expect(created.status).toBe(201);
    const proxyUser = (
      JSON.parse(created.body) as { proxy_user: { id: string; login: string; password: string } }
    ).proxy_user;

    const list = await api(
      'GET',
      `/api/v1/plans/${plan.id}/proxy-list?proxy_user_id=${proxyUser.id}&format=scheme://user:pass@host:port&quantity=3`,
    );
    expect(list.status).toBe(200);
    const lines = list.body.trim().split('\n');
    expect(lines).toHaveLength(3);
    const [first = ''] = lines;
    expect(first).toMatch(
      new RegExp(`^http://${proxyUser.login}__sessid\\.[a-z0-9]+:${proxyUser.password}@`),
    );

    // Its first line through curl: the gateway knows the new user within a second or so.
    let through = { status: 0, body: '' };
    for (let attempt = 0; attempt < 30 && through.status !== 200; attempt += 1) {
      through = await curl(['--proxy', first, `http://127.0.0.1:${originPort}/`]);
      if (through.status !== 200) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    expect(through.body).toMatch(/^hello reseller, you came from 127\.0\.0\./);

    // 3 MiB is more than the cap: the download is cut, then the user is refused, naming its cap.
    const cut = await curl(['--proxy', first, `http://127.0.0.1:${originPort}/big`]).catch(
      (error: { stdout?: string }) => ({ status: 0, body: error.stdout ?? '' }),
    );
    expect(cut.body.length).toBeLessThan(BIG_BYTES);
    let refused = { status: 0, body: '' };
    for (let attempt = 0; attempt < 30 && refused.status !== 407; attempt += 1) {
      refused = await curl(['--proxy', first, `http://127.0.0.1:${originPort}/`]);
      if (refused.status !== 407) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    expect(refused.status).toBe(407);
    expect(refused.body).toContain('daily traffic cap of 0.002 GB');
    // The reseller's own login goes on.
    const own = await curl([
      '--proxy',
      `http://${plan.login}:${plan.password}@127.0.0.1:${server.gatewayPort}`,
      `http://127.0.0.1:${originPort}/`,
    ]);
    expect(own.status).toBe(200);

    // The user's usage, through the API (stored within a second): at its cap, within the bound.
    let usage = { period_used_bytes: 0, cap_left_bytes: -1 };
    for (let attempt = 0; attempt < 30 && usage.cap_left_bytes !== 0; attempt += 1) {
      const read = await api('GET', `/api/v1/proxy-users/${proxyUser.id}`);
      usage = (JSON.parse(read.body) as { proxy_user: { usage: typeof usage } }).proxy_user.usage;
      if (usage.cap_left_bytes !== 0) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    expect(usage.cap_left_bytes).toBe(0);
    expect(usage.period_used_bytes).toBeLessThan(2_147_484 + 128 * 1024);
  });

  it('is refused what its scopes do not allow', async () => {
    const topup = await api('POST', '/api/v1/topups', { provider: 'cryptomus', amount_usd: 10 });
    expect(topup.status).toBe(403);
    expect(JSON.parse(topup.body)).toMatchObject({ code: 'INSUFFICIENT_SCOPE', required: 'billing' });
  });
});
