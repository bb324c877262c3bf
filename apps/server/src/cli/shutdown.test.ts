import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createExits } from '@bytegate/db/queries';
import { freePort } from '@bytegate/gateway/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buyDatacenterPlan } from '../testing/gateway-fixture.ts';
import { queryRows, startTestServer, type TestServer } from '../testing/test-server.ts';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

/** A `bytegate start` process (the gateway and the API) on the test's PostgreSQL database. */
interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
  gatewayPort: number;
  apiPort: number;
  /** The health port (/readyz), open to the end of the drain. */
  metricsPort: number;
}

/** A raw CONNECT tunnel through the gateway to the echo server. */
class Tunnel {
  readonly socket: Socket;
  private received = '';
  readonly closed: Promise<number>;

  constructor(port: number, echoPort: number, auth: string) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (chunk: Buffer) => {
      this.received += chunk.toString('latin1');
    });
    this.socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => this.socket.once('close', () => resolve(Date.now())));
    this.socket.write(
      `CONNECT 127.0.0.1:${echoPort} HTTP/1.1\r\nHost: 127.0.0.1:${echoPort}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
    );
  }

  async waitFor(text: string): Promise<void> {
    const deadline = Date.now() + 5000;
    while (!this.received.includes(text)) {
      if (Date.now() > deadline) {
        throw new Error(`never received ${JSON.stringify(text)}; got ${JSON.stringify(this.received)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  async roundTrip(text: string): Promise<void> {
    this.socket.write(`<${text}>`);
    await this.waitFor(`<${text}>`);
  }

  /** Both directions at this end: what the gateway's client socket carried, so what must be billed. */
  carried(): number {
    return this.socket.bytesRead + this.socket.bytesWritten;
  }
}

function isRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(port, '127.0.0.1');
    probe.once('error', () => resolve(true));
    probe.once('connect', () => {
      probe.destroy();
      resolve(false);
    });
  });
}

async function waitUntil(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * SIGTERM drains a real `bytegate start` process: it stops accepting, lets open tunnels run for up to
 * SHUTDOWN_GRACE_S, bills every byte they carried, and exits 0; a second signal ends it at once. Needs
 * PostgreSQL: the test reads the usage the process stored while it runs beside it.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('bytegate start on SIGTERM (PostgreSQL)', () => {
  let server: TestServer;
  let echo: Server;
  let echoPort: number;
  let running: Started | undefined;

  /**
   * Starts the process on ports found free a moment before; another process may take one first (the
   * server then exits with EADDRINUSE), and it is started again on new ones.
   */
  async function startProcess(graceSeconds: number): Promise<Started> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await startProcessOnce(graceSeconds);
      } catch (error) {
        if (attempt >= 3 || !String(error).includes('EADDRINUSE')) {
          throw error;
        }
      }
    }
  }

  async function startProcessOnce(graceSeconds: number): Promise<Started> {
    const gatewayPort = await freePort();
    const apiPort = await freePort();
    const sticky = await freePort();
    const metricsPort = await freePort();
    let output = '';
    const child = spawn(process.execPath, ['apps/server/bin/bytegate.mjs', 'start'], {
      cwd: root,
      env: {
        ...process.env,
        ROLES: 'api,gateway',
        DATABASE_URL: server.database.databaseUrl ?? '',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        PORT: String(apiPort),
        GATEWAY_HTTP_PORT: String(gatewayPort),
        GATEWAY_SOCKS_PORT: String(await freePort()),
        GATEWAY_STICKY_PORTS: `${sticky}-${sticky}`,
        GATEWAY_ALLOW_PRIVATE_TARGETS: 'true',
        GATEWAY_OPEN_PORTS: String(echoPort),
        SHUTDOWN_GRACE_S: String(graceSeconds),
        METRICS_PORT: String(metricsPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    running = { child, output: () => output, exited, gatewayPort, apiPort, metricsPort };
    await waitUntil(
      async () => {
        if (child.exitCode !== null) {
          throw new Error(`bytegate start exited:\n${output}`);
        }
        return output.includes('Bytegate is running') && !(await isRefused(gatewayPort));
      },
      'bytegate start to listen',
      // As long as startBytegate waits: a loaded machine takes over a minute to start the process.
      180_000,
    );
    return running;
  }

  /** A new plan's proxy auth, and a reader of what the database holds as its traffic used. */
  async function newPlan() {
    const { planId, login, password } = await buyDatacenterPlan(server);
    return {
      auth: Buffer.from(`${login}:${password}`).toString('base64'),
      usedBytes: async () => {
        const [plan] = await queryRows<{ traffic_used_bytes: string }>(
          server,
          `select traffic_used_bytes from plans where id = '${planId}'`,
        );
        return Number(plan?.traffic_used_bytes);
      },
    };
  }

  beforeAll(async () => {
    echo = createServer((socket) => {
      socket.on('error', () => socket.destroy());
      socket.pipe(socket);
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as AddressInfo).port;
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
  });
  afterEach(() => {
    running?.child.kill('SIGKILL');
    running = undefined;
  });
  afterAll(async () => {
    await server?.close();
    await new Promise((resolve) => echo?.close(resolve));
  });

  it('stops accepting, lets the open tunnel finish, bills it to the byte and exits 0', async () => {
    const plan = await newPlan();
    const proc = await startProcess(20);
    const tunnel = new Tunnel(proc.gatewayPort, echoPort, plan.auth);
    await tunnel.roundTrip('before');
    const readyz = `http://127.0.0.1:${proc.metricsPort}/readyz`;
    expect((await fetch(readyz)).status).toBe(200);

    const signalledAt = Date.now();
    proc.child.kill('SIGTERM');
    // Neither the gateway nor the API takes a new connection; the tunnel carries on meanwhile.
    await waitUntil(() => isRefused(proc.gatewayPort), 'the gateway port to refuse', 2000);
    // Not ready from the first moment of the drain (so no later than the ports refuse), for the whole
    // grace, while the health port still answers.
    const draining = await fetch(readyz);
    expect(draining.status).toBe(503);
    expect(await draining.json()).toMatchObject({ ready: false, draining: true });
    await waitUntil(() => isRefused(proc.apiPort), 'the API port to refuse', 2000);
    for (let i = 0; i < 4; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      await tunnel.roundTrip(`draining ${i}`);
    }
    expect(proc.child.exitCode).toBeNull();
    tunnel.socket.end();
    await tunnel.closed;

    const { code, at } = await proc.exited;
    expect(code).toBe(0);
    // Well within the 20 s grace: it left as soon as its last tunnel did.
    expect(at - signalledAt).toBeLessThan(6000);
    expect(proc.output()).toContain('SIGTERM received: draining for up to 20 s');
    expect(proc.output()).toContain('"cutAtDeadline":0');
    expect(await plan.usedBytes()).toBe(tunnel.carried());
  }, 240_000);

  it('exits at once on a second SIGTERM', async () => {
    const plan = await newPlan();
    const proc = await startProcess(20);
    const tunnel = new Tunnel(proc.gatewayPort, echoPort, plan.auth);
    await tunnel.roundTrip('held open');
    proc.child.kill('SIGTERM');
    await waitUntil(() => proc.output().includes('SIGTERM received: draining'), 'the drain to start');
    const againAt = Date.now();
    proc.child.kill('SIGTERM');
    const { code, at } = await proc.exited;
    expect(code).toBe(143);
    expect(at - againAt).toBeLessThan(1000);
    expect(proc.output()).toContain('SIGTERM received again: exiting now');
    await tunnel.closed;
  }, 60_000);

  it('cuts a tunnel held open past SHUTDOWN_GRACE_S=1 and bills what it carried up to the cut', async () => {
    const plan = await newPlan();
    const proc = await startProcess(1);
    const tunnel = new Tunnel(proc.gatewayPort, echoPort, plan.auth);
    await tunnel.roundTrip('before');
    const signalledAt = Date.now();
    proc.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await tunnel.roundTrip('after the signal');
    // Then held open, idle: nothing is in flight when the grace runs out.
    const cutAt = await tunnel.closed;
    expect(cutAt - signalledAt).toBeGreaterThanOrEqual(900);
    expect(cutAt - signalledAt).toBeLessThan(2000);
    const { code, at } = await proc.exited;
    expect(code).toBe(0);
    expect(at - signalledAt).toBeLessThan(4000);
    expect(proc.output()).toContain('gateway: cut 1 connection still open at the deadline');
    expect(await plan.usedBytes()).toBe(tunnel.carried());
  }, 60_000);
});
