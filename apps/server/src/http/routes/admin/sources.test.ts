import type { AuditResponse } from '@bytegate/contracts/admin';
import type { SourceDaysResponse, SourceResponse, SupplyResponse } from '@bytegate/contracts/admin-supply';
import { addSourceHealth, addSourceUsage, raiseSourceAlarm } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../../services/back-office/staff-actor.ts';
import { addSource } from '../../../services/supply/sources.ts';
import { createUserWithRole } from '../../../testing/staff.ts';
import { startTestServer, type TestServer } from '../../../testing/test-server.ts';

type User = Awaited<ReturnType<typeof createUserWithRole>>;

const GB = 1024 ** 3;
const DAY_MS = 24 * 60 * 60 * 1000;
const SOME_UUID = '00000000-0000-4000-8000-000000000000';
const reason = 'Vendor renegotiated, ticket 512';
/** The vendor accounts' passwords: never in an answer. */
const SECRETS = ['S3cretPass', 'Hidden9ws', 'Resell7pw'];

/** UTC midnight `daysAgo` days before today, as the gateway writes a source's day. */
const dayAgo = (daysAgo: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS);
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

describe.each(testDatabaseKinds())('the Supply page API on %s', (kind) => {
  let server: TestServer;
  let customer: User;
  let support: User;
  let admin: User;
  let oxylabsId: string;
  let webshareId: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    customer = await createUserWithRole(server, 'customer');
    support = await createUserWithRole(server, 'support');
    admin = await createUserWithRole(server, 'admin');
    const ctx = { db: server.database.db, config: server.config };
    const add = (input: Record<string, unknown>) => addSource(ctx, { input, actor: CLI_ACTOR });
    oxylabsId = (
      await add({
        name: 'Oxylabs residential',
        pool: 'residential',
        grammar: 'oxylabs',
        url: `http://acct:${SECRETS[0]}@127.0.0.1:7777`,
        costPerGb: '1.20',
      })
    ).id;
    webshareId = (
      await add({
        name: 'Webshare DC',
        pool: 'datacenter',
        grammar: 'webshare',
        url: `socks5://ws:${SECRETS[1]}@127.0.0.1:1080`,
        costPerGb: '0.50',
      })
    ).id;
    // A name a spreadsheet would read as a formula, with a comma and quotes: the CSV must hold it safely.
    await add({
      name: '=Mobile reseller, "X"',
      pool: 'mobile',
      grammar: 'decodo',
      url: `https://rs:${SECRETS[2]}@127.0.0.1:8443`,
    });
    // Known bytes and dials, as the usage flush and the gateway's health counts write them.
    const usage = async (
      sourceId: string,
      daysAgo: number,
      [carriedBytes, billedBytes, connects, failures, connectMsTotal]: number[],
    ) => {
      const day = dayAgo(daysAgo);
      await addSourceUsage(server.database.db, {
        day,
        deltas: [{ sourceId, carriedBytes: carriedBytes ?? 0, billedBytes: billedBytes ?? 0 }],
      });
      await addSourceHealth(server.database.db, {
        day,
        deltas: [
          { sourceId, connects: connects ?? 0, failures: failures ?? 0, connectMsTotal: connectMsTotal ?? 0 },
        ],
      });
    };
    // Oxylabs: today 1 GB carried billed as 2 (target filters), 3 days ago half a GB, 10 days ago 2 GB,
    // and 40 days ago 100 GB, outside both ranges.
    await usage(oxylabsId, 0, [GB, 2 * GB, 6, 0, 120]);
    await usage(oxylabsId, 3, [GB / 2, GB / 2, 2, 2, 45]);
    await usage(oxylabsId, 10, [2 * GB, 2 * GB, 10, 0, 100]);
    await usage(oxylabsId, 40, [100 * GB, 100 * GB, 1, 0, 1]);
    // Webshare: today 1.5 GB, billed as carried.
    await usage(webshareId, 0, [1.5 * GB, 1.5 * GB, 3, 1, 30]);
  });
  afterAll(async () => {
    await server?.close();
  });

  const get = <T>(path: string, token = support.token) => server.request<T>('GET', path, { token });
  const list = async (query = '') => {
    const answer = await get<SupplyResponse>(`/api/admin/sources${query}`);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const byName = (body: SupplyResponse, name: string) => body.sources.find((source) => source.name === name);
  const patch = (sourceId: string, body: object, token = admin.token) =>
    server.request<SourceResponse & { error: string; code: string }>(
      'PATCH',
      `/api/admin/sources/${sourceId}`,
      {
        token,
        body,
      },
    );
  /** The CSV as a browser downloads it (the test server's `request` reads JSON). */
  const csv = async (query = '', token = support.token) => {
    const response = await fetch(`${server.url}/api/admin/sources.csv${query}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };

  describe('who may call each route', () => {
    it('answers a customer 403 on every route, and support 403 on the change', async () => {
      const routes: Array<[string, string]> = [
        ['GET', '/api/admin/sources'],
        ['GET', '/api/admin/sources.csv'],
        ['GET', `/api/admin/sources/${oxylabsId}/days`],
        ['PATCH', `/api/admin/sources/${oxylabsId}`],
      ];
      for (const [method, path] of routes) {
        const body = method === 'PATCH' ? { weight: 1, reason } : undefined;
        const refused = await server.request(method, path, { token: customer.token, body });
        expect({ path, status: refused.status, body: refused.body }).toEqual({
          path,
          status: 403,
          body: { error: 'This area is for Bytegate staff only', code: 'FORBIDDEN' },
        });
        const anonymous = await server.request(method, path, { body });
        expect({ path, status: anonymous.status }).toEqual({ path, status: 401 });
      }
      const bySupport = await patch(oxylabsId, { weight: 1, reason }, support.token);
      expect(bySupport.status).toBe(403);
      expect(bySupport.body).toEqual({
        error: 'Only an admin may do this: support may read the sources, not change them',
        code: 'FORBIDDEN',
      });
      // Nothing changed.
      expect(byName(await list(), 'Oxylabs residential')?.weight).toBe(100);
    });

    it('lets support and admins read', async () => {
      for (const token of [support.token, admin.token]) {
        expect((await get('/api/admin/sources', token)).status).toBe(200);
        expect((await get(`/api/admin/sources/${webshareId}/days`, token)).status).toBe(200);
        expect((await csv('', token)).status).toBe(200);
      }
    });
  });

  describe('GET /api/admin/sources', () => {
    it('refuses a range other than 7 or 30 days', async () => {
      for (const query of ['?days=14', '?days=abc', '?days=']) {
        const refused = await get(`/api/admin/sources${query}`);
        expect({ query, status: refused.status, body: refused.body }).toEqual({
          query,
          status: 400,
          body: { error: 'Days must be 7 or 30', code: 'VALIDATION_FAILED' },
        });
      }
    });

    it('computes the last 7 days exactly from the source days', async () => {
      const week = await list();
      expect(week.range).toEqual({ days: 7, from: isoDay(dayAgo(6)), to: isoDay(dayAgo(0)) });
      expect(week.sources.map((source) => [source.pool, source.name])).toEqual([
        ['datacenter', 'Own datacenter exits'],
        ['datacenter', 'Webshare DC'],
        ['residential', 'Own residential exits'],
        ['residential', 'Oxylabs residential'],
        ['mobile', '=Mobile reseller, "X"'],
        ['mobile', 'Own mobile exits'],
      ]);
      expect(byName(week, 'Oxylabs residential')).toEqual({
        id: oxylabsId,
        name: 'Oxylabs residential',
        pool: 'residential',
        kind: 'network',
        grammar: 'oxylabs',
        url: 'http://acct:***@127.0.0.1:7777',
        state: 'active',
        weight: 100,
        costPerGbCents: 120,
        alarm: null,
        alarmAt: null,
        lastProbe: null,
        totals: {
          carriedBytes: 1.5 * GB,
          billedBytes: 2.5 * GB,
          // 2.5 GB at $1.99 is 497.5 cents: 498. 1.5 GB at $1.20 is 180.
          revenueCents: 498,
          costCents: 180,
          marginCents: 318,
          connects: 8,
          failures: 2,
          successRate: 0.8,
          // 165 ms over 8 dials that opened.
          meanConnectMs: 21,
        },
      });
      expect(byName(week, 'Webshare DC')?.totals).toEqual({
        carriedBytes: 1.5 * GB,
        billedBytes: 1.5 * GB,
        // 1.5 GB at $0.99 is 148.5 cents: 149. At $0.50: 75.
        revenueCents: 149,
        costCents: 75,
        marginCents: 74,
        connects: 3,
        failures: 1,
        successRate: 0.75,
        meanConnectMs: 10,
      });
      expect(byName(week, 'Own mobile exits')).toMatchObject({
        kind: 'exits',
        grammar: null,
        url: null,
        totals: {
          carriedBytes: 0,
          revenueCents: 0,
          marginCents: 0,
          successRate: null,
          meanConnectMs: null,
        },
      });
      expect(week.totals).toEqual({
        carriedBytes: 3 * GB,
        billedBytes: 4 * GB,
        revenueCents: 647,
        costCents: 255,
        marginCents: 392,
      });
    });

    it('takes in 30 days, and never a day older', async () => {
      const month = await list('?days=30');
      expect(month.range).toEqual({ days: 30, from: isoDay(dayAgo(29)), to: isoDay(dayAgo(0)) });
      expect(byName(month, 'Oxylabs residential')?.totals).toEqual({
        carriedBytes: 3.5 * GB,
        billedBytes: 4.5 * GB,
        // 4.5 GB at $1.99 is 895.5 cents: 896. 3.5 GB at $1.20: 420.
        revenueCents: 896,
        costCents: 420,
        marginCents: 476,
        connects: 18,
        failures: 2,
        successRate: 0.9,
        // 265 ms over 18: 14.7.
        meanConnectMs: 15,
      });
      expect(month.totals).toMatchObject({ carriedBytes: 5 * GB, revenueCents: 896 + 149 });
    });
  });

  describe('GET /api/admin/sources/:sourceId/days', () => {
    it('refuses a malformed and an unknown id', async () => {
      expect((await get('/api/admin/sources/nope/days')).body).toEqual({
        error: 'Source id must be a UUID',
        code: 'VALIDATION_FAILED',
      });
      const unknown = await get(`/api/admin/sources/${SOME_UUID}/days`);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'No such source', code: 'NOT_FOUND' });
    });

    it('answers every day of the range, oldest first, zeros included', async () => {
      const answer = await get<SourceDaysResponse>(`/api/admin/sources/${oxylabsId}/days?days=30`);
      expect(answer.status).toBe(200);
      const { days, source, range } = answer.body;
      expect(range.days).toBe(30);
      expect(source).toMatchObject({ name: 'Oxylabs residential', totals: { revenueCents: 896 } });
      expect(days.map((day) => day.date)).toEqual(
        Array.from({ length: 30 }, (_, i) => isoDay(dayAgo(29 - i))),
      );
      const on = (daysAgo: number) => days.find((day) => day.date === isoDay(dayAgo(daysAgo)));
      expect(on(0)).toEqual({
        date: isoDay(dayAgo(0)),
        carriedBytes: GB,
        billedBytes: 2 * GB,
        revenueCents: 398,
        costCents: 120,
        marginCents: 278,
        connects: 6,
        failures: 0,
        successRate: 1,
        meanConnectMs: 20,
      });
      expect(on(3)).toMatchObject({
        carriedBytes: GB / 2,
        revenueCents: 100,
        costCents: 60,
        successRate: 0.5,
      });
      expect(on(10)).toMatchObject({ carriedBytes: 2 * GB, revenueCents: 398, costCents: 240 });
      expect(on(1)).toMatchObject({
        carriedBytes: 0,
        revenueCents: 0,
        successRate: null,
        meanConnectMs: null,
      });
      expect(days.reduce((sum, day) => sum + day.carriedBytes, 0)).toBe(3.5 * GB);
    });
  });

  describe('GET /api/admin/sources.csv', () => {
    it('downloads one row per day and source with a header, quoted and safe for spreadsheets', async () => {
      const answer = await csv('?days=7');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(answer.headers.get('content-disposition')).toBe(
        `attachment; filename="bytegate-supply-${isoDay(dayAgo(6))}-${isoDay(dayAgo(0))}.csv"`,
      );
      const lines = answer.text.split('\r\n');
      expect(lines[0]).toBe(
        'date,source,pool,carried_gb,billed_gb,revenue_usd,cost_usd,margin_usd,success_rate,connect_ms',
      );
      // Six sources a day for seven days, and the CRLF that ends the last line.
      expect(lines).toHaveLength(1 + 6 * 7 + 1);
      expect(lines.at(-1)).toBe('');
      const today = isoDay(dayAgo(0));
      expect(lines.filter((line) => line.startsWith(today))).toEqual([
        `${today},Own datacenter exits,datacenter,0,0,0,0,0,,`,
        `${today},Webshare DC,datacenter,1.5,1.5,1.49,0.75,0.74,0.75,10`,
        `${today},Own residential exits,residential,0,0,0,0,0,,`,
        `${today},Oxylabs residential,residential,1,2,3.98,1.2,2.78,1,20`,
        `${today},"'=Mobile reseller, ""X""",mobile,0,0,0,0,0,,`,
        `${today},Own mobile exits,mobile,0,0,0,0,0,,`,
      ]);
      const threeDaysAgo = isoDay(dayAgo(3));
      expect(lines.find((line) => line.startsWith(`${threeDaysAgo},Oxylabs`))).toBe(
        `${threeDaysAgo},Oxylabs residential,residential,0.5,0.5,1,0.6,0.4,0.5,23`,
      );
      expect(lines[1]?.startsWith(`${isoDay(dayAgo(6))},Own datacenter exits,`)).toBe(true);
    });

    it('covers 30 days, and refuses any other range', async () => {
      const month = await csv('?days=30');
      expect(month.text.split('\r\n')).toHaveLength(1 + 6 * 30 + 1);
      expect(month.text).toContain(
        `${isoDay(dayAgo(10))},Oxylabs residential,residential,2,2,3.98,2.4,1.58,1,10`,
      );
      const refused = await csv('?days=90');
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toEqual({ error: 'Days must be 7 or 30', code: 'VALIDATION_FAILED' });
    });
  });

  describe('PATCH /api/admin/sources/:sourceId', () => {
    it('names what is wrong with a change', async () => {
      const cases: Array<[object, string]> = [
        [{ weight: 5 }, 'Reason is required'],
        [{ weight: 5, reason: 'no' }, 'Reason must be at least 3 characters'],
        [{ reason }, 'Nothing to change: give weight, state, costPerGb or clearAlarm'],
        [{ clearAlarm: false, reason }, 'Nothing to change: give weight, state, costPerGb or clearAlarm'],
        [{ weight: -1, reason }, 'Weight must be a whole number from 0 to 1,000,000'],
        [{ weight: 2.5, reason }, 'Weight must be a whole number from 0 to 1,000,000'],
        [{ weight: '300', reason }, 'Weight must be a whole number from 0 to 1,000,000'],
        [{ weight: 1_000_001, reason }, 'Weight must be a whole number from 0 to 1,000,000'],
        [{ state: 'paused', reason }, 'State must be active, draining or off'],
        [{ costPerGb: '1.234', reason }, 'Cost per GB must be an amount in dollars, such as 1.20'],
        [{ costPerGb: '-1', reason }, 'Cost per GB must be an amount in dollars, such as 1.20'],
        [{ costPerGb: true, reason }, 'Cost per GB must be an amount in dollars, such as 1.20'],
        [{ clearAlarm: 'yes', reason }, 'Clear alarm must be true or false'],
      ];
      for (const [body, error] of cases) {
        const refused = await patch(oxylabsId, body);
        expect({ body, status: refused.status, answer: refused.body }).toEqual({
          body,
          status: 400,
          answer: { error, code: 'VALIDATION_FAILED' },
        });
      }
      expect((await patch('nope', { weight: 1, reason })).body).toEqual({
        error: 'Source id must be a UUID',
        code: 'VALIDATION_FAILED',
      });
      const unknown = await patch(SOME_UUID, { weight: 1, reason });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'No such source', code: 'NOT_FOUND' });
      expect(byName(await list(), 'Oxylabs residential')).toMatchObject({ weight: 100, costPerGbCents: 120 });
    });

    it('changes weight, state and cost, audited with before, after and the reason; past days keep their cost', async () => {
      const changed = await patch(oxylabsId, { weight: 300, state: 'draining', costPerGb: '0.95', reason });
      expect(changed.status).toBe(200);
      expect(changed.body.source).toEqual({
        id: oxylabsId,
        name: 'Oxylabs residential',
        pool: 'residential',
        kind: 'network',
        grammar: 'oxylabs',
        url: 'http://acct:***@127.0.0.1:7777',
        state: 'draining',
        weight: 300,
        costPerGbCents: 95,
        alarm: null,
        alarmAt: null,
        lastProbe: null,
      });
      // The 1.5 GB were carried at $1.20: still 180 cents (sources-cost-history.test.ts carries more).
      expect(byName(await list(), 'Oxylabs residential')?.totals).toMatchObject({
        costCents: 180,
        marginCents: 498 - 180,
      });
      const [entry] = (await get<AuditResponse>(`/api/admin/audit?targetId=${oxylabsId}`)).body.entries;
      expect(entry).toMatchObject({
        action: 'source.change',
        actorEmail: admin.email,
        targetType: 'source',
        reason,
        before: { weight: 100, state: 'active', costPerGbCents: 120, url: 'http://acct:***@127.0.0.1:7777' },
        after: { weight: 300, state: 'draining', costPerGbCents: 95 },
      });
      // A number of dollars reads as well as text; a source can be switched off with weight 0.
      const off = await patch(webshareId, { costPerGb: 0.6, weight: 0, state: 'off', reason });
      expect(off.body.source).toMatchObject({ costPerGbCents: 60, weight: 0, state: 'off' });
    });

    it('clears an alarm the gateway raised', async () => {
      const at = new Date('2025-01-02T03:04:05.000Z');
      await raiseSourceAlarm(server.database.db, {
        sourceId: webshareId,
        alarm: 'The network refused our account (407): check its credentials',
        at,
      });
      expect(byName(await list(), 'Webshare DC')).toMatchObject({
        alarm: 'The network refused our account (407): check its credentials',
        alarmAt: at.toISOString(),
      });
      const cleared = await patch(webshareId, { clearAlarm: true, reason: 'Rotated the password' });
      expect(cleared.status).toBe(200);
      expect(cleared.body.source).toMatchObject({ alarm: null, alarmAt: null, weight: 0, state: 'off' });
      const [entry] = (await get<AuditResponse>(`/api/admin/audit?targetId=${webshareId}`)).body.entries;
      expect(entry).toMatchObject({
        action: 'source.change',
        reason: 'Rotated the password',
        before: { alarm: 'The network refused our account (407): check its credentials' },
        after: { alarm: null },
      });
    });
  });

  it('never answers a vendor account password, in any route or the audit log', async () => {
    const answers = [
      JSON.stringify(await list()),
      JSON.stringify(await list('?days=30')),
      ...(await Promise.all(
        [oxylabsId, webshareId].map(async (id) =>
          JSON.stringify((await get(`/api/admin/sources/${id}/days`)).body),
        ),
      )),
      JSON.stringify((await patch(oxylabsId, { weight: 250, reason })).body),
      (await csv('?days=30')).text,
      JSON.stringify((await get('/api/admin/audit')).body),
    ];
    for (const answer of answers) {
      for (const secret of SECRETS) {
        expect(answer).not.toContain(secret);
      }
    }
    // The masked endpoints are there: the check above looked at real answers.
    expect(answers[0]).toContain('https://rs:***@127.0.0.1:8443');
  });
});
