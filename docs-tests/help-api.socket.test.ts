import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo, Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { API_KEY_SCOPES, API_KEY_SECRET, type ApiKeyScope } from '@bytegate/contracts/api-keys';
import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import { createExits } from '@bytegate/db/queries';
import { freePort } from '@bytegate/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRateLimits } from '../apps/server/src/config.ts';
import { type RunningGateway, runGateway } from '../apps/server/src/gateway/run-gateway.ts';
import { adjustBalance } from '../apps/server/src/services/billing/adjust-balance.ts';
import { createProxyUserForPlan } from '../apps/server/src/services/proxy-users/proxy-users.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../apps/server/src/testing/test-server.ts';
import { tlsPath, tlsServerOptions } from './testing/help-fixtures.ts';

// "Automate with the API", run as written against the real app and the real gateway over one fresh
// database (PostgreSQL when TEST_DATABASE_URL is set, else PGlite): its curl blocks in bash, its Python
// with Debian's python3 and requests (as Getting Started's), its TypeScript type-checked and then run
// with tsx. Each reads BYTEGATE_URL and BYTEGATE_API_KEY as the article sets them, with the test server's
// address and a key minted in the test; PLAN_ID, PROXY_USER_ID, USER_LOGIN and USER_PASSWORD are the
// values the examples before them answered; GATEWAY:823 is the gateway, and api.ipify.org an HTTPS
// origin (with the test certificate curl is told to trust) that answers the address a request left from.
// Its blocks are ```bash, not ```sh: help-examples runs every curl line of an ```sh block through a proxy.

const article = fileURLToPath(new URL('../apps/web/src/content/help/api.md', import.meta.url));
// Inside the repository (in its ignored test output), so `--import tsx` and tsc find its node_modules.
const workDir = fileURLToPath(new URL('../.test-results/help-api', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));

const PYTHON = '/usr/bin/python3';
const hasRequests = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import requests'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasRequests && process.env.CI === 'true') {
  throw new Error(`${PYTHON} with requests is needed (apt-get install python3-requests)`);
}
if (!hasRequests) {
  console.warn(
    `SKIPPED the API article's Python: no requests for ${PYTHON} (apt-get install python3-requests)`,
  );
}

const markdown = readFileSync(article, 'utf8');
/** The article's fenced blocks of one language, in order. */
const blocksOf = (lang: string) =>
  [...markdown.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (match) => match[1] ?? '',
  );
const bash = blocksOf('bash');
const json = blocksOf('json').map((block) => JSON.parse(block) as Record<string, unknown>);
const [listSample = ''] = blocksOf('text');
const [python = ''] = blocksOf('python');
const [typescript = ''] = blocksOf('ts');
const [setupBlock = '', plansBlock = '', createBlock = '', listBlock = '', proxyBlock = ''] = bash;
const [plansAnswer, proxyUserAnswer, errorAnswer] = json;

/** The rows of the article's table whose first cell matches `first` (its groups, then the other cells). */
function tableRows(first: RegExp): Array<{ groups: string[]; cells: string[] }> {
  return markdown.split('\n').flatMap((line) => {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const match = first.exec(cells[0] ?? '');
    return match ? [{ groups: match.slice(1), cells: cells.slice(1) }] : [];
  });
}

/** A JSON value's shape: its keys, nested, and the type of each value (null apart). */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.length > 0 ? [shapeOf(value[0])] : [];
  }
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, shapeOf(field)]));
  }
  return value === null ? 'null' : typeof value;
}

const GB = BYTES_PER_GB;
/** Two residential exits on loopback: the origin sees one of these addresses. */
const EXIT_ADDRESSES = ['127.0.0.2', '127.0.0.5'];

let server: TestServer;
let gateway: RunningGateway;
let gatewayPort: number;
let origin: Server;
let originUrl: string;

beforeAll(async () => {
  origin = createServer(tlsServerOptions(), (request, response) =>
    response.end(request.socket.remoteAddress),
  );
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const originPort = (origin.address() as AddressInfo).port;
  originUrl = `https://127.0.0.1:${originPort}/`;
  // A short rate-limit window, so the TypeScript example meets a real 429 and waits it out; many keys
  // minted from one address.
  server = await startTestServer(process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite', {
    rateLimits: {
      apiKeyRequests: { max: 20, windowMs: 6000 },
      passwordChecksPerUser: { max: 100, windowMs: 60_000 },
      passwordChecksPerAddress: { max: 1000, windowMs: 60_000 },
    },
  });
  // Proxy lists name this gateway, so their lines work as they are.
  gatewayPort = await freePort();
  Object.assign(server.config.gateway, {
    host: '127.0.0.1',
    httpPort: gatewayPort,
    allowPrivateTargets: true,
  });
  await createExits(server.database.db, {
    exits: EXIT_ADDRESSES.map((localAddress, i) => ({
      name: `help-api ${i}`,
      kind: 'direct' as const,
      poolType: 'residential' as const,
      localAddress,
      country: i === 0 ? 'US' : 'DE',
    })),
  });
  gateway = await runGateway(
    server.config,
    server.database.db,
    { error: console.error, warn: console.warn, info: () => undefined },
    {
      httpPort: gatewayPort,
      socksPort: null,
      stickyPorts: null,
      host: '127.0.0.1',
      openPorts: new Set([originPort]),
    },
  );
  mkdirSync(workDir, { recursive: true });
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await server?.close();
  await new Promise((resolve) => origin?.close(resolve));
  rmSync(workDir, { recursive: true, force: true });
});

interface Customer {
  token: string;
  password: string;
  userId: string;
  planId: string;
}

/** A new account with $100 and 5 GB of residential traffic bought in the dashboard. */
async function customer(): Promise<Customer> {
  const user = await createUserViaApi(server);
  await adjustBalance(
    { db: server.database.db, config: server.config },
    { email: user.email, amountCents: 100_00, reason: 'help-api test credit' },
  );
  const bought = await server.request<{ plan: { subUserId: string } }>('POST', '/api/subuser/create', {
    token: user.token,
    body: { pool_type: 'residential', default_pool_parameters: { quantity: 5 } },
  });
  expect(bought.status).toBe(201);
  const planId = bought.body.plan.subUserId;
  const [owner] = await queryRows<{ user_id: string }>(
    server,
    `select user_id from plans where id = '${planId}'`,
  );
  return { token: user.token, password: user.password, userId: owner?.user_id as string, planId };
}

/** A key made as User Settings makes it: its secret. */
async function mintKey(who: Customer, scopes: ApiKeyScope[]): Promise<string> {
  const created = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
    token: who.token,
    body: { name: scopes.join(' '), scopes, password: who.password },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.secret).toMatch(API_KEY_SECRET);
  return created.body.secret;
}

const v1 = (
  method: string,
  path: string,
  secret?: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) =>
  server.request<Record<string, unknown>>(method, `/api/v1${path}`, {
    ...options,
    ...(secret ? { token: secret } : {}),
  });

/** Sends requests with a key until it is refused with 429; answers that refusal. */
async function exhaust(secret: string) {
  for (let i = 0; i <= 20; i++) {
    const answer = await v1('GET', '/plans', secret);
    if (answer.status === 429) {
      return answer;
    }
  }
  throw new Error('the key was never rate limited');
}

/** The environment a reader's shell has, without proxy variables that would send the API calls astray. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'HTTP_PROXY',
    'HTTPS_PROXY',
    'ALL_PROXY',
    'NO_PROXY',
    'BYTEGATE_URL',
    'BYTEGATE_API_KEY',
  ]) {
    delete env[name];
    delete env[name.toLowerCase()];
  }
  return { ...env, ...extra };
}

function run(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { env, cwd: root, timeout: 25_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

interface ProxyUser {
  id: string;
  plan_id: string;
  login: string;
  password: string;
  label: string;
  traffic_cap: { bytes: number; gb: number; period: string } | null;
  usage: { period_used_bytes: number; cap_left_bytes: number | null };
}

/** A block with the article's placeholders replaced by real values; none may be left over. */
function localize(
  block: string,
  values: { secret: string; planId?: string; proxyUser?: Pick<ProxyUser, 'id' | 'login' | 'password'> },
): string {
  let code = block
    .replaceAll('https://SITE', server.url)
    .replaceAll('bg_live_...', values.secret)
    .replaceAll('GATEWAY:823', `127.0.0.1:${gatewayPort}`)
    .replaceAll('https://api.ipify.org', originUrl);
  if (values.planId) {
    code = code.replaceAll('PLAN_ID', values.planId);
  }
  if (values.proxyUser) {
    code = code
      .replaceAll('PROXY_USER_ID', values.proxyUser.id)
      .replaceAll('USER_LOGIN', values.proxyUser.login)
      .replaceAll('USER_PASSWORD', values.proxyUser.password);
  }
  expect(code).not.toMatch(/SITE|GATEWAY|PLAN_ID|PROXY_USER_ID|USER_LOGIN|USER_PASSWORD/);
  return code;
}

/** A bash block run as a reader runs it, after the block that sets the environment. */
function runBash(block: string, values: Parameters<typeof localize>[1]) {
  const script = `${localize(setupBlock, values)}\n${localize(block, values)}`;
  return run('bash', ['-c', script], cleanEnv({ CURL_CA_BUNDLE: tlsPath('localhost.crt') }));
}

describe('Automate with the API', () => {
  it('has the examples, samples and tables this test runs', () => {
    expect(bash).toHaveLength(5);
    expect(json).toHaveLength(3);
    expect(listSample).not.toBe('');
    expect(python).toContain('import requests');
    expect(typescript).toContain('Idempotency-Key');
    expect(proxyBlock).toMatch(/^curl -x /);
  });

  describe('with curl, as a reseller', () => {
    let who: Customer;
    let secret: string;
    let proxyUser: ProxyUser;
    /** When the example created the proxy user: the article says it works at the gateway within 2 s. */
    let createdAt: number;

    beforeAll(async () => {
      who = await customer();
      // The scopes the article gives a reseller.
      expect(markdown).toContain('A reseller who hands out proxy users needs **Read** and **Proxy users**.');
      secret = await mintKey(who, ['read', 'proxy_users']);
    });

    it('sets the two variables the examples read', async () => {
      const { stdout } = await runBash('printf "%s\\n" "$BYTEGATE_URL" "$BYTEGATE_API_KEY"', { secret });
      expect(stdout).toBe(`${server.url}\n${secret}\n`);
    });

    it('lists the plans, in the shape the article shows', async () => {
      const { code, stdout } = await runBash(plansBlock, { secret });
      expect(code).toBe(0);
      const answer = JSON.parse(stdout) as { plans: Array<{ id: string; traffic: Record<string, number> }> };
      expect(answer.plans.map((plan) => plan.id)).toEqual([who.planId]);
      expect(answer.plans[0]?.traffic).toEqual({ total_bytes: 5 * GB, used_bytes: 0, left_bytes: 5 * GB });
      expect(shapeOf(answer)).toEqual(shapeOf(plansAnswer));
      // The sample's credentials look like real ones.
      const [sample] = (plansAnswer as { plans: Array<{ login: string; password: string }> }).plans;
      expect(sample?.login).toMatch(/^bg[a-z0-9]{10}$/);
      expect(stdout).toMatch(/"login":"bg[a-z0-9]{10}","password":"[A-Za-z0-9]{20}"/);
      expect(sample?.password).toMatch(/^[A-Za-z0-9]{20}$/);
    });

    it('creates a proxy user with a 1 GB monthly cap, in the shape the article shows', async () => {
      const { stdout } = await runBash(createBlock, { secret, planId: who.planId });
      createdAt = Date.now();
      const answer = JSON.parse(stdout) as { proxy_user: ProxyUser };
      proxyUser = answer.proxy_user;
      expect(proxyUser).toMatchObject({
        plan_id: who.planId,
        label: 'customer-42',
        traffic_cap: { bytes: GB, gb: 1, period: 'month' },
        usage: { period_used_bytes: 0, cap_left_bytes: GB },
      });
      expect(shapeOf(answer)).toEqual(shapeOf(proxyUserAnswer));
      const sample = (proxyUserAnswer as { proxy_user: ProxyUser }).proxy_user;
      expect(sample).toMatchObject({
        label: 'customer-42',
        traffic_cap: { bytes: GB, gb: 1, period: 'month' },
      });
      expect(sample.plan_id).toBe((plansAnswer as { plans: Array<{ id: string }> }).plans[0]?.id);
      expect(proxyUser.login).toMatch(/^pu[a-z0-9]{10}$/);
      expect(sample.login).toMatch(/^pu[a-z0-9]{10}$/);
      expect(proxyUser.password).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(sample.password).toMatch(/^[A-Za-z0-9]{20}$/);
    });

    it('fetches its proxy list as txt: three lines with its credentials that work at the gateway', async () => {
      const { stdout } = await runBash(listBlock, { secret, planId: who.planId, proxyUser });
      const lines = stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(3);
      const sessions = new Set<string>();
      for (const line of lines) {
        const [, session] =
          new RegExp(
            `^127\\.0\\.0\\.1:${gatewayPort}:${proxyUser.login}__sessid\\.([a-z0-9]{10}):${proxyUser.password}$`,
          ).exec(line) ?? [];
        expect(session, line).toBeDefined();
        sessions.add(session as string);
      }
      expect(sessions.size).toBe(3);
      // The sample is the same format, for the proxy user the article created.
      const sample = (proxyUserAnswer as { proxy_user: ProxyUser }).proxy_user;
      for (const line of listSample.trimEnd().split('\n')) {
        expect(line).toMatch(
          new RegExp(`^GATEWAY:823:${sample.login}__sessid\\.[a-z0-9]{10}:${sample.password}$`),
        );
      }
      // A line as it is, through the gateway.
      expect(markdown).toContain('A new proxy user works within two seconds');
      const [host, port, user, pass] = (lines[0] ?? '').split(':');
      let through = { code: -1, stdout: '', stderr: '' };
      do {
        through = await run(
          'curl',
          ['-sS', '-x', `http://${user}:${pass}@${host}:${port}`, originUrl],
          cleanEnv({
            CURL_CA_BUNDLE: tlsPath('localhost.crt'),
          }),
        );
      } while (through.code !== 0 && Date.now() - createdAt < 2000);
      expect(EXIT_ADDRESSES, through.stderr).toContain(through.stdout.trim());
    });

    it("sends a request through the gateway with the proxy user's login, counted on its usage", async () => {
      const answer = await runBash(proxyBlock, { secret, proxyUser });
      expect(EXIT_ADDRESSES, answer.stderr).toContain(answer.stdout.trim());
      await gateway.flush();
      const got = await v1('GET', `/proxy-users/${proxyUser.id}`, secret);
      const usage = (got.body.proxy_user as ProxyUser).usage;
      expect(usage.period_used_bytes).toBeGreaterThan(0);
      expect(usage.cap_left_bytes).toBe(GB - usage.period_used_bytes);
    });
  });

  describe.skipIf(!hasRequests)('in Python', () => {
    it('lists the plans, creates a proxy user and pages through all of them', async () => {
      const who = await customer();
      const secret = await mintKey(who, ['read', 'proxy_users']);
      // More than one page of 100.
      for (let i = 1; i <= 120; i++) {
        await createProxyUserForPlan(
          { db: server.database.db, config: server.config },
          { userId: who.userId, planId: who.planId, body: { label: `existing-${i}` } },
        );
      }
      const { code, stdout, stderr } = await run(
        PYTHON,
        ['-c', python],
        cleanEnv({ BYTEGATE_URL: server.url, BYTEGATE_API_KEY: secret }),
      );
      expect(code, stderr).toBe(0);
      const rows = await queryRows<{ login: string; password: string; label: string }>(
        server,
        `select login, password, label from proxy_users where plan_id = '${who.planId}' order by created_at, id`,
      );
      expect(rows).toHaveLength(121);
      const created = rows.find((row) => row.label === 'customer-43');
      expect(stdout.trimEnd().split('\n')).toEqual([
        `plan ${who.planId} ${5 * GB} bytes left`,
        `created ${created?.login} ${created?.password}`,
        ...rows.map((row) => `${row.login} ${row.label} 0`),
      ]);
    });
  });

  describe('in TypeScript', () => {
    const file = () => `${workDir}/buy.mts`;

    it('type-checks under strict settings', async () => {
      writeFileSync(file(), typescript);
      const { code, stdout } = await run(
        process.execPath,
        [
          'node_modules/typescript/bin/tsc',
          '--noEmit',
          '--strict',
          '--target',
          'es2022',
          '--module',
          'nodenext',
          '--types',
          'node',
          '--skipLibCheck',
          file(),
        ],
        cleanEnv(),
      );
      expect(stdout, stdout).toBe('');
      expect(code).toBe(0);
    });

    it('buys once, waiting out a 429, and a retry with the same key replays the purchase', async () => {
      const who = await customer();
      const secret = await mintKey(who, ['purchase']);
      const reader = await mintKey(who, ['read']);
      // The key is over its limit when the example starts: its first attempt meets a 429.
      const limited = await exhaust(secret);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      const retry = `\nconst again = await buyTraffic('residential', 5, idempotencyKey);\nconsole.log(\`order \${again.order.id}: \${again.plan.traffic.left_bytes} bytes left\`);\n`;
      writeFileSync(file(), `${typescript}${retry}`);
      const { code, stdout, stderr } = await run(
        process.execPath,
        ['--import', 'tsx', file()],
        cleanEnv({ BYTEGATE_URL: server.url, BYTEGATE_API_KEY: secret }),
      );
      expect(code, stderr).toBe(0);
      // One wait, as long as Retry-After said: the second attempt went through.
      expect(stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^attempt 1: 429, retrying in [1-6] s$/),
      ]);
      const lines = stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(new RegExp(`^order BG-\\d+: ${10 * GB} bytes left$`));
      expect(lines[1]).toBe(lines[0]);
      // 5 GB bought once, not twice: 10 GB in all, and one order besides the dashboard's.
      const plans = await v1('GET', '/plans', reader);
      const plan = (plans.body.plans as Array<{ id: string; traffic: { total_bytes: number } }>)[0];
      expect(plan).toMatchObject({ id: who.planId, traffic: { total_bytes: 10 * GB } });
      const orders = await queryRows(
        server,
        `select id from orders where user_id = '${who.userId}' and kind = 'purchase'`,
      );
      expect(orders).toHaveLength(2);
    });
  });

  describe('errors and limits', () => {
    let who: Customer;
    /** A key with every scope but one. */
    const without = {} as Record<ApiKeyScope, string>;
    let proxyUserId: string;

    beforeAll(async () => {
      who = await customer();
      for (const scope of API_KEY_SCOPES) {
        without[scope] = await mintKey(
          who,
          API_KEY_SCOPES.filter((other) => other !== scope),
        );
      }
      const created = await v1('POST', `/plans/${who.planId}/proxy-users`, without.purchase, {
        body: { label: 'x' },
      });
      expect(created.status).toBe(201);
      proxyUserId = (created.body.proxy_user as ProxyUser).id;
    });

    it('answers a missing scope exactly as the article shows', async () => {
      const answer = await v1('POST', `/plans/${who.planId}/proxy-users`, without.proxy_users, { body: {} });
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(errorAnswer);
    });

    it('answers each status and code of the table', async () => {
      const rows = tableRows(/^`(\d{3}) ([A-Z_]+)`$/);
      expect(rows.length).toBeGreaterThanOrEqual(7);
      const idempotencyKey = crypto.randomUUID();
      const producers: Record<string, () => Promise<Awaited<ReturnType<typeof v1>>>> = {
        VALIDATION_FAILED: () =>
          v1('POST', `/plans/${who.planId}/proxy-users`, without.billing, {
            body: { traffic_cap_gb: -1, cap_period: 'month' },
          }),
        INSUFFICIENT_BALANCE: async () => {
          const answer = await v1('POST', '/purchases', without.billing, {
            body: { pool_type: 'mobile', gb: 1000 },
          });
          expect(answer.body).toMatchObject({ required: expect.any(Number), current: expect.any(Number) });
          return answer;
        },
        UNAUTHENTICATED: () => v1('GET', '/plans'),
        INSUFFICIENT_SCOPE: () => v1('GET', '/plans', without.read),
        NOT_FOUND: () => v1('GET', `/proxy-users/${crypto.randomUUID()}`, without.billing),
        CONFLICT: async () => {
          const headers = { 'idempotency-key': idempotencyKey };
          const first = await v1('POST', '/purchases', without.billing, {
            body: { pool_type: 'datacenter', gb: 5 },
            headers,
          });
          expect(first.status).toBe(201);
          return v1('POST', '/purchases', without.billing, {
            body: { pool_type: 'datacenter', gb: 6 },
            headers,
          });
        },
        RATE_LIMITED: async () => {
          const answer = await exhaust(await mintKey(who, ['read']));
          expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
          // "Keys do not share the limit": another key of the account goes on.
          expect((await v1('GET', '/plans', without.billing)).status).toBe(200);
          return answer;
        },
      };
      for (const { groups } of rows) {
        const [status, code = ''] = groups;
        const produce = producers[code];
        expect(produce, `${code}: say here which request answers it`).toBeDefined();
        const answer = await (produce as () => ReturnType<typeof v1>)();
        expect({ status: answer.status, code: answer.body.code }, code).toEqual({
          status: Number(status),
          code,
        });
        expect(typeof answer.body.error, code).toBe('string');
      }
    });

    it('states the real rate limit', () => {
      const [, perMinute] = /Each key may send (\d+) requests a minute/.exec(markdown) ?? [];
      expect(defaultRateLimits.apiKeyRequests).toEqual({ max: Number(perMinute), windowMs: 60_000 });
    });

    it('pages as it says: up to 100 proxy users (50 by default) or 1000 hosts, next_cursor back as cursor', async () => {
      expect(markdown.replace(/\s+/g, ' ')).toContain(
        '`limit` sets the page size: up to 100 proxy users (50 by default), or up to 1000 hosts.',
      );
      for (let i = 0; i < 60; i++) {
        await createProxyUserForPlan(
          { db: server.database.db, config: server.config },
          { userId: who.userId, planId: who.planId, body: { label: `more-${i}` } },
        );
      }
      const base = `/plans/${who.planId}/proxy-users`;
      const first = await v1('GET', base, without.billing);
      expect((first.body.proxy_users as ProxyUser[]).length).toBe(50);
      const second = await v1('GET', `${base}?cursor=${first.body.next_cursor}`, without.billing);
      expect((second.body.proxy_users as ProxyUser[]).length).toBe(11);
      expect(second.body.next_cursor).toBeNull();
      expect((await v1('GET', `${base}?limit=100`, without.billing)).body.next_cursor).toBeNull();
      expect((await v1('GET', `${base}?limit=101`, without.billing)).body.code).toBe('VALIDATION_FAILED');
      const from = new Date(Date.now() - 86_400_000).toISOString();
      const hosts = (limit: number) =>
        v1('GET', `/usage?group_by=host&from=${from}&limit=${limit}`, without.billing);
      const byHost = await hosts(1000);
      expect(byHost.status, JSON.stringify(byHost.body)).toBe(200);
      expect(byHost.body).toMatchObject({ hosts: [], next_cursor: null });
      expect((await hosts(1001)).body.code).toBe('VALIDATION_FAILED');
    });

    it('lists every endpoint of /api/v1, each with the scope it needs', async () => {
      const rows = tableRows(/^`(GET|POST|PATCH|DELETE) (\/[^`]+)`$/).map(({ groups, cells }) => ({
        method: groups[0] as string,
        path: groups[1] as string,
        scope: /^`(\w+)`$/.exec(cells[0] ?? '')?.[1] as ApiKeyScope,
      }));
      const openapi = await server.request<{ paths: Record<string, Record<string, unknown>> }>(
        'GET',
        '/api/openapi.json',
      );
      const documented = Object.entries(openapi.body.paths)
        .filter(([path]) => path.startsWith('/api/v1/'))
        .flatMap(([path, operations]) =>
          Object.keys(operations).map(
            (method) => `${method.toUpperCase()} ${path.slice('/api/v1'.length).replaceAll('{id}', ':id')}`,
          ),
        );
      expect(rows.map((row) => `${row.method} ${row.path}`).sort()).toEqual(documented.sort());
      for (const row of rows) {
        expect(API_KEY_SCOPES, row.path).toContain(row.scope);
        const path = row.path
          .replace('/plans/:id', `/plans/${who.planId}`)
          .replace('/proxy-users/:id', `/proxy-users/${proxyUserId}`);
        const answer = await v1(row.method, path, without[row.scope]);
        expect(
          { status: answer.status, required: answer.body.required },
          `${row.method} ${row.path}`,
        ).toEqual({
          status: 403,
          required: row.scope,
        });
      }
    });
  });
});
