import { allowlistMessages } from '@bytegate/contracts/allowlist';
import { apiKeyMessages } from '@bytegate/contracts/api-keys';
import { proxySettingsMessages } from '@bytegate/contracts/proxy-settings';
import { proxyUserMessages } from '@bytegate/contracts/proxy-users';
import { applyProxyUserUsage, createExits } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { LOOPBACK_EXITS } from '../../../testing/gateway-fixture.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

// Proxy users through the public API (issue 17): created under a plan with a generated or chosen login,
// read and listed a page at a time with `read`, changed, given a new password and deleted with
// `proxy_users`; lifetime caps set the plan's traffic aside, and moves between plan and user never hand
// out a byte twice.

const GB = 1024 ** 3;

type Answer = { status: number; body: Record<string, unknown> };
type ProxyUser = {
  id: string;
  plan_id: string;
  login: string;
  password: string;
  label: string;
  enabled: boolean;
  traffic_cap: { bytes: number; gb: number; period: string } | null;
  threads: number | null;
  usage: {
    period_used_bytes: number;
    period_start: string | null;
    cap_left_bytes: number | null;
    lifetime_used_bytes: number;
  };
  targeting: Record<string, unknown> | null;
  allowlist: string[];
  created_at: string;
  updated_at: string;
};

describe.each(testDatabaseKinds())('proxy users in the public API on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    // Datacenter exits in US and DE, so targeting can name a country the pool offers.
    await createExits(server.database.db, { exits: LOOPBACK_EXITS });
  });
  afterAll(async () => {
    await server.close();
  });

  const call = (method: string, path: string, secret: string, body?: unknown) =>
    server.request<Record<string, unknown>>(method, path, {
      token: secret,
      ...(body === undefined ? {} : { body }),
    });

  async function mintKey(user: { token: string; password: string }, scopes: string[]) {
    const created = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token: user.token,
      body: { name: scopes.join(' '), scopes, password: user.password },
    });
    expect(created.status).toBe(201);
    return created.body.secret;
  }

  /** A customer with 5 GB of datacenter traffic bought through the API and a key with every scope. */
  async function customer() {
    const user = await createUserViaApi(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: 100_00, reason: 'test credit' },
    );
    const secret = await mintKey(user, ['read', 'proxy_users', 'purchase']);
    const bought = await call('POST', '/api/v1/purchases', secret, { pool_type: 'datacenter', gb: 5 });
    expect(bought.status).toBe(201);
    const planId = (bought.body.plan as { id: string }).id;
    const plans = await server.request<{ plans: Array<{ id: string; threads: number }> }>(
      'GET',
      '/api/v1/plans',
      { token: secret },
    );
    const threads = plans.body.plans.find((plan) => plan.id === planId)?.threads as number;
    return { ...user, secret, planId, threads };
  }
  type Customer = Awaited<ReturnType<typeof customer>>;

  const create = (who: Customer, body: Record<string, unknown> = {}, secret = who.secret) =>
    call('POST', `/api/v1/plans/${who.planId}/proxy-users`, secret, body);
  async function created(who: Customer, body: Record<string, unknown> = {}): Promise<ProxyUser> {
    const answer = await create(who, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.proxy_user as ProxyUser;
  }
  const getOne = (id: string, secret: string) => call('GET', `/api/v1/proxy-users/${id}`, secret);
  const patch = (id: string, secret: string, body: Record<string, unknown>) =>
    call('PATCH', `/api/v1/proxy-users/${id}`, secret, body);
  const move = (id: string, secret: string, direction: 'to_proxy_user' | 'to_plan', gb: number) =>
    call('POST', `/api/v1/proxy-users/${id}/traffic`, secret, { direction, gb });
  const list = (who: Customer, query = '', secret = who.secret) =>
    server.request<{ proxy_users: ProxyUser[]; next_cursor: string | null }>(
      'GET',
      `/api/v1/plans/${who.planId}/proxy-users${query}`,
      { token: secret },
    );

  function expectInvalid(answer: Answer, error: string, field: string) {
    expect(answer.status, error).toBe(400);
    expect(answer.body, error).toEqual({ error, code: 'VALIDATION_FAILED', field });
  }
  function expectNotFound(answer: Answer, error: string) {
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error, code: 'NOT_FOUND' });
  }
  function expectScopeRefused(answer: Answer, required: 'read' | 'proxy_users') {
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      error: apiKeyMessages.insufficientScope(required),
      code: 'INSUFFICIENT_SCOPE',
      required,
    });
  }
  const capOf = async (id: string, secret: string) =>
    ((await getOne(id, secret)).body.proxy_user as ProxyUser).traffic_cap;

  it('creates with a generated login, gets, lists, changes, gives a new password and deletes', async () => {
    const owner = await customer();
    const answer = await create(owner, { label: '  client A  ' });
    expect(answer.status).toBe(201);
    const user = answer.body.proxy_user as ProxyUser;
    expect(user).toEqual({
      id: expect.any(String),
      plan_id: owner.planId,
      login: expect.stringMatching(/^pu[a-z0-9]{10}$/),
      password: expect.stringMatching(/^[A-Za-z0-9]{20}$/),
      label: 'client A',
      enabled: true,
      traffic_cap: null,
      threads: null,
      usage: { period_used_bytes: 0, period_start: null, cap_left_bytes: null, lifetime_used_bytes: 0 },
      targeting: null,
      allowlist: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const got = await getOne(user.id, owner.secret);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ proxy_user: user });
    const listed = await list(owner);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ proxy_users: [user], next_cursor: null });

    const now = new Date();
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const changed = await patch(user.id, owner.secret, {
      label: 'client B',
      enabled: false,
      threads: 7,
      traffic_cap_gb: 1.5,
      cap_period: 'day',
      allowlist: ['8.8.8.8', ' 8.8.8.8', '2001:4860:4860:0:0:0:0:8888'],
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const afterPatch = changed.body.proxy_user as ProxyUser;
    expect(afterPatch).toMatchObject({
      id: user.id,
      login: user.login,
      password: user.password,
      label: 'client B',
      enabled: false,
      threads: 7,
      traffic_cap: { bytes: 1.5 * GB, gb: 1.5, period: 'day' },
      usage: {
        period_used_bytes: 0,
        period_start: today.toISOString(),
        cap_left_bytes: 1.5 * GB,
        lifetime_used_bytes: 0,
      },
      allowlist: ['8.8.8.8', '2001:4860:4860::8888'],
    });
    expect((await getOne(user.id, owner.secret)).body).toEqual({ proxy_user: afterPatch });

    // Only the amount: the cap keeps its period.
    const raised = await patch(user.id, owner.secret, { traffic_cap_gb: 2.25 });
    expect((raised.body.proxy_user as ProxyUser).traffic_cap).toEqual({
      bytes: 2.25 * GB,
      gb: 2.25,
      period: 'day',
    });

    // Null clears the cap and the thread limit; what is absent stays.
    const cleared = await patch(user.id, owner.secret, { traffic_cap_gb: null, threads: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.proxy_user).toMatchObject({
      label: 'client B',
      enabled: false,
      traffic_cap: null,
      threads: null,
      usage: { period_start: null, cap_left_bytes: null },
      allowlist: ['8.8.8.8', '2001:4860:4860::8888'],
    });

    const regenerated = await call(
      'POST',
      `/api/v1/proxy-users/${user.id}/regenerate-password`,
      owner.secret,
    );
    expect(regenerated.status).toBe(200);
    const renewed = regenerated.body.proxy_user as ProxyUser;
    expect(renewed.login).toBe(user.login);
    expect(renewed.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(renewed.password).not.toBe(user.password);
    expect(((await getOne(user.id, owner.secret)).body.proxy_user as ProxyUser).password).toBe(
      renewed.password,
    );

    const deleted = await call('DELETE', `/api/v1/proxy-users/${user.id}`, owner.secret);
    expect(deleted.status).toBe(204);
    expectNotFound(await getOne(user.id, owner.secret), proxyUserMessages.notFound);
    expectNotFound(
      await call('DELETE', `/api/v1/proxy-users/${user.id}`, owner.secret),
      proxyUserMessages.notFound,
    );
    expect((await list(owner)).body).toEqual({ proxy_users: [], next_cursor: null });
    // The plan itself is untouched.
    const plans = await server.request<{ plans: Array<{ id: string }> }>('GET', '/api/v1/plans', {
      token: owner.secret,
    });
    expect(plans.body.plans.map((plan) => plan.id)).toEqual([owner.planId]);
  });

  it('answers 200 and changes nothing to a PATCH without fields', async () => {
    const owner = await customer();
    const user = await created(owner, {
      label: 'steady',
      threads: 3,
      traffic_cap_gb: 1,
      cap_period: 'month',
    });
    const planBefore = await queryRows<{ updated_at: string }>(
      server,
      `select updated_at::text as updated_at from plans where id = '${owner.planId}'`,
    );
    const answer = await patch(user.id, owner.secret, {});
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ proxy_user: user });
    expect((await getOne(user.id, owner.secret)).body).toEqual({ proxy_user: user });
    // No write at all: the plan was not touched (the gateway would reload it for nothing).
    const planAfter = await queryRows<{ updated_at: string }>(
      server,
      `select updated_at::text as updated_at from plans where id = '${owner.planId}'`,
    );
    expect(planAfter).toEqual(planBefore);
  });

  it('counts a cap’s usage in its new period when the period changes', async () => {
    const owner = await customer();
    const user = await created(owner, { traffic_cap_gb: 1, cap_period: 'lifetime' });
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
    const usageOf = async () => ((await getOne(user.id, owner.secret)).body.proxy_user as ProxyUser).usage;
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
    await patch(user.id, owner.secret, { cap_period: 'day' });
    expect(await usageOf()).toEqual({
      period_used_bytes: 1000,
      period_start: today,
      cap_left_bytes: GB - 1000,
      lifetime_used_bytes: 1000,
    });
    await use(500);
    expect((await usageOf()).period_used_bytes).toBe(1500);
    // Day to month: this month's usage counts, and later usage adds to it.
    await patch(user.id, owner.secret, { cap_period: 'month' });
    expect(await usageOf()).toEqual({
      period_used_bytes: 1500,
      period_start: month,
      cap_left_bytes: GB - 1500,
      lifetime_used_bytes: 1500,
    });
    await use(250);
    expect((await usageOf()).period_used_bytes).toBe(1750);
    // Back to day: today's usage, still.
    await patch(user.id, owner.secret, { cap_period: 'day', traffic_cap_gb: 2 });
    expect(await usageOf()).toEqual({
      period_used_bytes: 1750,
      period_start: today,
      cap_left_bytes: 2 * GB - 1750,
      lifetime_used_bytes: 1750,
    });
  });

  it('sets targeting the pool offers and clears it with null', async () => {
    const owner = await customer();
    const user = await created(owner, { targeting: { countries: 'us, DE', rotation_interval: 10 } });
    expect(user.targeting).toEqual({
      countries: ['US', 'DE'],
      states: [],
      cities: [],
      zipcodes: [],
      asns: [],
      exclude_countries: [],
      exclude_asn: [],
      anonymous_filter: true,
      rotation_interval: 10,
    });
    expect((await getOne(user.id, owner.secret)).body).toEqual({ proxy_user: user });
    const cleared = await patch(user.id, owner.secret, { targeting: null });
    expect((cleared.body.proxy_user as ProxyUser).targeting).toBeNull();
  });

  it('needs proxy_users to write and read to read, and shows nothing of another account', async () => {
    const owner = await customer();
    const user = await created(owner, { label: 'kept' });
    const reader = await mintKey(owner, ['read']);
    const writer = await mintKey(owner, ['proxy_users']);

    expectScopeRefused(await create(owner, {}, reader), 'proxy_users');
    expectScopeRefused(await patch(user.id, reader, { label: 'changed' }), 'proxy_users');
    expectScopeRefused(await call('DELETE', `/api/v1/proxy-users/${user.id}`, reader), 'proxy_users');
    expectScopeRefused(
      await call('POST', `/api/v1/proxy-users/${user.id}/regenerate-password`, reader),
      'proxy_users',
    );
    expectScopeRefused(await move(user.id, reader, 'to_proxy_user', 1), 'proxy_users');
    // The reader lists and reads, and sees that nothing changed.
    const listed = await list(owner, '', reader);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ proxy_users: [user], next_cursor: null });
    expect((await getOne(user.id, reader)).body).toEqual({ proxy_user: user });

    expectScopeRefused(await list(owner, '', writer), 'read');
    expectScopeRefused(await getOne(user.id, writer), 'read');
    // The writer writes.
    expect((await patch(user.id, writer, { label: 'by writer' })).status).toBe(200);

    const stranger = await customer();
    expectNotFound(await list(owner, '', stranger.secret), proxyUserMessages.planNotFound);
    expectNotFound(
      await create(owner, { label: 'intruder' }, stranger.secret),
      proxyUserMessages.planNotFound,
    );
    expectNotFound(await getOne(user.id, stranger.secret), proxyUserMessages.notFound);
    expectNotFound(await patch(user.id, stranger.secret, { label: 'x' }), proxyUserMessages.notFound);
    expectNotFound(
      await call('POST', `/api/v1/proxy-users/${user.id}/regenerate-password`, stranger.secret),
      proxyUserMessages.notFound,
    );
    expectNotFound(await move(user.id, stranger.secret, 'to_plan', 1), proxyUserMessages.notFound);
    expectNotFound(
      await call('DELETE', `/api/v1/proxy-users/${user.id}`, stranger.secret),
      proxyUserMessages.notFound,
    );
    // Ids that name nothing are 404s too.
    expectNotFound(await getOne('not-an-id', owner.secret), proxyUserMessages.notFound);
    expectNotFound(
      await getOne('00000000-0000-4000-8000-000000000000', owner.secret),
      proxyUserMessages.notFound,
    );
    expectNotFound(
      await call('GET', '/api/v1/plans/not-an-id/proxy-users', owner.secret),
      proxyUserMessages.planNotFound,
    );
    expectNotFound(
      await call('POST', '/api/v1/plans/00000000-0000-4000-8000-000000000000/proxy-users', owner.secret, {}),
      proxyUserMessages.planNotFound,
    );
    // The stranger's attempts left the user as the writer left it.
    const after = (await getOne(user.id, owner.secret)).body.proxy_user as ProxyUser;
    expect(after).toMatchObject({ label: 'by writer', password: user.password, login: user.login });
    expect((await list(owner)).body.proxy_users).toHaveLength(1);
    expect((await list(stranger)).body.proxy_users).toHaveLength(0);
  });

  it('refuses bad fields with their messages and fields, and creates nothing', async () => {
    const owner = await customer();
    const other = await customer();
    for (const login of ['bgabcdefgh', 'short', 'UPPERCASE1', 'with_under', 'a'.repeat(33)]) {
      expectInvalid(await create(owner, { login }), proxyUserMessages.loginFormat, 'login');
    }
    const chosen = await created(owner, { login: 'reseller01' });
    expect(chosen.login).toBe('reseller01');
    expectInvalid(await create(owner, { login: 'reseller01' }), proxyUserMessages.loginTaken, 'login');
    // Logins are one namespace across accounts.
    expectInvalid(await create(other, { login: 'reseller01' }), proxyUserMessages.loginTaken, 'login');

    expectInvalid(
      await create(owner, { traffic_cap_gb: 2 }),
      proxyUserMessages.capPeriodRequired,
      'cap_period',
    );
    expectInvalid(
      await create(owner, { cap_period: 'day' }),
      proxyUserMessages.capPeriodWithoutCap,
      'cap_period',
    );
    for (const gb of [0, 1.2345, -1, 100_001]) {
      expectInvalid(
        await create(owner, { traffic_cap_gb: gb, cap_period: 'month' }),
        proxyUserMessages.capFormat,
        'traffic_cap_gb',
      );
    }
    expect(owner.threads).toBeGreaterThan(1);
    expectInvalid(
      await create(owner, { threads: owner.threads + 1 }),
      proxyUserMessages.threadsOverPlan(owner.threads),
      'threads',
    );
    expectInvalid(await create(owner, { threads: 0 }), proxyUserMessages.threadsFormat, 'threads');
    expectInvalid(await create(owner, { allowlist: ['10.0.0.1'] }), allowlistMessages.notPublic, 'allowlist');
    expectInvalid(
      await create(owner, { allowlist: ['8.8.8.8', 'not an address'] }),
      allowlistMessages.invalidAddress,
      'allowlist',
    );
    expectInvalid(
      await create(owner, { targeting: { countries: ['US'], rotation_interval: 500 } }),
      proxySettingsMessages.rotation,
      'targeting.rotation_interval',
    );
    const unknownCountry = await create(owner, { targeting: { countries: ['FR'] } });
    expect(unknownCountry.status).toBe(400);
    expect(unknownCountry.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: expect.stringMatching(/^targeting\./),
    });
    const noCountries = await create(owner, { targeting: { rotation_interval: 500 } });
    expect(noCountries.status).toBe(400);
    expect(noCountries.body.field).toMatch(/^targeting\./);

    // Refusals of the request's shape carry the same messages.
    for (const [body, error] of [
      [{ label: 'x'.repeat(65) }, proxyUserMessages.labelTooLong],
      [{ threads: 1.5 }, proxyUserMessages.threadsFormat],
      [{ traffic_cap_gb: '2', cap_period: 'day' }, proxyUserMessages.capFormat],
      [{ traffic_cap_gb: 2, cap_period: 'week' }, proxyUserMessages.capPeriodRequired],
      [
        { allowlist: Array.from({ length: 21 }, (_, i) => `8.8.4.${i + 1}`) },
        proxyUserMessages.allowlistTooMany,
      ],
    ] as Array<[Record<string, unknown>, string]>) {
      const refused = await create(owner, body);
      expect(refused.status, error).toBe(400);
      expect(refused.body, error).toMatchObject({ error, code: 'VALIDATION_FAILED' });
    }

    // At the plan's threads exactly is allowed.
    const atLimit = await created(owner, { threads: owner.threads });
    expect(atLimit.threads).toBe(owner.threads);

    // A PATCH is held to the same rules, and a refused one changes nothing.
    for (const [body, error, field] of [
      [{ threads: owner.threads + 1 }, proxyUserMessages.threadsOverPlan(owner.threads), 'threads'],
      [{ traffic_cap_gb: 1 }, proxyUserMessages.capPeriodRequired, 'cap_period'],
      [{ cap_period: 'lifetime' }, proxyUserMessages.capPeriodWithoutCap, 'cap_period'],
      [{ traffic_cap_gb: 0.0001, cap_period: 'day' }, proxyUserMessages.capFormat, 'traffic_cap_gb'],
      [{ allowlist: ['127.0.0.1'] }, allowlistMessages.notPublic, 'allowlist'],
      [
        { targeting: { countries: ['US'], rotation_interval: 0 } },
        proxySettingsMessages.rotation,
        'targeting.rotation_interval',
      ],
    ] as Array<[Record<string, unknown>, string, string]>) {
      expectInvalid(await patch(atLimit.id, owner.secret, body), error, field);
    }
    expect((await getOne(atLimit.id, owner.secret)).body).toEqual({ proxy_user: atLimit });

    const listed = await list(owner);
    expect(listed.body.proxy_users.map((user) => user.id)).toEqual([chosen.id, atLimit.id]);
    expect((await list(other)).body.proxy_users).toEqual([]);

    for (const cursor of [
      'not-a-cursor',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from(JSON.stringify(['2024-01-01T00:00:00.000Z', 'not-a-uuid'])).toString('base64url'),
      Buffer.from(JSON.stringify(['yesterday', chosen.id])).toString('base64url'),
    ]) {
      const refused = await list(owner, `?cursor=${encodeURIComponent(cursor)}`);
      expect(refused.status, cursor).toBe(400);
      expect(refused.body, cursor).toMatchObject({ code: 'VALIDATION_FAILED', field: 'cursor' });
    }
    for (const limit of ['0', '101', 'two']) {
      const refused = await list(owner, `?limit=${limit}`);
      expect(refused.status, limit).toBe(400);
      expect(refused.body, limit).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('gives a login to one of two accounts that choose it at once, and no users to an inactive plan', async () => {
    const [first, second] = [await customer(), await customer()];
    const answers = await Promise.all([
      create(first, { login: 'racelogin1' }),
      create(second, { login: 'racelogin1' }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
    const refused = answers.find((answer) => answer.status === 400) as Answer;
    expect(refused.body).toEqual({
      error: proxyUserMessages.loginTaken,
      code: 'VALIDATION_FAILED',
      field: 'login',
    });
    const rows = await queryRows<{ count: number }>(
      server,
      "select count(*)::int as count from proxy_users where login = 'racelogin1'",
    );
    expect(rows[0]?.count).toBe(1);

    const user = await created(first, { label: 'before' });
    await queryRows(server, `update plans set is_active = false where id = '${first.planId}'`);
    const inactive = await create(first, { label: 'after' });
    expect(inactive.status).toBe(409);
    expect(inactive.body).toEqual({ error: proxyUserMessages.planInactive, code: 'CONFLICT' });
    // Its users are still there to read.
    expect((await list(first)).body.proxy_users.map((listed) => listed.id)).toContain(user.id);
  });

  it('lists a page at a time, oldest first, each user once', async () => {
    const owner = await customer();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await created(owner, { label: `user ${i}` })).id);
    }
    const pages: ProxyUser[][] = [];
    const cursors: Array<string | null> = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${encodeURIComponent(cursor)}`;
      const page = await list(owner, query);
      expect(page.status).toBe(200);
      pages.push(page.body.proxy_users);
      cursor = page.body.next_cursor;
      cursors.push(cursor);
    } while (cursor !== null && pages.length < 10);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(cursors.map((next) => next === null)).toEqual([false, false, true]);
    const seen = pages.flat().map((user) => user.id);
    expect(new Set(seen).size).toBe(5);
    expect(seen).toEqual(ids);
    expect(pages.flat().map((user) => user.label)).toEqual([
      'user 0',
      'user 1',
      'user 2',
      'user 3',
      'user 4',
    ]);

    // A page that ends exactly at the last user says so.
    const whole = await list(owner, '?limit=5');
    expect(whole.body.proxy_users.map((user) => user.id)).toEqual(ids);
    expect(whole.body.next_cursor).toBeNull();
    // A cursor past a deleted user still goes on from where it was.
    const first = await list(owner, '?limit=2');
    expect((await call('DELETE', `/api/v1/proxy-users/${ids[1]}`, owner.secret)).status).toBe(204);
    const rest = await list(owner, `?limit=10&cursor=${encodeURIComponent(String(first.body.next_cursor))}`);
    expect(rest.body.proxy_users.map((user) => user.id)).toEqual(ids.slice(2));
  });

  it('sets a plan’s traffic aside with lifetime caps, and moves traffic between plan and user', async () => {
    const owner = await customer();
    const a = await created(owner, { label: 'A', traffic_cap_gb: 3, cap_period: 'lifetime' });
    expect(a.traffic_cap).toEqual({ bytes: 3 * GB, gb: 3, period: 'lifetime' });
    expect(a.usage).toEqual({
      period_used_bytes: 0,
      period_start: null,
      cap_left_bytes: 3 * GB,
      lifetime_used_bytes: 0,
    });
    expectInvalid(
      await create(owner, { label: 'B', traffic_cap_gb: 3, cap_period: 'lifetime' }),
      proxyUserMessages.notEnoughOnPlan('2'),
      'traffic_cap_gb',
    );
    // A day or month cap sets nothing aside.
    const daily = await created(owner, { label: 'daily', traffic_cap_gb: 5, cap_period: 'day' });
    // Nor can a PATCH hand out more than the plan has.
    expectInvalid(
      await patch(daily.id, owner.secret, { cap_period: 'lifetime' }),
      proxyUserMessages.notEnoughOnPlan('2'),
      'traffic_cap_gb',
    );
    expectInvalid(
      await patch(a.id, owner.secret, { traffic_cap_gb: 5.001 }),
      proxyUserMessages.notEnoughOnPlan('2'),
      'traffic_cap_gb',
    );

    const toUser = await move(a.id, owner.secret, 'to_proxy_user', 1);
    expect(toUser.status, JSON.stringify(toUser.body)).toBe(200);
    expect((toUser.body.proxy_user as ProxyUser).traffic_cap).toEqual({
      bytes: 4 * GB,
      gb: 4,
      period: 'lifetime',
    });
    const toPlan = await move(a.id, owner.secret, 'to_plan', 2);
    expect(toPlan.status).toBe(200);
    expect((toPlan.body.proxy_user as ProxyUser).traffic_cap).toEqual({
      bytes: 2 * GB,
      gb: 2,
      period: 'lifetime',
    });
    expectInvalid(
      await move(a.id, owner.secret, 'to_plan', 2.001),
      proxyUserMessages.notEnoughOnUser('2'),
      'gb',
    );
    // What the user used is no longer its to give back.
    await queryRows(server, `update proxy_users set traffic_used_bytes = ${GB / 2} where id = '${a.id}'`);
    await queryRows(server, `update plans set traffic_used_bytes = ${GB / 2} where id = '${owner.planId}'`);
    expect(((await getOne(a.id, owner.secret)).body.proxy_user as ProxyUser).usage).toEqual({
      period_used_bytes: GB / 2,
      period_start: null,
      cap_left_bytes: 1.5 * GB,
      lifetime_used_bytes: GB / 2,
    });
    expectInvalid(
      await move(a.id, owner.secret, 'to_plan', 2),
      proxyUserMessages.notEnoughOnUser('1.5'),
      'gb',
    );
    // The plan has 5 - 0.5 used - 1.5 set aside = 3 GB: 3.001 more is too much, and says so.
    expectInvalid(
      await move(a.id, owner.secret, 'to_proxy_user', 3.001),
      proxyUserMessages.notEnoughOnPlan('3'),
      'gb',
    );
    for (const gb of [0, -1, 0.0001, 100_001]) {
      expectInvalid(await move(a.id, owner.secret, 'to_proxy_user', gb), proxyUserMessages.moveFormat, 'gb');
    }

    // Moves are for lifetime caps only.
    const conflict = await move(daily.id, owner.secret, 'to_proxy_user', 1);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ error: proxyUserMessages.moveNotLifetime, code: 'CONFLICT' });
    const uncapped = await created(owner, { label: 'uncapped' });
    expect((await move(uncapped.id, owner.secret, 'to_plan', 1)).status).toBe(409);
    expect(await capOf(daily.id, owner.secret)).toEqual({ bytes: 5 * GB, gb: 5, period: 'day' });
    expect(await capOf(uncapped.id, owner.secret)).toBeNull();

    // Deleting a user hands its unused traffic back to the plan.
    expect((await call('DELETE', `/api/v1/proxy-users/${a.id}`, owner.secret)).status).toBe(204);
    const b = await created(owner, { label: 'B', traffic_cap_gb: 4.5, cap_period: 'lifetime' });
    expect(b.traffic_cap?.bytes).toBe(4.5 * GB);
  });

  it('hands out the plan’s free traffic once under concurrent moves and creates', async () => {
    const owner = await customer();
    const a = await created(owner, { traffic_cap_gb: 2, cap_period: 'lifetime' });
    // 3 GB of the plan is not set aside: ten moves of 1 GB race for it.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => move(a.id, owner.secret, 'to_proxy_user', 1)),
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
    expect(await capOf(a.id, owner.secret)).toEqual({ bytes: 5 * GB, gb: 5, period: 'lifetime' });

    // Half of it back, then five creates of 1 GB race for the 2.5 GB: two win.
    expect((await move(a.id, owner.secret, 'to_plan', 2.5)).status).toBe(200);
    const creates = await Promise.all(
      Array.from({ length: 5 }, () => create(owner, { traffic_cap_gb: 1, cap_period: 'lifetime' })),
    );
    expect(creates.map((answer) => answer.status).sort()).toEqual([201, 201, 400, 400, 400]);
    const reserved = (await list(owner)).body.proxy_users.reduce(
      (sum, user) => sum + (user.traffic_cap?.bytes ?? 0),
      0,
    );
    expect(reserved).toBe(4.5 * GB);
  });
});
