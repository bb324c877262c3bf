import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createExits } from '@bytegate/db/queries';
import { freePort } from '@bytegate/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyDatacenterPlan } from '../testing/gateway-fixture.ts';
import { queryRows, startTestServer, type TestServer } from '../testing/test-server.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../..', import.meta.url));
// The origin streams 64 KiB every 20 ms (about 3 MiB/s): slow enough to be mid-transfer when killed.
const CHUNK = Buffer.alloc(64 * 1024, 120);
const CHUNK_EVERY_MS = 20;
const FLUSH_EVERY_MS = 1000;

/**
 * A gateway process killed with SIGKILL mid-transfer loses at most the metering since its last flush
 * (one second), bills nothing twice, and bills exactly again once restarted. Needs PostgreSQL: the gateway
 * runs as its own process (`bytegate start` with ROLES=gateway) against the same database as the test.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('a gateway killed mid-transfer (PostgreSQL)', () => {
  let server: TestServer;
  let origin: Server;
  let originPort: number;
  let gatewayPort: number;
  let gateway: ChildProcess | undefined;
  let gatewayLog = '';
  let env: Record<string, string>;
  let login: string;
  let password: string;
  let planId: string;

  async function startGateway(): Promise<void> {
    gatewayLog = '';
    const child = spawn(process.execPath, ['apps/server/bin/bytegate.mjs', 'start'], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => {
      gatewayLog += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      gatewayLog += chunk;
    });
    gateway = child;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) {
        throw new Error(`the gateway exited:\n${gatewayLog}`);
      }
      const isUp = await new Promise<boolean>((resolve) => {
        const probe = connect(gatewayPort, '127.0.0.1', () => {
          probe.destroy();
          resolve(true);
        });
        probe.once('error', () => resolve(false));
      });
      if (isUp) {
        return;
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`the gateway did not listen within 30 s:\n${gatewayLog}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function trafficUsed(): Promise<{ used: number; buckets: number }> {
    const [plan] = await queryRows<{ traffic_used_bytes: string }>(
      server,
      `select traffic_used_bytes from plans where id = '${planId}'`,
    );
    const [usage] = await queryRows<{ billed: string | null }>(
      server,
      `select sum(bytes + extra_bytes) as billed from usage_buckets where plan_id = '${planId}'`,
    );
    return { used: Number(plan?.traffic_used_bytes), buckets: Number(usage?.billed ?? 0) };
  }

  beforeAll(async () => {
    origin = createServer((request, response) => {
      if (request.url !== '/stream') {
        response.end('small answer');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const timer = setInterval(() => response.write(CHUNK), CHUNK_EVERY_MS);
      response.once('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originPort = (origin.address() as AddressInfo).port;

    server = await startTestServer('postgres');
    await createExits(server.database.db, {
      exits: [
        {
          name: 'loopback',
          kind: 'direct',
          poolType: 'datacenter',
          localAddress: '127.0.0.2',
          country: 'US',
        },
      ],
    });
    ({ planId, login, password } = await buyDatacenterPlan(server));

    gatewayPort = await freePort();
    env = {
      ROLES: 'gateway',
      DATABASE_URL: server.database.databaseUrl ?? '',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      PORT: String(await freePort()),
      GATEWAY_HTTP_PORT: String(gatewayPort),
      GATEWAY_SOCKS_PORT: String(await freePort()),
      // A port found free, not a random one in the range the kernel hands out to outgoing connections.
      GATEWAY_STICKY_PORTS: await freePort().then((port) => `${port}-${port}`),
      GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
      GATEWAY_OPEN_PORTS: String(originPort),
    };
    await startGateway();
  });
  afterAll(async () => {
    gateway?.kill('SIGKILL');
    await server?.close();
    origin?.closeAllConnections();
    await new Promise((resolve) => origin?.close(resolve));
  });

  it('loses at most the last second of metering, and bills exactly after a restart', async () => {
    // A forward HTTP download through the gateway, counted at the client socket with timestamps.
    const request =
      `GET http://127.0.0.1:${originPort}/stream HTTP/1.1\r\nHost: 127.0.0.1:${originPort}\r\n` +
      `Proxy-Authorization: Basic ${Buffer.from(`${login}:${password}`).toString('base64')}\r\n\r\n`;
    const received: Array<{ at: number; total: number }> = [];
    let total = Buffer.byteLength(request);
    const client: Socket = connect(gatewayPort, '127.0.0.1', () => client.write(request));
    client.on('data', (chunk: Buffer) => {
      total += chunk.length;
      received.push({ at: Date.now(), total });
    });
    const closed = new Promise<void>((resolve) => {
      client.once('close', () => resolve());
      client.once('error', () => undefined);
    });

    // Long enough for three flushes; the kill lands at a random point of the flush cycle.
    await new Promise((resolve) => setTimeout(resolve, 3 * FLUSH_EVERY_MS + Math.random() * FLUSH_EVERY_MS));
    const killedAt = Date.now();
    gateway?.kill('SIGKILL');
    await closed;
    const carried = total;
    const lastSecond = carried - (received.findLast((sample) => sample.at <= killedAt - 1300)?.total ?? 0);

    // It really was mid-transfer: about 3 s at 3 MiB/s went through before the kill.
    expect(carried).toBeGreaterThan(4 * 1024 * 1024);
    const afterKill = await trafficUsed();
    expect(afterKill.used).toBeGreaterThan(0);
    // Never more than was carried; what is lost is at most what the last second (plus a flush) carried.
    expect(afterKill.used).toBeLessThanOrEqual(carried);
    expect(carried - afterKill.used).toBeLessThanOrEqual(lastSecond);
    // Plan and buckets were written in one transaction each time: they agree.
    expect(afterKill.buckets).toBe(afterKill.used);

    // Restarted, the gateway bills a new request to the byte, on top of what was kept.
    await startGateway();
    const { stdout } = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{size_request} %{size_header} %{size_download}',
      '-x',
      `http://${login}:${password}@127.0.0.1:${gatewayPort}`,
      `http://127.0.0.1:${originPort}/small`,
    ]);
    const [status, ...sizes] = stdout.split(' ').map(Number);
    expect(status).toBe(200);
    const bytes = sizes.reduce((sum, size) => sum + (size ?? 0), 0);
    await expect
      .poll(async () => (await trafficUsed()).used, { timeout: 10_000, interval: 250 })
      .toBe(afterKill.used + bytes);
    const final = await trafficUsed();
    expect(final.buckets).toBe(final.used);
  }, 60_000);
});
