import type { CustomerDetailResponse } from '@bytegate/contracts/admin';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole } from '../../../testing/staff.ts';
import { startTestServer, type TestServer } from '../../../testing/test-server.ts';
import { enableTwoFactorViaApi, twoFactorNotifications } from '../../../testing/two-factor.ts';

// Support's answer to a lost phone: the console's "Reset two-factor" on a customer's page.

type Staff = Awaited<ReturnType<typeof createUserWithRole>>;

describe.each(testDatabaseKinds())('POST /api/admin/customers/:userId/two-factor/reset on %s', (kind) => {
  let server: TestServer;
  let support: Staff;
  beforeAll(async () => {
    server = await startTestServer(kind);
    support = await createUserWithRole(server, 'support');
  });
  afterAll(async () => {
    await server?.close();
  });

  const reset = (
    userId: string,
    token: string,
    body: Record<string, unknown> = { reason: 'lost phone, ID checked' },
  ) =>
    server.request<CustomerDetailResponse & { error?: string; code?: string }>(
      'POST',
      `/api/admin/customers/${userId}/two-factor/reset`,
      { token, body },
    );

  it('is refused without a session, to a customer, and without a reason', async () => {
    const target = await createUserWithRole(server, 'customer');
    expect(
      (await server.request('POST', `/api/admin/customers/${target.userId}/two-factor/reset`)).status,
    ).toBe(401);
    expect((await reset(target.userId, target.token)).status).toBe(403);
    expect((await reset(target.userId, support.token, {})).body).toEqual({
      error: 'Reason is required',
      code: 'VALIDATION_FAILED',
    });
  });

  it('is a conflict while the customer has two-factor off, and a 404 for nobody', async () => {
    const target = await createUserWithRole(server, 'customer');
    expect((await reset(target.userId, support.token)).body).toMatchObject({ code: 'CONFLICT' });
    expect((await reset('00000000-0000-4000-8000-000000000000', support.token)).status).toBe(404);
  });

  it('turns it off, signs the customer out, audits before and after with the reason, and tells them', async () => {
    const target = await createUserWithRole(server, 'customer');
    await enableTwoFactorViaApi(server, target);
    const before = await server.request<CustomerDetailResponse>(
      'GET',
      `/api/admin/customers/${target.userId}`,
      {
        token: support.token,
      },
    );
    const enabledAt = before.body.customer.twoFactorEnabledAt;
    expect(enabledAt).toEqual(expect.any(String));

    const answer = await reset(target.userId, support.token);
    expect(answer.status).toBe(200);
    expect(answer.body.customer.twoFactorEnabledAt).toBeNull();
    expect(answer.body.sessions).toEqual([]);
    expect(answer.body.audit[0]).toMatchObject({
      actorEmail: support.email,
      action: 'customer.two_factor.reset',
      targetType: 'user',
      targetId: target.userId,
      before: { twoFactor: 'on', twoFactorEnabledAt: enabledAt, recoveryCodesLeft: 10, liveSessions: 1 },
      after: { twoFactor: 'off', liveSessions: 0 },
      reason: 'lost phone, ID checked',
    });
    expect((await server.request('GET', '/api/auth/me', { token: target.token })).status).toBe(401);
    expect(await twoFactorNotifications(server, target.email)).toEqual(['enabled', 'reset_by_staff']);
    // The password alone signs in again.
    const login = await server.request('POST', '/api/auth/login', {
      body: { email: target.email, password: target.password },
    });
    expect(login).toMatchObject({ status: 200, body: { token: expect.any(String) } });
  });

  it("leaves a staff account's two-factor to an admin, and never one's own", async () => {
    const colleague = await createUserWithRole(server, 'support');
    await enableTwoFactorViaApi(server, colleague);
    expect((await reset(colleague.userId, support.token)).status).toBe(403);
    const admin = await createUserWithRole(server, 'admin');
    await enableTwoFactorViaApi(server, admin);
    expect((await reset(admin.userId, admin.token)).body).toMatchObject({ code: 'FORBIDDEN' });
    expect((await reset(colleague.userId, admin.token)).status).toBe(200);
  });
});
