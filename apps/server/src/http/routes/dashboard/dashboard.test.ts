import { lastUtcDays } from '@bytegate/contracts/dashboard';
import { addUsage } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { createUserViaApi, startTestServer, type TestServer } from '../../../testing/test-server.ts';

type Day = { day: string; bytes: number; extraBytes: number; requests: number; errors: number };

describe.each(testDatabaseKinds())('dashboard traffic API on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  async function userWithPlan(pool: string) {
    const user = await createUserViaApi(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: 50_00, reason: 'test credit' },
    );
    const bought = await server.request<{ plan: { subUserId: string } }>('POST', '/api/subuser/create', {
      token: user.token,
      body: { pool_type: pool, default_pool_parameters: { quantity: 5 } },
    });
    return { token: user.token, planId: bought.body.plan.subUserId };
  }

  it('needs a signed-in user', async () => {
    expect((await server.request('GET', '/api/dashboard/traffic')).status).toBe(401);
  });

  it('answers 30 UTC days, oldest first, zeros where nothing was carried', async () => {
    const { token } = await userWithPlan('datacenter');
    const { body } = await server.request<{ days: Day[] }>('GET', '/api/dashboard/traffic', { token });
    expect(body.days.map((day) => day.day)).toEqual(lastUtcDays(new Date(), 30));
    expect(body.days.every((day) => day.bytes === 0 && day.requests === 0)).toBe(true);
  });

  it("sums the user's plans per day, and nobody else's, within the 30 days", async () => {
    const user = await userWithPlan('datacenter');
    const second = await server.request<{ plan: { subUserId: string } }>('POST', '/api/subuser/create', {
      token: user.token,
      body: { pool_type: 'mobile', default_pool_parameters: { quantity: 5 } },
    });
    const stranger = await userWithPlan('datacenter');
    const days = lastUtcDays(new Date(), 30);
    const at = (day: string | undefined, hour: number) =>
      new Date(`${day}T${String(hour).padStart(2, '0')}:00:00Z`);
    const usage = { extraBytes: 0, errors: 0 };
    // Two hours of one plan and one of the other on the same day add up; the stranger's never shows.
    await addUsage(server.database.db, {
      planId: user.planId,
      bucketStart: at(days[29], 0),
      bytes: 100,
      requests: 1,
      ...usage,
    });
    await addUsage(server.database.db, {
      planId: user.planId,
      bucketStart: at(days[29], 23),
      bytes: 200,
      requests: 2,
      extraBytes: 200,
      errors: 1,
    });
    await addUsage(server.database.db, {
      planId: second.body.plan.subUserId,
      bucketStart: at(days[29], 5),
      bytes: 1000,
      requests: 3,
      ...usage,
    });
    await addUsage(server.database.db, {
      planId: user.planId,
      bucketStart: at(days[0], 0),
      bytes: 7,
      requests: 1,
      ...usage,
    });
    await addUsage(server.database.db, {
      planId: stranger.planId,
      bucketStart: at(days[29], 1),
      bytes: 99_999,
      requests: 9,
      ...usage,
    });
    // The day before the window is left out.
    const before = new Date(at(days[0], 0).getTime() - 3600_000);
    await addUsage(server.database.db, {
      planId: user.planId,
      bucketStart: before,
      bytes: 5555,
      requests: 5,
      ...usage,
    });

    const { body } = await server.request<{ days: Day[] }>('GET', '/api/dashboard/traffic', {
      token: user.token,
    });
    expect(body.days).toHaveLength(30);
    expect(body.days[29]).toEqual({ day: days[29], bytes: 1300, extraBytes: 200, requests: 6, errors: 1 });
    expect(body.days[0]).toEqual({ day: days[0], bytes: 7, extraBytes: 0, requests: 1, errors: 0 });
    expect(body.days.slice(1, 29).every((day) => day.bytes === 0)).toBe(true);
  });
});
