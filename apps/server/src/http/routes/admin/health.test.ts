import { randomUUID } from 'node:crypto';
import type { FleetHealthResponse } from '@bytegate/contracts/admin-health';
import { applyMeteredUsage, createExits } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomerWithPlan, createUserWithRole } from '../../../testing/staff.ts';
import { startTestServer, type TestServer } from '../../../testing/test-server.ts';

const HOUR = 60 * 60 * 1000;
const GB = 1024 ** 3;

describe.each(testDatabaseKinds())('GET /api/admin/health on %s', (kind) => {
  let server: TestServer;
  let support: Awaited<ReturnType<typeof createUserWithRole>>;
  let heavy: Awaited<ReturnType<typeof createCustomerWithPlan>>;
  let failing: Awaited<ReturnType<typeof createCustomerWithPlan>>;
  beforeAll(async () => {
    server = await startTestServer(kind);
    support = await createUserWithRole(server, 'support');
    heavy = await createCustomerWithPlan(server);
    failing = await createCustomerWithPlan(server, { poolType: 'residential' });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** One metering flush of the gateway, `hoursAgo` hours back. */
  async function meter(
    planId: string,
    hoursAgo: number,
    usage: { bytes: number; requests: number; errorsByCode?: Record<string, number> },
  ) {
    const at = Date.now() - hoursAgo * HOUR;
    const errorsByCode = usage.errorsByCode ?? {};
    await server.database.db.transaction((tx) =>
      applyMeteredUsage(tx, {
        flushId: randomUUID(),
        bucketStart: new Date(Math.floor(at / HOUR) * HOUR),
        dayStart: new Date(Math.floor(at / (24 * HOUR)) * 24 * HOUR),
        usage: [
          {
            planId,
            billedBytes: usage.bytes,
            bytes: usage.bytes,
            extraBytes: 0,
            requests: usage.requests,
            errors: Object.values(errorsByCode).reduce((sum, count) => sum + count, 0),
            errorsByCode,
            hostBytes: {},
          },
        ],
      }),
    );
  }

  it('answers an empty day, and 403 to a customer', async () => {
    const refused = await server.request('GET', '/api/admin/health', { token: heavy.token });
    expect(refused.status).toBe(403);
    const answer = await server.request<FleetHealthResponse>('GET', '/api/admin/health', {
      token: support.token,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      topByTraffic: [],
      topByErrors: [],
      errorsByCode: [],
      blocked: { hostHits: 0, portHits: 0, privateHits: 0, topPlans: [] },
      // No gateway runs in this test's process.
      connections: null,
      exits: { total: 0, active: 0, outOfRotation: 0, disabled: 0 },
    });
    expect(answer.body.hourly).toHaveLength(24);
    expect(answer.body.hourly.every((hour) => hour.requests === 0 && hour.errors === 0)).toBe(true);
  });

  it('ranks plans by traffic and by errors, counts refusals by code and who hit the blocks, per hour', async () => {
    await meter(heavy.planId, 0, { bytes: 3 * GB, requests: 900, errorsByCode: { NO_HOST_CONNECTION: 2 } });
    await meter(heavy.planId, 5, { bytes: GB, requests: 100 });
    await meter(failing.planId, 1, {
      bytes: 1000,
      requests: 60,
      errorsByCode: { HOST_BLOCKED: 30, PORT_BLOCKED: 12, NO_RAY: 5 },
    });
    // Older than the window: not counted.
    await meter(failing.planId, 30, { bytes: 50 * GB, requests: 1, errorsByCode: { PORT_BLOCKED: 999 } });
    await createExits(server.database.db, {
      exits: [{ name: 'Off', kind: 'direct', poolType: 'mobile', country: 'FR', isActive: false }],
    });

    const { body } = await server.request<FleetHealthResponse>('GET', '/api/admin/health', {
      token: support.token,
    });
    expect(body.topByTraffic).toEqual([
      {
        planId: heavy.planId,
        login: heavy.login,
        pool: 'datacenter',
        userId: heavy.userId,
        email: heavy.email,
        billedBytes: 4 * GB,
        requests: 1000,
        errors: 2,
      },
      expect.objectContaining({ planId: failing.planId, billedBytes: 1000, errors: 47, pool: 'residential' }),
    ]);
    expect(body.topByErrors.map((plan) => [plan.login, plan.errors])).toEqual([
      [failing.login, 47],
      [heavy.login, 2],
    ]);
    expect(body.errorsByCode).toEqual([
      { code: 'HOST_BLOCKED', count: 30 },
      { code: 'PORT_BLOCKED', count: 12 },
      { code: 'NO_RAY', count: 5 },
      { code: 'NO_HOST_CONNECTION', count: 2 },
    ]);
    expect(body.blocked).toEqual({
      hostHits: 30,
      portHits: 12,
      privateHits: 0,
      topPlans: [
        expect.objectContaining({ planId: failing.planId, code: 'HOST_BLOCKED', count: 30 }),
        expect.objectContaining({ planId: failing.planId, code: 'PORT_BLOCKED', count: 12 }),
      ],
    });
    const hours = body.hourly.slice(-6).map((hour) => [hour.requests, hour.errors]);
    expect(hours).toEqual([
      [100, 0],
      [0, 0],
      [0, 0],
      [0, 0],
      [60, 47],
      [900, 2],
    ]);
    expect(body.exits).toEqual({ total: 1, active: 0, outOfRotation: 0, disabled: 1 });
  });
});
