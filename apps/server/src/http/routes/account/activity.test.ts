import type { ActivityEntry, ActivityPage } from '@bytegate/contracts/activity';
import { createExits } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneActivity } from '../../../jobs/prune-activity.ts';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { payThroughSandbox, pollTopup } from '../../../testing/payments.ts';
import { createCustomerWithPlan, createUserWithRole } from '../../../testing/staff.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';
import { codeAt, enableTwoFactorViaApi } from '../../../testing/two-factor.ts';

// GET /api/account/activity: each kind of entry appears after the real action that makes it (through
// the API as a customer or a payer does, or the console as staff do), worded for the customer.

const CHROME_ON_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0';

describe.each(testDatabaseKinds())('GET /api/account/activity on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.close();
  });

  const feed = (token: string, cursor?: string) =>
    server.request<ActivityPage & { error?: string; code?: string }>(
      'GET',
      `/api/account/activity${cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`}`,
      { token },
    );
  /** The newest entries of an account, as its feed's first page shows them. */
  const latest = async (token: string): Promise<ActivityEntry[]> => {
    const page = await feed(token);
    expect(page.status).toBe(200);
    return page.body.entries;
  };
  const kinds = (entries: ActivityEntry[]) => entries.map((entry) => entry.kind);
  const signIn = (email: string, password: string, userAgent = CHROME_ON_MAC) =>
    server.request<{ token: string; challengeToken?: string }>('POST', '/api/auth/login', {
      body: { email, password },
      headers: { 'user-agent': userAgent },
    });

  it('answers 401 without a session, and 400 for a cursor it did not give', async () => {
    const anonymous = await server.request('GET', '/api/account/activity');
    expect(anonymous).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
    const user = await createUserViaApi(server);
    for (const cursor of ['nonsense', Buffer.from('2026-01-01T00:00:00.000000Z|x').toString('base64url')]) {
      expect((await feed(user.token, cursor)).body).toEqual({
        error: 'The cursor is not one this list gave.',
        code: 'VALIDATION_FAILED',
        field: 'cursor',
      });
    }
  });

  it('records the account’s creation, each sign-in with its address and browser, and the sign-out', async () => {
    const user = await createUserViaApi(server);
    expect(await latest(user.token)).toEqual([
      {
        id: expect.any(String),
        kind: 'account_created',
        title: 'Account created',
        detail: 'Signed up with your email and password',
        icon: 'account',
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
        ipAddress: '127.0.0.1',
        browser: 'a Node.js program',
      },
    ]);
    const signedIn = await signIn(user.email, user.password);
    expect(signedIn.status).toBe(200);
    const [entry] = await latest(user.token);
    expect(entry).toMatchObject({
      kind: 'signed_in',
      title: 'Signed in',
      detail: 'With your password',
      icon: 'sign-in',
      ipAddress: '127.0.0.1',
      browser: 'Chrome on macOS',
    });
    // A wrong password signs nobody in and records nothing.
    expect((await signIn(user.email, 'not the password')).status).toBe(401);
    expect(kinds(await latest(user.token))).toEqual(['signed_in', 'account_created']);

    const out = await server.request('POST', '/api/auth/logout', {
      token: signedIn.body.token,
      headers: { 'user-agent': FIREFOX_ON_WINDOWS },
    });
    expect(out.status).toBe(200);
    expect((await latest(user.token))[0]).toMatchObject({
      kind: 'signed_out',
      title: 'Signed out',
      browser: 'Firefox on Windows',
    });
  });

  it('records two-factor turned on, and a sign-in finished with a code', async () => {
    const user = await createUserViaApi(server);
    const { secret } = await enableTwoFactorViaApi(server, user);
    expect((await latest(user.token))[0]).toMatchObject({
      kind: 'two_factor_enabled',
      title: 'Two-factor authentication turned on',
      icon: 'shield',
    });
    const challenge = await signIn(user.email, user.password);
    expect(challenge.body.challengeToken).toBeDefined();
    // The password alone opened no session: nothing was recorded yet.
    expect((await latest(user.token))[0]?.kind).toBe('two_factor_enabled');
    const finished = await server.request('POST', '/api/auth/login/two-factor', {
      body: { challengeToken: challenge.body.challengeToken, code: codeAt(secret) },
      headers: { 'user-agent': CHROME_ON_MAC },
    });
    expect(finished.status).toBe(200);
    expect((await latest(user.token))[0]).toMatchObject({
      kind: 'signed_in',
      detail: 'With your password and a two-factor code',
      browser: 'Chrome on macOS',
    });
  });

  it('records a top-up through the payment sandbox and its outcome, and a purchase', async () => {
    const user = await createUserViaApi(server);
    const paid = await payThroughSandbox(server, user.token, { provider: 'cryptomus', amount: 10 });
    expect(await pollTopup(server, user.token, 'cryptomus', paid)).toMatchObject({ balance: 10 });
    // However many polls and webhooks arrive, the credit is recorded once.
    await pollTopup(server, user.token, 'cryptomus', paid);
    const expired = await payThroughSandbox(server, user.token, {
      provider: 'bitcart',
      amount: 20,
      outcome: 'expire',
    });
    await pollTopup(server, user.token, 'bitcart', expired);
    const held = await payThroughSandbox(server, user.token, {
      provider: 'cryptomus',
      amount: 30,
      outcome: 'underpay-coin',
    });
    await pollTopup(server, user.token, 'cryptomus', held);
    const bought = await server.request('POST', '/api/subuser/create', {
      token: user.token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
    });
    expect(bought.status).toBe(201);

    const entries = await latest(user.token);
    expect(entries.map(({ kind, title, detail }) => ({ kind, title, detail }))).toEqual([
      {
        kind: 'purchase_completed',
        title: 'Bought 5 GB of Datacenter traffic',
        detail: expect.stringMatching(/^BG-\d+ · \$4\.95 from your balance$/),
      },
      {
        kind: 'topup_held',
        title: 'Top-up of $30.00 held for review',
        detail: `${held} · The payment arrived short: our support team will check what arrived and credit it`,
      },
      { kind: 'topup_created', title: 'Top-up of $30.00 started', detail: `${held} · Cryptomus (sandbox)` },
      {
        kind: 'topup_failed',
        title: 'Top-up of $20.00 expired',
        detail: `${expired} · Bitcart · Nothing was credited`,
      },
      { kind: 'topup_created', title: 'Top-up of $20.00 started', detail: `${expired} · Bitcart (sandbox)` },
      { kind: 'topup_credited', title: 'Top-up credited: $10.00', detail: `${paid} · Cryptomus` },
      { kind: 'topup_created', title: 'Top-up of $10.00 started', detail: `${paid} · Cryptomus (sandbox)` },
      { kind: 'account_created', title: 'Account created', detail: 'Signed up with your email and password' },
    ]);
    expect(entries[0]).toMatchObject({ icon: 'purchase' });
    expect(entries.find((entry) => entry.kind === 'topup_failed')).toMatchObject({ icon: 'topup-failed' });
  });

  it('records a purchase through the public API with the key’s name, and the key’s creation', async () => {
    const user = await createUserViaApi(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: 1000, reason: 'test' },
    );
    const created = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token: user.token,
      body: { name: 'reseller bot', scopes: ['purchase'], password: user.password },
      headers: { 'user-agent': CHROME_ON_MAC },
    });
    expect(created.status).toBe(201);
    const bought = await server.request('POST', '/api/v1/purchases', {
      token: created.body.secret,
      body: { pool_type: 'datacenter', gb: 5 },
    });
    expect(bought.status).toBe(201);
    const [purchase, key] = await latest(user.token);
    expect(purchase).toMatchObject({
      kind: 'purchase_completed',
      detail: expect.stringMatching(
        /^BG-\d+ · \$4\.95 from your balance · Through the API, key “reseller bot”$/,
      ),
    });
    expect(key).toMatchObject({
      kind: 'api_key_created',
      title: 'API key created',
      detail: '“reseller bot” · Scopes: purchase',
      icon: 'key',
      browser: 'Chrome on macOS',
    });
  });

  it('records proxy settings saved, allowlist addresses added and removed, and a password change', async () => {
    const customer = await createCustomerWithPlan(server, { poolType: 'residential' });
    await createExits(server.database.db, {
      exits: [{ name: `activity-${kind}`, kind: 'direct', poolType: 'residential', country: 'US' }],
    });
    const saved = await server.request('PUT', '/api/proxy-settings', {
      token: customer.token,
      body: { pool_type: 'residential', countries: ['US'], rotation_interval: 10 },
    });
    expect(saved.status).toBe(200);
    // A refused save records nothing.
    const refused = await server.request('PUT', '/api/proxy-settings', {
      token: customer.token,
      body: { pool_type: 'residential', countries: [] },
    });
    expect(refused.status).toBe(400);
    const allowlist = (method: 'POST' | 'DELETE') =>
      method === 'POST'
        ? server.request('POST', '/api/subuser/allowlist', {
            token: customer.token,
            body: { subuser_id: customer.planId, address: '127.0.0.1' },
          })
        : server.request('DELETE', `/api/subuser/allowlist?subuser_id=${customer.planId}&address=127.0.0.1`, {
            token: customer.token,
          });
    expect((await allowlist('POST')).status).toBe(201);
    expect((await allowlist('DELETE')).status).toBe(200);
    const changed = await server.request('PUT', '/api/user-settings/password', {
      token: customer.token,
      body: { currentPassword: customer.password, newPassword: 'a brand new passphrase' },
      headers: { 'user-agent': CHROME_ON_MAC },
    });
    expect(changed.status).toBe(200);

    const entries = await latest(customer.token);
    expect(
      entries.slice(0, 4).map(({ kind, title, detail, icon }) => ({ kind, title, detail, icon })),
    ).toEqual([
      {
        kind: 'password_changed',
        title: 'Password changed',
        detail: 'Your other sessions were signed out',
        icon: 'password',
      },
      {
        kind: 'allowlist_removed',
        title: 'IP address removed from the allowlist',
        detail: '127.0.0.1 · Of your Residential plan',
        icon: 'allowlist',
      },
      {
        kind: 'allowlist_added',
        title: 'IP address allowlisted',
        detail: '127.0.0.1 · On your Residential plan',
        icon: 'allowlist',
      },
      {
        kind: 'proxy_settings_saved',
        title: 'Proxy settings saved',
        detail: 'Targeting of your Residential plan',
        icon: 'settings',
      },
    ]);
    expect(entries[0]).toMatchObject({ browser: 'Chrome on macOS', ipAddress: '127.0.0.1' });
  });

  it('words staff actions from the console for the customer: our support team, never who or why', async () => {
    const support = await createUserWithRole(server, 'support');
    const customer = await createCustomerWithPlan(server);
    const reason = 'Internal: customer complained loudly on ticket 4411';
    const adjusted = await server.request('POST', `/api/admin/customers/${customer.userId}/balance`, {
      token: support.token,
      body: { amount: '5', reason },
    });
    expect(adjusted.status).toBe(200);
    const threads = await server.request('POST', `/api/admin/plans/${customer.planId}/threads`, {
      token: support.token,
      body: { threadLimit: 150, reason },
    });
    expect(threads.status).toBe(200);
    const unblocked = await server.request('POST', `/api/admin/customers/${customer.userId}/unblocks`, {
      token: support.token,
      body: { ports: [25], hosts: ['paypal.com'], reason },
    });
    expect(unblocked.status).toBe(200);

    const page = await feed(customer.token);
    const [unblocks, limit, balance] = page.body.entries;
    expect(unblocks).toMatchObject({
      kind: 'support_unblocks_changed',
      title: 'Our support team opened access for your proxies',
      detail: 'Port 25 · Domain paypal.com',
      icon: 'support',
      ipAddress: null,
      browser: null,
    });
    expect(limit).toMatchObject({
      kind: 'support_thread_limit_changed',
      title: 'Our support team changed your thread limit',
      detail: expect.stringMatching(/^Datacenter plan: \d+ → 150 threads$/),
    });
    expect(balance).toMatchObject({
      kind: 'support_balance_adjusted',
      title: 'Our support team added $5.00 to your balance',
      detail: 'Your balance became $50.05',
    });
    const said = JSON.stringify(page.body);
    expect(said).not.toContain(support.email);
    expect(said).not.toContain('ticket 4411');
  });

  it('pages newest first by cursor, each entry once, and shows an account none of another’s', async () => {
    const user = await createUserViaApi(server);
    const other = await createUserViaApi(server);
    const [row] = await queryRows<{ id: string }>(
      server,
      `select id from users where email = '${user.email}'`,
    );
    // 44 more entries, many sharing a moment to the microsecond: the id breaks the tie.
    await queryRows(
      server,
      `insert into account_activity (user_id, kind, details, created_at)
       select '${row?.id}', 'proxy_settings_saved', jsonb_build_object('poolType', 'datacenter'),
              timestamptz '2026-01-01T00:00:00Z' + (n / 4) * interval '1 second'
       from generate_series(1, 44) as n`,
    );
    const seen: ActivityEntry[] = [];
    const sizes: number[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = await feed(user.token, cursor);
      expect(page.status).toBe(200);
      seen.push(...page.body.entries);
      sizes.push(page.body.entries.length);
      if (page.body.nextCursor === null) {
        break;
      }
      cursor = page.body.nextCursor;
    }
    expect(sizes).toEqual([20, 20, 5]);
    expect(new Set(seen.map((entry) => entry.id)).size).toBe(45);
    expect(seen[0]?.kind).toBe('account_created');
    const order = seen.map((entry) => [entry.createdAt, entry.id] as const);
    const sorted = [...order].sort(([at1, id1], [at2, id2]) =>
      at1 === at2 ? id2.localeCompare(id1) : at2.localeCompare(at1),
    );
    expect(order).toEqual(sorted);

    expect(kinds(await latest(other.token))).toEqual(['account_created']);
  });

  it('erases an account’s entries with the account', async () => {
    const user = await createUserViaApi(server);
    const [row] = await queryRows<{ id: string }>(
      server,
      `select id from users where email = '${user.email}'`,
    );
    const deleted = await server.request('DELETE', '/api/user-settings/account', {
      token: user.token,
      body: { password: user.password },
    });
    expect(deleted.status).toBe(200);
    expect(await queryRows(server, `select 1 from account_activity where user_id = '${row?.id}'`)).toEqual(
      [],
    );
  });

  it('drops entries older than 13 months with the prune job, and keeps the rest', async () => {
    const user = await createUserViaApi(server);
    const [row] = await queryRows<{ id: string }>(
      server,
      `select id from users where email = '${user.email}'`,
    );
    for (const months of [14, 12]) {
      await queryRows(
        server,
        `insert into account_activity (user_id, kind, details, created_at)
         values ('${row?.id}', 'signed_out', '{}', now() - interval '${months} months')`,
      );
    }
    await pruneActivity({ db: server.database.db, config: server.config });
    const left = await queryRows<{ months: number }>(
      server,
      `select round(extract(epoch from now() - created_at) / 86400 / 30)::int as months
       from account_activity where user_id = '${row?.id}' order by created_at`,
    );
    expect(left.map((entry) => entry.months)).toEqual([12, 0]);
  });
});
