import { connect, type Socket } from 'node:net';
import type { AdminPlanResponse, CustomerDetailResponse } from '@bytegate/contracts/admin';
import type { RefundResponse } from '@bytegate/contracts/admin-payments';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyDatacenterPlan,
  type GatewayFixture,
  startGatewayFixture,
  within,
} from '../../../testing/gateway-fixture.ts';
import { createUserWithRole } from '../../../testing/staff.ts';
import { queryRows } from '../../../testing/test-server.ts';

type Staff = Awaited<ReturnType<typeof createUserWithRole>>;

// What staff change about a customer's access from the console, seen where it matters: at the gateway.
describe.each(testDatabaseKinds())('credentials and unblocks from the back office on %s', (kind) => {
  let fixture: GatewayFixture;
  let support: Staff;
  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
    support = await createUserWithRole(fixture.server, 'support');
  });
  afterAll(async () => {
    await fixture?.close();
  });

  /** A CONNECT through the gateway to the origin: the socket, held open, and the answer's status line. */
  function tunnel(credentials: string): Promise<{ socket: Socket; status: string }> {
    const target = new URL(fixture.originUrl).host;
    return new Promise((resolve, reject) => {
      const socket = connect(fixture.gateway.httpPort, '127.0.0.1', () => {
        const auth = `Proxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n`;
        socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${auth}\r\n`);
      });
      socket.once('data', (chunk: Buffer) =>
        resolve({ socket, status: chunk.toString('latin1').split('\r\n')[0] ?? '' }),
      );
      socket.once('error', reject);
    });
  }
  async function statusOf(credentials: string): Promise<string> {
    const { socket, status } = await tunnel(credentials);
    socket.destroy();
    return status;
  }
  const userIdOf = async (planId: string) =>
    (
      await queryRows<{ user_id: string }>(fixture.server, `select user_id from plans where id = '${planId}'`)
    )[0]?.user_id ?? '';

  describe('POST /api/admin/plans/:planId/password', () => {
    it('refuses the old password at once and closes its tunnels within 2 s, audited, never shown', async () => {
      const customer = await buyDatacenterPlan(fixture.server);
      const credentials = `${customer.login}:${customer.password}`;
      let opened: { socket: Socket; status: string } | undefined;
      await within(3000, async () => {
        opened = await tunnel(credentials);
        if (opened.status === 'HTTP/1.1 200 Connection Established') {
          return true;
        }
        opened.socket.destroy();
        return false;
      });
      const socket = opened?.socket as Socket;
      socket.on('error', () => undefined);
      const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));

      expect(
        (
          await fixture.server.request('POST', `/api/admin/plans/${customer.planId}/password`, {
            token: support.token,
            body: {},
          })
        ).body,
      ).toEqual({ error: 'Reason is required', code: 'VALIDATION_FAILED' });
      const started = Date.now();
      const answer = await fixture.server.request<AdminPlanResponse>(
        'POST',
        `/api/admin/plans/${customer.planId}/password`,
        { token: support.token, body: { reason: 'Password leaked in a public repository' } },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.plan).toMatchObject({ id: customer.planId, login: customer.login });
      expect(JSON.stringify(answer.body)).not.toMatch(/password"/i);
      expect((await closed) - started).toBeLessThan(2000);
      expect(await statusOf(credentials)).toBe('HTTP/1.1 407 NO_USER');

      // The customer reads the new one in their dashboard, and it works.
      const plans = await fixture.server.request<{ plans: Array<{ password: string }> }>(
        'GET',
        '/api/subuser/plans',
        { token: customer.token },
      );
      const fresh = plans.body.plans[0]?.password ?? '';
      expect(fresh).toMatch(/^[A-Za-z0-9]{20}$/);
      expect(fresh).not.toBe(customer.password);
      await within(2000, async () => (await statusOf(`${customer.login}:${fresh}`)).includes('200'));

      const audit = await queryRows<{
        actor_email: string;
        target_type: string;
        after: object;
        reason: string;
      }>(
        fixture.server,
        `select actor_email, target_type, after, reason from audit_log where action = 'plan.password.regenerate' and target_id = '${customer.planId}'`,
      );
      expect(audit).toEqual([
        {
          actor_email: support.email,
          target_type: 'plan',
          after: { password: 'replaced', userId: await userIdOf(customer.planId) },
          reason: 'Password leaked in a public repository',
        },
      ]);
      expect(JSON.stringify(audit)).not.toContain(fresh);
    });

    it('answers 404 for an unknown plan', async () => {
      const answer = await fixture.server.request(
        'POST',
        '/api/admin/plans/00000000-0000-4000-8000-000000000000/password',
        { token: support.token, body: { reason: 'No such plan' } },
      );
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ error: 'No such plan', code: 'NOT_FOUND' });
    });
  });

  describe('a refund at the gateway', () => {
    it('refuses new connections within 2 s of a purchase refunded whole', async () => {
      const customer = await buyDatacenterPlan(fixture.server);
      const credentials = `${customer.login}:${customer.password}`;
      await within(3000, async () => (await statusOf(credentials)).includes('200'));
      const detail = await fixture.server.request<CustomerDetailResponse>(
        'GET',
        `/api/admin/customers/${await userIdOf(customer.planId)}`,
        { token: support.token },
      );
      const refunded = await fixture.server.request<RefundResponse>(
        'POST',
        `/api/admin/orders/${detail.body.orders[0]?.orderId}/refund`,
        { token: support.token, body: { reason: 'Bought by mistake' } },
      );
      expect(refunded.status).toBe(200);
      // All that was left: the bytes of the checks above, once flushed, count as used.
      const { refundBytes, planUsedBytes } = refunded.body.refund;
      expect((refundBytes ?? 0) + (planUsedBytes ?? 0)).toBe(5 * 1024 ** 3);
      expect(planUsedBytes).toBeLessThan(64 * 1024);
      const waited = await within(
        2000,
        async () => (await statusOf(credentials)) === 'HTTP/1.1 407 TRAFFIC_EXHAUSTED',
      );
      expect(waited).toBeLessThan(2000);
      // At most the few bytes of the checks above that were not flushed yet when the refund read the plan.
      const left = fixture.gateway.store.getPlanById(customer.planId)?.trafficLeftBytes ?? 1;
      expect(left).toBeLessThanOrEqual(0);
      expect(left).toBeGreaterThan(-64 * 1024);
    });
  });

  describe('POST /api/admin/customers/:userId/unblocks', () => {
    const change = (userId: string, body: object, token = support.token) =>
      fixture.server.request<CustomerDetailResponse & { error?: string; code?: string }>(
        'POST',
        `/api/admin/customers/${userId}/unblocks`,
        { token, body },
      );

    it('opens and closes ports and domains, each change audited with before and after', async () => {
      const customer = await buyDatacenterPlan(fixture.server);
      const userId = await userIdOf(customer.planId);
      const opened = await change(userId, {
        ports: [25, 587],
        hosts: ['PayPal.com.'],
        reason: 'Transactional mail for an approved sender',
      });
      expect(opened.status).toBe(200);
      expect(opened.body.unblocks).toEqual({ ports: [25, 587], hosts: ['paypal.com'] });
      const closed = await change(userId, { ports: [25], remove: true, reason: 'Port 25 no longer needed' });
      expect(closed.body.unblocks).toEqual({ ports: [587], hosts: ['paypal.com'] });
      // Closing what is not open changes nothing and records nothing.
      expect((await change(userId, { ports: [25], remove: true, reason: 'Again' })).status).toBe(200);
      expect(
        closed.body.audit
          .filter((entry) => entry.action === 'customer.unblocks.change')
          .map((entry) => [entry.actorEmail, entry.before, entry.after, entry.reason]),
      ).toEqual([
        [
          support.email,
          { ports: [25, 587], hosts: ['paypal.com'] },
          { ports: [587], hosts: ['paypal.com'] },
          'Port 25 no longer needed',
        ],
        [
          support.email,
          { ports: [], hosts: [] },
          { ports: [25, 587], hosts: ['paypal.com'] },
          'Transactional mail for an approved sender',
        ],
      ]);
      const rows = await queryRows(
        fixture.server,
        `select 1 from audit_log where action = 'customer.unblocks.change' and target_id = '${userId}'`,
      );
      expect(rows).toHaveLength(2);
      // The gateway's view of the customer's plans follows within a second or two.
      await within(2000, async () =>
        Boolean(fixture.gateway.store.getPlanById(customer.planId)?.unblocks?.ports.has(587)),
      );
    });

    it('names the problem with a bad port, a bad domain, nothing to change or no reason', async () => {
      const customer = await buyDatacenterPlan(fixture.server);
      const userId = await userIdOf(customer.planId);
      const cases: Array<[object, string]> = [
        [{ ports: [70000], reason: 'Testing' }, 'Port must be a whole number from 1 to 65535'],
        [
          { hosts: ['http://x.com/'], reason: 'Testing' },
          'Domain must be a domain name like example.com (it covers every name under it)',
        ],
        [{ reason: 'Testing' }, 'Give a port or a domain to open or close'],
        [{ ports: [25] }, 'Reason is required'],
      ];
      for (const [body, error] of cases) {
        expect((await change(userId, body)).body).toEqual({ error, code: 'VALIDATION_FAILED' });
      }
      const staffer = await createUserWithRole(fixture.server, 'support');
      const refused = await change(staffer.userId, { ports: [25], reason: 'Testing' });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('FORBIDDEN');
    });
  });
});
