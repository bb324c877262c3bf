import { allowlistMessages } from '@bytegate/contracts/allowlist';
import { proxySettingsMessages } from '@bytegate/contracts/proxy-settings';
import { proxyUserMessages } from '@bytegate/contracts/proxy-users';
import { createExits } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOPBACK_EXITS } from '../../../testing/gateway-fixture.ts';
import { type Answer, GB, type ProxyUser, proxyUserApi } from '../../../testing/proxy-user-api.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

// Proxy users through the public API (issue 17): created under a plan with a generated or chosen login,
// read and listed a page at a time with `read`, changed, given a new password and deleted with
// `proxy_users`; bad fields refused with their messages.

describe.each(testDatabaseKinds())('proxy users in the public API on %s', (kind) => {
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

  it('creates with a generated login, gets, lists, changes, gives a new password and deletes', async () => {
    const owner = await api.customer();
    const answer = await api.create(owner, { label: '  client A  ' });
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
      allowlist_verified: [],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const got = await api.getOne(user.id, owner.secret);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ proxy_user: user });
    const listed = await api.list(owner);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ proxy_users: [user], next_cursor: null });

    const now = new Date();
    const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const changed = await api.patch(user.id, owner.secret, {
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
    expect((await api.getOne(user.id, owner.secret)).body).toEqual({ proxy_user: afterPatch });

    // Only the amount: the cap keeps its period.
    const raised = await api.patch(user.id, owner.secret, { traffic_cap_gb: 2.25 });
    expect((raised.body.proxy_user as ProxyUser).traffic_cap).toEqual({
      bytes: 2.25 * GB,
      gb: 2.25,
      period: 'day',
    });

    // Null clears the cap and the thread limit; what is absent stays.
    const cleared = await api.patch(user.id, owner.secret, { traffic_cap_gb: null, threads: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.proxy_user).toMatchObject({
      label: 'client B',
      enabled: false,
      traffic_cap: null,
      threads: null,
      usage: { period_start: null, cap_left_bytes: null },
      allowlist: ['8.8.8.8', '2001:4860:4860::8888'],
    });

    const regenerated = await api.call(
      'POST',
      `/api/v1/proxy-users/${user.id}/regenerate-password`,
      owner.secret,
    );
    expect(regenerated.status).toBe(200);
    const renewed = regenerated.body.proxy_user as ProxyUser;
    expect(renewed.login).toBe(user.login);
    expect(renewed.password).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(renewed.password).not.toBe(user.password);
    expect(((await api.getOne(user.id, owner.secret)).body.proxy_user as ProxyUser).password).toBe(
      renewed.password,
    );

    const deleted = await api.call('DELETE', `/api/v1/proxy-users/${user.id}`, owner.secret);
    expect(deleted.status).toBe(204);
    api.expectNotFound(await api.getOne(user.id, owner.secret), proxyUserMessages.notFound);
    api.expectNotFound(
      await api.call('DELETE', `/api/v1/proxy-users/${user.id}`, owner.secret),
      proxyUserMessages.notFound,
    );
    expect((await api.list(owner)).body).toEqual({ proxy_users: [], next_cursor: null });
    // The plan itself is untouched.
    const plans = await server.request<{ plans: Array<{ id: string }> }>('GET', '/api/v1/plans', {
      token: owner.secret,
    });
    expect(plans.body.plans.map((plan) => plan.id)).toEqual([owner.planId]);
  });

  it('answers 200 and changes nothing to a PATCH without fields', async () => {
    const owner = await api.customer();
    const user = await api.created(owner, {
      label: 'steady',
      threads: 3,
      traffic_cap_gb: 1,
      cap_period: 'month',
    });
    const planBefore = await queryRows<{ updated_at: string }>(
      server,
      `select updated_at::text as updated_at from plans where id = '${owner.planId}'`,
    );
    const answer = await api.patch(user.id, owner.secret, {});
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ proxy_user: user });
    expect((await api.getOne(user.id, owner.secret)).body).toEqual({ proxy_user: user });
    // No write at all: the plan was not touched (the gateway would reload it for nothing).
    const planAfter = await queryRows<{ updated_at: string }>(
      server,
      `select updated_at::text as updated_at from plans where id = '${owner.planId}'`,
    );
    expect(planAfter).toEqual(planBefore);
  });

  it('sets targeting the pool offers and clears it with null', async () => {
    const owner = await api.customer();
    const user = await api.created(owner, { targeting: { countries: 'us, DE', rotation_interval: 10 } });
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
    expect((await api.getOne(user.id, owner.secret)).body).toEqual({ proxy_user: user });
    const cleared = await api.patch(user.id, owner.secret, { targeting: null });
    expect((cleared.body.proxy_user as ProxyUser).targeting).toBeNull();
  });

  it('needs proxy_users to write and read to read, and shows nothing of another account', async () => {
    const owner = await api.customer();
    const user = await api.created(owner, { label: 'kept' });
    const reader = await api.mintKey(owner, ['read']);
    const writer = await api.mintKey(owner, ['proxy_users']);

    api.expectScopeRefused(await api.create(owner, {}, reader), 'proxy_users');
    api.expectScopeRefused(await api.patch(user.id, reader, { label: 'changed' }), 'proxy_users');
    api.expectScopeRefused(await api.call('DELETE', `/api/v1/proxy-users/${user.id}`, reader), 'proxy_users');
    api.expectScopeRefused(
      await api.call('POST', `/api/v1/proxy-users/${user.id}/regenerate-password`, reader),
      'proxy_users',
    );
    api.expectScopeRefused(await api.move(user.id, reader, 'to_proxy_user', 1), 'proxy_users');
    // The reader lists and reads, and sees that nothing changed.
    const listed = await api.list(owner, '', reader);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ proxy_users: [user], next_cursor: null });
    expect((await api.getOne(user.id, reader)).body).toEqual({ proxy_user: user });

    api.expectScopeRefused(await api.list(owner, '', writer), 'read');
    api.expectScopeRefused(await api.getOne(user.id, writer), 'read');
    // The writer writes.
    expect((await api.patch(user.id, writer, { label: 'by writer' })).status).toBe(200);

    const stranger = await api.customer();
    api.expectNotFound(await api.list(owner, '', stranger.secret), proxyUserMessages.planNotFound);
    api.expectNotFound(
      await api.create(owner, { label: 'intruder' }, stranger.secret),
      proxyUserMessages.planNotFound,
    );
    api.expectNotFound(await api.getOne(user.id, stranger.secret), proxyUserMessages.notFound);
    api.expectNotFound(await api.patch(user.id, stranger.secret, { label: 'x' }), proxyUserMessages.notFound);
    api.expectNotFound(
      await api.call('POST', `/api/v1/proxy-users/${user.id}/regenerate-password`, stranger.secret),
      proxyUserMessages.notFound,
    );
    api.expectNotFound(await api.move(user.id, stranger.secret, 'to_plan', 1), proxyUserMessages.notFound);
    api.expectNotFound(
      await api.call('DELETE', `/api/v1/proxy-users/${user.id}`, stranger.secret),
      proxyUserMessages.notFound,
    );
    // Ids that name nothing are 404s too.
    api.expectNotFound(await api.getOne('not-an-id', owner.secret), proxyUserMessages.notFound);
    api.expectNotFound(
      await api.getOne('00000000-0000-4000-8000-000000000000', owner.secret),
      proxyUserMessages.notFound,
    );
    api.expectNotFound(
      await api.call('GET', '/api/v1/plans/not-an-id/proxy-users', owner.secret),
      proxyUserMessages.planNotFound,
    );
    api.expectNotFound(
      await api.call(
        'POST',
        '/api/v1/plans/00000000-0000-4000-8000-000000000000/proxy-users',
        owner.secret,
        {},
      ),
      proxyUserMessages.planNotFound,
    );
    // The stranger's attempts left the user as the writer left it.
    const after = (await api.getOne(user.id, owner.secret)).body.proxy_user as ProxyUser;
    expect(after).toMatchObject({ label: 'by writer', password: user.password, login: user.login });
    expect((await api.list(owner)).body.proxy_users).toHaveLength(1);
    expect((await api.list(stranger)).body.proxy_users).toHaveLength(0);
  });

  it('refuses bad fields with their messages and fields, and creates nothing', async () => {
    const owner = await api.customer();
    const other = await api.customer();
    for (const login of ['bgabcdefgh', 'short', 'UPPERCASE1', 'with_under', 'a'.repeat(33)]) {
      api.expectInvalid(await api.create(owner, { login }), proxyUserMessages.loginFormat, 'login');
    }
    const chosen = await api.created(owner, { login: 'reseller01' });
    expect(chosen.login).toBe('reseller01');
    api.expectInvalid(
      await api.create(owner, { login: 'reseller01' }),
      proxyUserMessages.loginTaken,
      'login',
    );
    // Logins are one namespace across accounts.
    api.expectInvalid(
      await api.create(other, { login: 'reseller01' }),
      proxyUserMessages.loginTaken,
      'login',
    );

    api.expectInvalid(
      await api.create(owner, { traffic_cap_gb: 2 }),
      proxyUserMessages.capPeriodRequired,
      'cap_period',
    );
    api.expectInvalid(
      await api.create(owner, { cap_period: 'day' }),
      proxyUserMessages.capPeriodWithoutCap,
      'cap_period',
    );
    for (const gb of [0, 1.2345, -1, 100_001]) {
      api.expectInvalid(
        await api.create(owner, { traffic_cap_gb: gb, cap_period: 'month' }),
        proxyUserMessages.capFormat,
        'traffic_cap_gb',
      );
    }
    expect(owner.threads).toBeGreaterThan(1);
    api.expectInvalid(
      await api.create(owner, { threads: owner.threads + 1 }),
      proxyUserMessages.threadsOverPlan(owner.threads),
      'threads',
    );
    api.expectInvalid(await api.create(owner, { threads: 0 }), proxyUserMessages.threadsFormat, 'threads');
    api.expectInvalid(
      await api.create(owner, { allowlist: ['10.0.0.1'] }),
      allowlistMessages.notPublic,
      'allowlist',
    );
    api.expectInvalid(
      await api.create(owner, { allowlist: ['8.8.8.8', 'not an address'] }),
      allowlistMessages.invalidAddress,
      'allowlist',
    );
    api.expectInvalid(
      await api.create(owner, { targeting: { countries: ['US'], rotation_interval: 500 } }),
      proxySettingsMessages.rotation,
      'targeting.rotation_interval',
    );
    const unknownCountry = await api.create(owner, { targeting: { countries: ['FR'] } });
    expect(unknownCountry.status).toBe(400);
    expect(unknownCountry.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: expect.stringMatching(/^targeting\./),
    });
    const noCountries = await api.create(owner, { targeting: { rotation_interval: 500 } });
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
      const refused = await api.create(owner, body);
      expect(refused.status, error).toBe(400);
      expect(refused.body, error).toMatchObject({ error, code: 'VALIDATION_FAILED' });
    }

    // At the plan's threads exactly is allowed.
    const atLimit = await api.created(owner, { threads: owner.threads });
    expect(atLimit.threads).toBe(owner.threads);

    // A PATCH is held to the same rules, and a refused one changes nothing.
    for (const [body, error, field] of [
      [{ threads: owner.threads + 1 }, proxyUserMessages.threadsOverPlan(owner.threads), 'threads'],
      [{ traffic_cap_gb: 1 }, proxyUserMessages.capPeriodRequired, 'cap_period'],
      [{ cap_period: 'lifetime' }, proxyUserMessages.capPeriodWithoutCap, 'cap_period'],
      [{ traffic_cap_gb: 0.0001, cap_period: 'day' }, proxyUserMessages.capFormat, 'traffic_cap_gb'],
      // Loopback, but not the caller's own (127.0.0.1, which may be listed, proved).
      [{ allowlist: ['127.0.0.2'] }, allowlistMessages.notPublic, 'allowlist'],
      [
        { targeting: { countries: ['US'], rotation_interval: 0 } },
        proxySettingsMessages.rotation,
        'targeting.rotation_interval',
      ],
    ] as Array<[Record<string, unknown>, string, string]>) {
      api.expectInvalid(await api.patch(atLimit.id, owner.secret, body), error, field);
    }
    expect((await api.getOne(atLimit.id, owner.secret)).body).toEqual({ proxy_user: atLimit });

    const listed = await api.list(owner);
    expect(listed.body.proxy_users.map((user) => user.id)).toEqual([chosen.id, atLimit.id]);
    expect((await api.list(other)).body.proxy_users).toEqual([]);

    for (const cursor of [
      'not-a-cursor',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from(JSON.stringify(['2024-01-01T00:00:00.000Z', 'not-a-uuid'])).toString('base64url'),
      Buffer.from(JSON.stringify(['yesterday', chosen.id])).toString('base64url'),
    ]) {
      const refused = await api.list(owner, `?cursor=${encodeURIComponent(cursor)}`);
      expect(refused.status, cursor).toBe(400);
      expect(refused.body, cursor).toMatchObject({ code: 'VALIDATION_FAILED', field: 'cursor' });
    }
    for (const limit of ['0', '101', 'two']) {
      const refused = await api.list(owner, `?limit=${limit}`);
      expect(refused.status, limit).toBe(400);
      expect(refused.body, limit).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('gives a login to one of two accounts that choose it at once, and no users to an inactive plan', async () => {
    const [first, second] = [await api.customer(), await api.customer()];
    const answers = await Promise.all([
      api.create(first, { login: 'racelogin1' }),
      api.create(second, { login: 'racelogin1' }),
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

    const user = await api.created(first, { label: 'before' });
    await queryRows(server, `update plans set is_active = false where id = '${first.planId}'`);
    const inactive = await api.create(first, { label: 'after' });
    expect(inactive.status).toBe(409);
    expect(inactive.body).toEqual({ error: proxyUserMessages.planInactive, code: 'CONFLICT' });
    // Its users are still there to read.
    expect((await api.list(first)).body.proxy_users.map((listed) => listed.id)).toContain(user.id);
  });

  it('lists a page at a time, oldest first, each user once', async () => {
    const owner = await api.customer();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await api.created(owner, { label: `user ${i}` })).id);
    }
    const pages: ProxyUser[][] = [];
    const cursors: Array<string | null> = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${encodeURIComponent(cursor)}`;
      const page = await api.list(owner, query);
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
    const whole = await api.list(owner, '?limit=5');
    expect(whole.body.proxy_users.map((user) => user.id)).toEqual(ids);
    expect(whole.body.next_cursor).toBeNull();
    // A cursor past a deleted user still goes on from where it was.
    const first = await api.list(owner, '?limit=2');
    expect((await api.call('DELETE', `/api/v1/proxy-users/${ids[1]}`, owner.secret)).status).toBe(204);
    const rest = await api.list(
      owner,
      `?limit=10&cursor=${encodeURIComponent(String(first.body.next_cursor))}`,
    );
    expect(rest.body.proxy_users.map((user) => user.id)).toEqual(ids.slice(2));
  });
});
