import type { AuditResponse, CustomerDetailResponse } from '@bytegate/contracts/admin';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setStaffRole } from '../../../services/back-office/set-staff-role.ts';
import { CLI_ACTOR } from '../../../services/back-office/staff-actor.ts';
import { createCustomerWithPlan, createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

type Customer = Awaited<ReturnType<typeof createCustomerWithPlan>>;
type Staff = Awaited<ReturnType<typeof createUserWithRole>>;

describe.each(testDatabaseKinds())('back office actions on customers on %s', (kind) => {
  let server: TestServer;
  let support: Staff;
  let admin: Staff;
  let customer: Customer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    support = await createUserWithRole(server, 'support');
    admin = await createUserWithRole(server, 'admin');
    customer = await createCustomerWithPlan(server, {
      overrides: { firstName: 'Grace', lastName: 'Hopper', company: 'Navy' },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const detailOf = async (userId: string, token = support.token) =>
    (await server.request<CustomerDetailResponse>('GET', `/api/admin/customers/${userId}`, { token })).body;

  describe('POST /api/admin/customers/:userId/balance', () => {
    const adjust = (token: string, body: Record<string, unknown>, userId = customer.userId) =>
      server.request<CustomerDetailResponse & { error?: string; code?: string }>(
        'POST',
        `/api/admin/customers/${userId}/balance`,
        { token, body },
      );

    it('refuses a missing or short reason and a malformed amount', async () => {
      expect((await adjust(support.token, { amount: '5' })).body).toEqual({
        error: 'Reason is required',
        code: 'VALIDATION_FAILED',
      });
      expect((await adjust(support.token, { amount: '5', reason: 'ok' })).body).toEqual({
        error: 'Reason must be at least 3 characters',
        code: 'VALIDATION_FAILED',
      });
      expect((await adjust(support.token, { amount: '5.001', reason: 'goodwill' })).body).toEqual({
        error: "Amount must be dollars like '12.50' or '-3'",
        code: 'VALIDATION_FAILED',
      });
      expect((await adjust(support.token, { amount: '0', reason: 'goodwill' })).status).toBe(400);
    });

    it('lets support move up to $100 either way in 24 hours, and only an admin beyond', async () => {
      const before = (await detailOf(customer.userId)).customer.balance;
      const credited = await adjust(support.token, { amount: '100', reason: 'outage credit' });
      expect(credited.status).toBe(200);
      expect(credited.body.customer.balance).toBe(before + 100);
      expect(credited.body.ledger[0]).toMatchObject({
        kind: 'adjustment',
        amount: 100,
        note: 'outage credit',
      });

      const tooMuch = await adjust(support.token, { amount: '-0.01', reason: 'correction' });
      expect(tooMuch.status).toBe(403);
      expect(tooMuch.body).toEqual({
        error:
          'Only an admin may do this: support may move at most $100.00 in 24 hours, and you moved $100.00 in that time; an admin must make this change',
        code: 'FORBIDDEN',
      });
      const byAdmin = await adjust(admin.token, { amount: '-100.01', reason: 'correction' });
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.customer.balance).toBeCloseTo(before - 0.01, 2);

      const belowZero = await adjust(admin.token, { amount: '-100000', reason: 'correction' });
      expect(belowZero.status).toBe(400);
      expect(belowZero.body.code).toBe('INSUFFICIENT_BALANCE');

      const audit = byAdmin.body.audit.filter((entry) => entry.action === 'customer.balance.adjust');
      expect(audit.slice(0, 2)).toEqual([
        expect.objectContaining({
          actorEmail: admin.email,
          targetType: 'user',
          targetId: customer.userId,
          before: { balanceCents: Math.round((before + 100) * 100) },
          after: expect.objectContaining({
            balanceCents: Math.round((before - 0.01) * 100),
            amountCents: -10001,
          }),
          reason: 'correction',
        }),
        expect.objectContaining({ actorEmail: support.email, reason: 'outage credit' }),
      ]);
    });
  });

  describe('POST /api/admin/customers/:userId/disable and /enable', () => {
    it('refuses sign-in, revokes sessions and audits; enabling lets the customer back in', async () => {
      const target = await createCustomerWithPlan(server);
      const disabled = await server.request<CustomerDetailResponse>(
        'POST',
        `/api/admin/customers/${target.userId}/disable`,
        { token: support.token, body: { reason: 'chargeback fraud' } },
      );
      expect(disabled.status).toBe(200);
      expect(disabled.body.customer.status).toBe('disabled');
      expect(disabled.body.sessions).toEqual([]);
      expect(disabled.body.audit[0]).toMatchObject({
        action: 'customer.disable',
        actorEmail: support.email,
        before: { status: 'active' },
        after: { status: 'disabled', revokedSessions: 1 },
        reason: 'chargeback fraud',
      });
      expect((await server.request('GET', '/api/auth/me', { token: target.token })).status).toBe(401);
      const login = await server.request('POST', '/api/auth/login', {
        body: { email: target.email, password: target.password },
      });
      expect(login.status).toBe(403);
      expect(login.body).toEqual({
        error: 'This account has been disabled. Please contact support.',
        code: 'ACCOUNT_DISABLED',
      });
      // A wrong password learns nothing about the account's state.
      const guess = await server.request('POST', '/api/auth/login', {
        body: { email: target.email, password: 'wrong password here' },
      });
      expect(guess.status).toBe(401);

      const enabled = await server.request<CustomerDetailResponse>(
        'POST',
        `/api/admin/customers/${target.userId}/enable`,
        { token: support.token, body: { reason: 'cleared by billing' } },
      );
      expect(enabled.body.customer.status).toBe('active');
      expect(enabled.body.audit[0]).toMatchObject({ action: 'customer.enable', after: { status: 'active' } });
      const again = await server.request('POST', '/api/auth/login', {
        body: { email: target.email, password: target.password },
      });
      expect(again.status).toBe(200);
    });

    it('needs a reason and refuses to disable oneself', async () => {
      const noReason = await server.request('POST', `/api/admin/customers/${customer.userId}/disable`, {
        token: support.token,
        body: {},
      });
      expect(noReason.status).toBe(400);
      const self = await server.request('POST', `/api/admin/customers/${support.userId}/disable`, {
        token: support.token,
        body: { reason: 'testing' },
      });
      expect(self.status).toBe(403);
      expect(self.body).toEqual({ error: 'You cannot disable your own account', code: 'FORBIDDEN' });
    });

    it('leaves staff accounts to an admin: support cannot disable one, revoke its sessions or move its money', async () => {
      const other = await createUserWithRole(server, 'support');
      const refusal = {
        error: 'Only an admin may do this: support cannot act on a staff account',
        code: 'FORBIDDEN',
      };
      for (const [path, body] of [
        ['disable', { reason: 'testing' }],
        ['sessions/revoke', { reason: 'testing' }],
        ['balance', { amount: '5', reason: 'testing' }],
      ] as const) {
        const answer = await server.request('POST', `/api/admin/customers/${other.userId}/${path}`, {
          token: support.token,
          body,
        });
        expect(answer.status, path).toBe(403);
        expect(answer.body, path).toEqual(refusal);
      }
      // A staff member's own plan, too: its thread limit is an admin's to change.
      const staffWithPlan = await createCustomerWithPlan(server);
      await setStaffRole(
        { db: server.database.db, config: server.config },
        { email: staffWithPlan.email, role: 'support', actor: CLI_ACTOR },
      );
      const threads = await server.request('POST', `/api/admin/plans/${staffWithPlan.planId}/threads`, {
        token: support.token,
        body: { threadLimit: 900, reason: 'testing' },
      });
      expect(threads.status).toBe(403);
      expect(threads.body).toEqual(refusal);
      const byAdmin = await server.request<{ customer: { status: string } }>(
        'POST',
        `/api/admin/customers/${other.userId}/disable`,
        { token: admin.token, body: { reason: 'left the team' } },
      );
      expect(byAdmin.status).toBe(200);
      expect(byAdmin.body.customer.status).toBe('disabled');
    });
  });

  describe('POST /api/admin/customers/:userId/sessions/revoke', () => {
    it('signs the customer out everywhere', async () => {
      const target = await createUserWithRole(server, 'customer');
      const answer = await server.request<CustomerDetailResponse>(
        'POST',
        `/api/admin/customers/${target.userId}/sessions/revoke`,
        { token: support.token, body: { reason: 'account takeover suspected' } },
      );
      expect(answer.status).toBe(200);
      expect(answer.body.sessions).toEqual([]);
      expect(answer.body.audit[0]).toMatchObject({
        action: 'customer.sessions.revoke',
        before: { liveSessions: 1 },
        after: { liveSessions: 0 },
      });
      expect((await server.request('GET', '/api/auth/me', { token: target.token })).status).toBe(401);
    });
  });

  describe('POST /api/admin/plans/:planId/threads', () => {
    it('changes the thread limit, audits it, and refuses bad limits and unknown plans', async () => {
      const url = `/api/admin/plans/${customer.planId}/threads`;
      const [before] = await queryRows<{ updated_at: Date }>(
        server,
        `select updated_at from plans where id = '${customer.planId}'`,
      );
      const changed = await server.request<{ plan: { threadLimit: number; id: string } }>('POST', url, {
        token: support.token,
        body: { threadLimit: 250, reason: 'scraping project' },
      });
      expect(changed.status).toBe(200);
      expect(changed.body.plan).toMatchObject({ id: customer.planId, threadLimit: 250 });
      const [after] = await queryRows<{ updated_at: Date }>(
        server,
        `select updated_at from plans where id = '${customer.planId}'`,
      );
      expect(new Date(after?.updated_at ?? 0).getTime()).toBeGreaterThan(
        new Date(before?.updated_at ?? 0).getTime(),
      );
      const audit = (await detailOf(customer.userId)).audit[0];
      expect(audit).toMatchObject({
        action: 'plan.threads.change',
        targetType: 'plan',
        targetId: customer.planId,
        after: { threadLimit: 250 },
        reason: 'scraping project',
      });
      for (const threadLimit of [0, 10_001, 2.5]) {
        const refused = await server.request('POST', url, {
          token: support.token,
          body: { threadLimit, reason: 'scraping project' },
        });
        expect({ threadLimit, status: refused.status }).toEqual({ threadLimit, status: 400 });
      }
      const unknown = await server.request(
        'POST',
        '/api/admin/plans/00000000-0000-4000-8000-000000000000/threads',
        {
          token: support.token,
          body: { threadLimit: 5, reason: 'scraping project' },
        },
      );
      expect(unknown.status).toBe(404);
    });
  });

  describe('GET /api/admin/audit', () => {
    it('pages the log newest first and filters by actor, action and target', async () => {
      const all = await server.request<AuditResponse>('GET', '/api/admin/audit', { token: support.token });
      expect(all.status).toBe(200);
      expect(all.body.pagination).toMatchObject({ currentPage: 1, itemsPerPage: 50 });
      expect(all.body.entries.length).toBeGreaterThan(3);
      const times = all.body.entries.map((entry) => entry.createdAt);
      expect([...times].sort().reverse()).toEqual(times);

      const byAdmin = await server.request<AuditResponse>(
        'GET',
        `/api/admin/audit?actor=${encodeURIComponent(admin.email.toUpperCase())}`,
        { token: support.token },
      );
      expect(byAdmin.body.entries.length).toBeGreaterThan(0);
      expect(byAdmin.body.entries.every((entry) => entry.actorEmail === admin.email)).toBe(true);

      const grants = await server.request<AuditResponse>('GET', '/api/admin/audit?action=staff.grant', {
        token: support.token,
      });
      expect(grants.body.entries.map((entry) => [entry.actorEmail, entry.targetId])).toEqual(
        expect.arrayContaining([
          ['cli', support.userId],
          ['cli', admin.userId],
        ]),
      );
      const aboutPlan = await server.request<AuditResponse>(
        'GET',
        `/api/admin/audit?targetId=${customer.planId}&page=1`,
        { token: support.token },
      );
      expect(aboutPlan.body.entries.map((entry) => entry.action)).toEqual(['plan.threads.change']);
      const beyond = await server.request<AuditResponse>('GET', '/api/admin/audit?page=99', {
        token: support.token,
      });
      expect(beyond.body.entries).toEqual([]);
    });
  });
});
