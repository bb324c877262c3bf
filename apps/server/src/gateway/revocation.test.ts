import { connect, type Socket } from 'node:net';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyDatacenterPlan,
  type GatewayFixture,
  startGatewayFixture,
  within,
} from '../testing/gateway-fixture.ts';
import { createUserWithRole } from '../testing/staff.ts';
import { queryRows } from '../testing/test-server.ts';

describe.each(testDatabaseKinds())('open connections of a plan that changes, on %s', (kind) => {
  let fixture: GatewayFixture;
  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  /** A CONNECT tunnel to the origin, held open and idle; answers the socket and its status line. */
  function tunnel(credentials: string | null): Promise<{ socket: Socket; status: string }> {
    const target = new URL(fixture.originUrl).host;
    return new Promise((resolve, reject) => {
      const socket = connect(fixture.gateway.httpPort, '127.0.0.1', () => {
        const auth = credentials
          ? `Proxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n`
          : '';
        socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
      });
      socket.once('data', (chunk: Buffer) =>
        resolve({ socket, status: chunk.toString('latin1').split('\r\n')[0] ?? '' }),
      );
      socket.once('error', reject);
    });
  }

  /** Opens a tunnel once the gateway knows the plan (it reads changes every second). */
  async function openTunnel(credentials: string | null): Promise<Socket> {
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

  /** Milliseconds from `change` until the gateway closed the socket (Infinity after 4 s). */
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

  it('closes them within 2 s of the account being deleted', async () => {
    const customer = await buyDatacenterPlan(fixture.server);
    const socket = await openTunnel(`${customer.login}:${customer.password}`);
    const elapsed = await closedAfter(socket, () =>
      fixture.server.request('DELETE', '/api/user-settings/account', {
        token: customer.token,
        body: { password: customer.accountPassword },
      }),
    );
    expect(elapsed).toBeLessThan(2000);
  });

  it('closes them within 2 s of a new proxy password, which works at once while the old one is refused', async () => {
    const customer = await buyDatacenterPlan(fixture.server);
    const socket = await openTunnel(`${customer.login}:${customer.password}`);
    let fresh = '';
    const elapsed = await closedAfter(socket, async () => {
      const answer = await fixture.server.request<{ password: string }>(
        'POST',
        '/api/subuser/regenerate-password',
        {
          token: customer.token,
          body: { subuser_id: customer.planId },
        },
      );
      expect(answer.status).toBe(200);
      fresh = answer.body.password;
    });
    expect(elapsed).toBeLessThan(2000);
    expect(fresh).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(fresh).not.toBe(customer.password);
    expect((await tunnel(`${customer.login}:${customer.password}`)).status).toBe('HTTP/1.1 407 NO_USER');
    (await openTunnel(`${customer.login}:${fresh}`)).destroy();
  });

  it('closes them within 2 s of the plan being disabled', async () => {
    const customer = await buyDatacenterPlan(fixture.server);
    const socket = await openTunnel(`${customer.login}:${customer.password}`);
    const elapsed = await closedAfter(socket, () =>
      queryRows(
        fixture.server,
        `update plans set is_active = false, updated_at = now() where id = '${customer.planId}'`,
      ),
    );
    expect(elapsed).toBeLessThan(2000);
  });

  it('closes them within 2 s of staff disabling the account, and lets the plan work again once enabled', async () => {
    const staff = await createUserWithRole(fixture.server, 'support');
    const customer = await buyDatacenterPlan(fixture.server);
    const [owner] = await queryRows<{ user_id: string }>(
      fixture.server,
      `select user_id from plans where id = '${customer.planId}'`,
    );
    const socket = await openTunnel(`${customer.login}:${customer.password}`);
    const elapsed = await closedAfter(socket, async () => {
      const answer = await fixture.server.request('POST', `/api/admin/customers/${owner?.user_id}/disable`, {
        token: staff.token,
        body: { reason: 'abuse report' },
      });
      expect(answer.status).toBe(200);
    });
    expect(elapsed).toBeLessThan(2000);
    expect((await tunnel(`${customer.login}:${customer.password}`)).status).not.toBe(
      'HTTP/1.1 200 Connection Established',
    );
    await fixture.server.request('POST', `/api/admin/customers/${owner?.user_id}/enable`, {
      token: staff.token,
      body: { reason: 'resolved' },
    });
    (await openTunnel(`${customer.login}:${customer.password}`)).destroy();
  });

  it('applies a thread limit staff change within 2 s', async () => {
    const staff = await createUserWithRole(fixture.server, 'support');
    const customer = await buyDatacenterPlan(fixture.server);
    await within(3000, async () => fixture.gateway.store.getPlanById(customer.planId) !== undefined);
    const answer = await fixture.server.request('POST', `/api/admin/plans/${customer.planId}/threads`, {
      token: staff.token,
      body: { threadLimit: 3, reason: 'abuse report' },
    });
    expect(answer.status).toBe(200);
    const elapsed = await within(
      2000,
      async () => fixture.gateway.store.getPlanById(customer.planId)?.threadLimit === 3,
    );
    expect(elapsed).toBeLessThan(2000);
  });

  it('closes an allowlisted connection within 2 s of its address leaving the allowlist', async () => {
    const customer = await buyDatacenterPlan(fixture.server);
    await fixture.server.request('POST', '/api/subuser/allowlist', {
      token: customer.token,
      body: { subuser_id: customer.planId, address: '127.0.0.1' },
    });
    const socket = await openTunnel(null);
    const elapsed = await closedAfter(socket, () =>
      fixture.server.request(
        'DELETE',
        `/api/subuser/allowlist?subuser_id=${customer.planId}&address=127.0.0.1`,
        {
          token: customer.token,
        },
      ),
    );
    expect(elapsed).toBeLessThan(2000);
  });

  it('refuses a new password without a session (401) and for a malformed plan id (400)', async () => {
    const owner = await buyDatacenterPlan(fixture.server);
    const anonymous = await fixture.server.request('POST', '/api/subuser/regenerate-password', {
      body: { subuser_id: owner.planId },
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'UNAUTHENTICATED' });
    const malformed = await fixture.server.request('POST', '/api/subuser/regenerate-password', {
      token: owner.token,
      body: { subuser_id: 'x'.repeat(500) },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses another customer’s plan a new password', async () => {
    const owner = await buyDatacenterPlan(fixture.server);
    const stranger = await buyDatacenterPlan(fixture.server);
    const answer = await fixture.server.request('POST', '/api/subuser/regenerate-password', {
      token: stranger.token,
      body: { subuser_id: owner.planId },
    });
    expect(answer.status).toBe(404);
  });
});
