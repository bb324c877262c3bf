import { connect, type Socket } from 'node:net';
import { BYTES_PER_GB } from '@bytegate/contracts/constants';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createProxyUserForPlan,
  deleteOwnProxyUser,
  regenerateProxyUserPassword,
  updateProxyUserFields,
} from '../services/proxy-users/proxy-users.ts';
import {
  buyDatacenterPlan,
  fetchThroughGateway,
  type GatewayFixture,
  startGatewayFixture,
  within,
} from '../testing/gateway-fixture.ts';
import { queryRows } from '../testing/test-server.ts';

// Proxy users through the real gateway over the database (issue 17): a new proxy user works within a
// second of its creation, its traffic lands on its own counters and its plan's, its cap cuts it while
// its plan's own login goes on, and a disable, a new password or a delete closes its tunnels within 2 s.

describe.each(testDatabaseKinds())('proxy users at the gateway, on %s', (kind) => {
  let fixture: GatewayFixture;
  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  const ctx = () => ({ db: fixture.server.database.db, config: fixture.server.config });

  async function customerWithProxyUser(fields: Record<string, unknown> = {}) {
    const customer = await buyDatacenterPlan(fixture.server);
    const [owner] = await queryRows<{ user_id: string }>(
      fixture.server,
      `select user_id from plans where id = '${customer.planId}'`,
    );
    const userId = owner?.user_id as string;
    const proxyUser = await createProxyUserForPlan(ctx(), {
      userId,
      planId: customer.planId,
      body: { label: 'client A', ...fields },
    });
    return { ...customer, userId, proxyUser };
  }

  const fetchThrough = (credentials: string, path: string) => fetchThroughGateway(fixture, credentials, path);

  function tunnel(credentials: string): Promise<{ socket: Socket; status: string }> {
    const target = new URL(fixture.originUrl).host;
    return new Promise((resolve, reject) => {
      const socket = connect(fixture.gateway.httpPort, '127.0.0.1', () => {
        socket.write(
          `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n\r\n`,
        );
      });
      socket.once('data', (chunk: Buffer) =>
        resolve({ socket, status: chunk.toString('latin1').split('\r\n')[0] ?? '' }),
      );
      socket.once('error', reject);
    });
  }

  async function openTunnel(credentials: string): Promise<Socket> {
    let socket: Socket | undefined;
    await within(3000, async () => {
      const opened = await tunnel(credentials);
      if (opened.status === 'HTTP/1.1 200 Connection Established') {
        socket = opened.socket;
        return true;
      }
      opened.socket.destroy();
      return false;
    });
    return socket as Socket;
  }

  async function closedAfter(socket: Socket, change: () => Promise<unknown>): Promise<number> {
    socket.on('error', () => undefined);
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    const started = Date.now();
    await change();
    const at = await Promise.race([
      closed,
      new Promise<number>((resolve) => setTimeout(() => resolve(0), 4000)),
    ]);
    return at === 0 ? Number.POSITIVE_INFINITY : at - started;
  }

  it('carries a new proxy user’s traffic and stores it on the user and on the plan', async () => {
    const customer = await customerWithProxyUser();
    const { login, password } = customer.proxyUser;
    await openTunnel(`${login}:${password}`).then((socket) => socket.destroy());
    const answer = await fetchThrough(`${login}:${password}`, '/?bytes=100000');
    expect(answer.status).toBe('HTTP/1.1 200 OK');
    expect(answer.body.length).toBe(100_000);
    await fixture.gateway.flush();
    const [user] = await queryRows<{ used: number }>(
      fixture.server,
      `select traffic_used_bytes::int8 as used from proxy_users where id = '${customer.proxyUser.id}'`,
    );
    const [plan] = await queryRows<{ used: number }>(
      fixture.server,
      `select traffic_used_bytes::int8 as used from plans where id = '${customer.planId}'`,
    );
    const [hourly] = await queryRows<{ bytes: number; requests: number }>(
      fixture.server,
      `select sum(bytes)::int8 as bytes, sum(requests)::int as requests from proxy_user_usage
       where proxy_user_id = '${customer.proxyUser.id}'`,
    );
    expect(Number(user?.used)).toBeGreaterThan(100_000);
    // Everything the user carried is the plan's traffic too (here the plan's own login carried nothing).
    expect(Number(plan?.used)).toBe(Number(user?.used));
    expect(Number(hourly?.bytes)).toBe(Number(user?.used));
    expect(hourly?.requests).toBe(2);
  });

  it('cuts a user at its daily cap and refuses it after, naming the cap, while the plan’s login goes on', async () => {
    const customer = await customerWithProxyUser({ traffic_cap_gb: 0.001, cap_period: 'day' });
    const { login, password } = customer.proxyUser;
    const cap = Math.round(0.001 * BYTES_PER_GB);
    await openTunnel(`${login}:${password}`).then((socket) => socket.destroy());
    const cut = await fetchThrough(`${login}:${password}`, '/?bytes=5000000');
    // The answer ends early: the cap is 1,073,742 bytes and the bound one read past it.
    expect(cut.body.length).toBeLessThan(cap + 128 * 1024);
    await fixture.gateway.flush();
    const [row] = await queryRows<{ period: number; start: string | null }>(
      fixture.server,
      `select period_used_bytes::int8 as period, period_start::text as start from proxy_users
       where id = '${customer.proxyUser.id}'`,
    );
    expect(Number(row?.period)).toBeGreaterThanOrEqual(cap);
    expect(Number(row?.period)).toBeLessThanOrEqual(cap + 128 * 1024);
    expect(row?.start).not.toBeNull();
    const refused = await fetchThrough(`${login}:${password}`, '/');
    expect(refused.status).toBe('HTTP/1.1 407 TRAFFIC_EXHAUSTED');
    expect(refused.body.toString()).toContain('daily traffic cap of 0.001 GB');
    const own = await fetchThrough(`${customer.login}:${customer.password}`, '/');
    expect(own.status).toBe('HTTP/1.1 200 OK');
    // Raising the cap lets it in again within a second or so.
    await updateProxyUserFields(ctx(), {
      userId: customer.userId,
      proxyUserId: customer.proxyUser.id,
      fields: { traffic_cap_gb: 1 },
    });
    await within(
      3000,
      async () => (await fetchThrough(`${login}:${password}`, '/')).status === 'HTTP/1.1 200 OK',
    );
  });

  it('closes a user’s tunnel within 2 s of its disable, and refuses it until enabled', async () => {
    const customer = await customerWithProxyUser();
    const { login, password } = customer.proxyUser;
    const socket = await openTunnel(`${login}:${password}`);
    const own = await openTunnel(`${customer.login}:${customer.password}`);
    const elapsed = await closedAfter(socket, () =>
      updateProxyUserFields(ctx(), {
        userId: customer.userId,
        proxyUserId: customer.proxyUser.id,
        fields: { enabled: false },
      }),
    );
    expect(elapsed).toBeLessThan(2000);
    expect(own.destroyed).toBe(false);
    own.destroy();
    expect((await tunnel(`${login}:${password}`)).status).toBe('HTTP/1.1 407 NO_USER');
  });

  it('refuses a regenerated password’s old one and closes its tunnels within 2 s', async () => {
    const customer = await customerWithProxyUser();
    const { login, password } = customer.proxyUser;
    const socket = await openTunnel(`${login}:${password}`);
    let fresh = '';
    const elapsed = await closedAfter(socket, async () => {
      fresh = (
        await regenerateProxyUserPassword(ctx(), {
          userId: customer.userId,
          proxyUserId: customer.proxyUser.id,
        })
      ).password;
    });
    expect(elapsed).toBeLessThan(2000);
    expect(fresh).not.toBe(password);
    expect((await tunnel(`${login}:${password}`)).status).toBe('HTTP/1.1 407 NO_USER');
    (await openTunnel(`${login}:${fresh}`)).destroy();
  });

  it('closes a deleted user’s tunnels within 2 s and forgets its login', async () => {
    const customer = await customerWithProxyUser();
    const { login, password } = customer.proxyUser;
    const socket = await openTunnel(`${login}:${password}`);
    const elapsed = await closedAfter(socket, () =>
      deleteOwnProxyUser(ctx(), { userId: customer.userId, proxyUserId: customer.proxyUser.id }),
    );
    expect(elapsed).toBeLessThan(2000);
    expect((await tunnel(`${login}:${password}`)).status).toBe('HTTP/1.1 407 NO_USER');
  });

  it('holds a user to its own thread limit', async () => {
    const customer = await customerWithProxyUser({ threads: 1 });
    const { login, password } = customer.proxyUser;
    const first = await openTunnel(`${login}:${password}`);
    expect((await tunnel(`${login}:${password}`)).status).toBe('HTTP/1.1 407 THREADS_EXHAUSTED');
    first.destroy();
    (await openTunnel(`${login}:${password}`)).destroy();
  });
});
