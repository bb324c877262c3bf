import { proxyUserMessages } from '@bytegate/contracts/proxy-users';
import { applyProxyUserUsage, createExits } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK_EXITS } from '../../../testing/gateway-fixture.ts';
import { GB, type ProxyUser, proxyUserApi } from '../../../testing/proxy-user-api.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

// Proxy users' traffic through the public API (issue 17): lifetime caps set the plan's traffic aside,
// moves between plan and user never hand out a byte twice, and a cap's period change counts its usage.

describe.each(testDatabaseKinds())('proxy users’ caps and traffic in the public API on %s', (kind) => {
  let server: TestServer;
  let api: ReturnType<typeof proxyUserApi>;
  beforeAll(async () => {
    server = await startTestServer(kind);
    // Datacenter exits in US and DE, so targeting can name a country the pool offers.
    await createExits(server.database.db, { exits: LOOPBACK_EXITS });
    api = proxyUserApi(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('counts a cap’s usage in its new period when the period changes', async () => {
    const owner = await api.customer();
    const user = await api.created(owner, { traffic_cap_gb: 1, cap_period: 'lifetime' });
    /** Usage as the gateway's flush stores it, now. */
    const use = (bytes: number) => {
      const now = new Date();
      return server.database.db.transaction((tx) =>
        applyProxyUserUsage(tx, {
          bucketStart: new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000),
          usage: [
            { proxyUserId: user.id, now, billedBytes: bytes, bytes, extraBytes: 0, requests: 1, errors: 0 },
          ],
        }),
      );
    };
    const usageOf = async () =>
      ((await api.getOne(user.id, owner.secret)).body.proxy_user as ProxyUser).usage;
    const now = new Date();
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
    const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();

    await use(1000);
    expect(await usageOf()).toEqual({
      period_used_bytes: 1000,
      period_start: null,
      cap_left_bytes: GB - 1000,
      lifetime_used_bytes: 1000,
    });
    // Lifetime to day: what was used today counts against the daily cap.
    await api.patch(user.id, owner.secret, { cap_period: 'day' });
    expect(await usageOf()).toEqual({
      period_used_bytes: 1000,
      period_start: today,
      cap_left_bytes: GB - 1000,
      lifetime_used_bytes: 1000,
    });
    await use(500);
    expect((await usageOf()).period_used_bytes).toBe(1500);
    // Day to month: this month's usage counts, and later usage adds to it.
    await api.patch(user.id, owner.secret, { cap_period: 'month' });
    expect(await usageOf()).toEqual({
      period_used_bytes: 1500,
      period_start: month,
      cap_left_bytes: GB - 1500,
      lifetime_used_bytes: 1500,
    });
    await use(250);
    expect((await usageOf()).period_used_bytes).toBe(1750);
    // Back to day: today's usage, still.
    await api.patch(user.id, owner.secret, { cap_period: 'day', traffic_cap_gb: 2 });
    expect(await usageOf()).toEqual({
      period_used_bytes: 1750,
      period_start: today,
      cap_left_bytes: 2 * GB - 1750,
      lifetime_used_bytes: 1750,
    });
  });

  it('sets a plan’s traffic aside with lifetime caps, and moves traffic between plan and user', async () => {
    const owner = await api.customer();
    const a = await api.created(owner, { label: 'A', traffic_cap_gb: 3, cap_period: 'lifetime' });
    expect(a.traffic_cap).toEqual({ bytes: 3 * GB, gb: 3, period: 'lifetime' });
    expect(a.usage).toEqual({
      period_used_bytes: 0,
      period_start: null,
      cap_left_bytes: 3 * GB,
      lifetime_used_bytes: 0,
    });
    api.expectInvalid(
      await api.create(owner, { label: 'B', traffic_cap_gb: 3, cap_period: 'lifetime' }),
      proxyUserMessages.notEnoughOnPlan('2'),
      'traffic_cap_gb',
    );
    // A day or month cap sets nothing aside.
    const daily = await api.created(owner, { label: 'daily', traffic_cap_gb: 5, cap_period: 'day' });
    // Nor can a PATCH hand out more than the plan has.
    api.expectInvalid(
      await api.patch(daily.id, owner.secret, { cap_period: 'lifetime' }),
      proxyUserMessages.notEnoughOnPlan('2'),
      'traffic_cap_gb',
    );
    api.expectInvalid(
      await api.patch(a.id, owner.secret, { traffic_cap_gb: 5.001 }),
      proxyUserMessages.notEnoughOnPlan('2'),
      'traffic_cap_gb',
    );

    const toUser = await api.move(a.id, owner.secret, 'to_proxy_user', 1);
    expect(toUser.status, JSON.stringify(toUser.body)).toBe(200);
    expect((toUser.body.proxy_user as ProxyUser).traffic_cap).toEqual({
      bytes: 4 * GB,
      gb: 4,
      period: 'lifetime',
    });
    const toPlan = await api.move(a.id, owner.secret, 'to_plan', 2);
    expect(toPlan.status).toBe(200);
    expect((toPlan.body.proxy_user as ProxyUser).traffic_cap).toEqual({
      bytes: 2 * GB,
      gb: 2,
      period: 'lifetime',
    });
    api.expectInvalid(
      await api.move(a.id, owner.secret, 'to_plan', 2.001),
      proxyUserMessages.notEnoughOnUser('2'),
      'gb',
    );
    // What the user used is no longer its to give back.
    await queryRows(server, `update proxy_users set traffic_used_bytes = ${GB / 2} where id = '${a.id}'`);
    await queryRows(server, `update plans set traffic_used_bytes = ${GB / 2} where id = '${owner.planId}'`);
    expect(((await api.getOne(a.id, owner.secret)).body.proxy_user as ProxyUser).usage).toEqual({
      period_used_bytes: GB / 2,
      period_start: null,
      cap_left_bytes: 1.5 * GB,
      lifetime_used_bytes: GB / 2,
    });
    api.expectInvalid(
      await api.move(a.id, owner.secret, 'to_plan', 2),
      proxyUserMessages.notEnoughOnUser('1.5'),
      'gb',
    );
    // The plan has 5 - 0.5 used - 1.5 set aside = 3 GB: 3.001 more is too much, and says so.
    api.expectInvalid(
      await api.move(a.id, owner.secret, 'to_proxy_user', 3.001),
      proxyUserMessages.notEnoughOnPlan('3'),
      'gb',
    );
    for (const gb of [0, -1, 0.0001, 100_001]) {
      api.expectInvalid(
        await api.move(a.id, owner.secret, 'to_proxy_user', gb),
        proxyUserMessages.moveFormat,
        'gb',
      );
    }

    // Moves are for lifetime caps only.
    const conflict = await api.move(daily.id, owner.secret, 'to_proxy_user', 1);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ error: proxyUserMessages.moveNotLifetime, code: 'CONFLICT' });
    const uncapped = await api.created(owner, { label: 'uncapped' });
    expect((await api.move(uncapped.id, owner.secret, 'to_plan', 1)).status).toBe(409);
    expect(await api.capOf(daily.id, owner.secret)).toEqual({ bytes: 5 * GB, gb: 5, period: 'day' });
    expect(await api.capOf(uncapped.id, owner.secret)).toBeNull();

    // Deleting a user hands its unused traffic back to the plan.
    expect((await api.call('DELETE', `/api/v1/proxy-users/${a.id}`, owner.secret)).status).toBe(204);
    const b = await api.created(owner, { label: 'B', traffic_cap_gb: 4.5, cap_period: 'lifetime' });
    expect(b.traffic_cap?.bytes).toBe(4.5 * GB);
  });

  it('hands out the plan’s free traffic once under concurrent moves and creates', async () => {
    const owner = await api.customer();
    const a = await api.created(owner, { traffic_cap_gb: 2, cap_period: 'lifetime' });
    // 3 GB of the plan is not set aside: ten moves of 1 GB race for it.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.move(a.id, owner.secret, 'to_proxy_user', 1)),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(3).fill(200), ...Array(7).fill(400)]);
    for (const refused of answers.filter((answer) => answer.status === 400)) {
      expect(refused.body).toEqual({
        error: proxyUserMessages.notEnoughOnPlan('0'),
        code: 'VALIDATION_FAILED',
        field: 'gb',
      });
    }
    expect(await api.capOf(a.id, owner.secret)).toEqual({ bytes: 5 * GB, gb: 5, period: 'lifetime' });

    // Half of it back, then five creates of 1 GB race for the 2.5 GB: two win.
    expect((await api.move(a.id, owner.secret, 'to_plan', 2.5)).status).toBe(200);
    const creates = await Promise.all(
      Array.from({ length: 5 }, () => api.create(owner, { traffic_cap_gb: 1, cap_period: 'lifetime' })),
    );
    expect(creates.map((answer) => answer.status).sort()).toEqual([201, 201, 400, 400, 400]);
    const reserved = (await api.list(owner)).body.proxy_users.reduce(
      (sum, user) => sum + (user.traffic_cap?.bytes ?? 0),
      0,
    );
    expect(reserved).toBe(4.5 * GB);
  });
});
