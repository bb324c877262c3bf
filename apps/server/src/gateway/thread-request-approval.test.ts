import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { createExits } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../mail/testing/smtp-sink.ts';
import { buyDatacenterPlan, within } from '../testing/gateway-fixture.ts';
import { createUserWithRole } from '../testing/staff.ts';
import { startTestServer, type TestServer } from '../testing/test-server.ts';
import { type RunningGateway, runGateway } from './run-gateway.ts';

// An approved thread request reaches the gateway like any thread limit change: a plan whose threads are
// all busy refuses the next connection (407 THREADS_EXHAUSTED) until support approves more, and then
// takes it within 2 s. Real sockets: CONNECT tunnels through the gateway to a local origin.

describe.each(testDatabaseKinds())('a thread request approved, at the gateway, on %s', (kind) => {
  let sink: SmtpSink;
  let server: TestServer;
  let gateway: RunningGateway;
  let origin: Server;
  let originHost: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    origin = createServer((_request, response) => response.end('ok'));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const originPort = (origin.address() as AddressInfo).port;
    originHost = `127.0.0.1:${originPort}`;
    sink = await startSmtpSink();
    server = await startTestServer(kind, {
      mail: { smtpUrl: `smtp://127.0.0.1:${sink.port}`, from: 'Bytegate <no-reply@bytegate.example>' },
    });
    server.config.gateway.allowPrivateTargets = true;
    await createExits(server.database.db, {
      exits: [
        {
          name: 'US loopback',
          kind: 'direct',
          poolType: 'datacenter',
          localAddress: '127.0.0.2',
          country: 'US',
        },
      ],
    });
    gateway = await runGateway(server.config, server.database.db, console, {
      httpPort: 0,
      socksPort: null,
      stickyPorts: null,
      host: '127.0.0.1',
      openPorts: new Set([originPort]),
    });
  });
  afterAll(async () => {
    for (const socket of sockets) {
      socket.destroy();
    }
    await gateway?.stop();
    await server?.close();
    await sink?.close();
    await new Promise((resolve) => origin?.close(resolve));
  });

  /** A CONNECT tunnel to the origin with the plan's credentials; answers its status line. */
  function tunnel(credentials: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(gateway.httpPort, '127.0.0.1', () => {
        const auth = Buffer.from(credentials).toString('base64');
        socket.write(
          `CONNECT ${originHost} HTTP/1.1\r\nHost: ${originHost}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
        );
      });
      sockets.push(socket);
      socket.on('error', reject);
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1').split('\r\n')[0] ?? ''));
    });
  }

  it('lets one more connection in within 2 s of support approving one more thread', async () => {
    const support = await createUserWithRole(server, 'support');
    const customer = await buyDatacenterPlan(server);
    const credentials = `${customer.login}:${customer.password}`;
    // Two threads to fill, set by staff; the gateway knows it within 2 s.
    const narrowed = await server.request('POST', `/api/admin/plans/${customer.planId}/threads`, {
      token: support.token,
      body: { threadLimit: 2, reason: 'a small plan for the test' },
    });
    expect(narrowed.status).toBe(200);
    await within(3000, async () => gateway.store.getPlanById(customer.planId)?.threadLimit === 2);
    expect(await tunnel(credentials)).toBe('HTTP/1.1 200 Connection Established');
    expect(await tunnel(credentials)).toBe('HTTP/1.1 200 Connection Established');
    expect(await tunnel(credentials)).toBe('HTTP/1.1 407 THREADS_EXHAUSTED');

    const asked = await server.request<{ id: string }>('POST', '/api/thread-requests', {
      token: customer.token,
      body: {
        subUserId: customer.planId,
        requestedThreads: 3,
        purpose: 'One more crawler for the nightly run',
      },
    });
    expect(asked.status).toBe(201);
    const approved = await server.request('POST', `/api/admin/thread-requests/${asked.body.id}/approve`, {
      token: support.token,
      body: {},
    });
    expect(approved.status).toBe(200);
    const elapsed = await within(2000, async () => {
      const status = await tunnel(credentials);
      return status === 'HTTP/1.1 200 Connection Established';
    });
    expect(elapsed).toBeLessThan(2000);
    // Three are open now, and a fourth is refused: the new limit is obeyed, not lifted.
    expect(await tunnel(credentials)).toBe('HTTP/1.1 407 THREADS_EXHAUSTED');
    expect(sink.received.at(-1)?.parsed.subject).toMatch(/^Thread limit raised: Datacenter/);
  });
});
