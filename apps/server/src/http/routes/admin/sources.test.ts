import type { SourceDaysResponse } from '@bytegate/contracts/admin-supply';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dayAgo,
  GB,
  isoDay,
  type SupplyFixture,
  startSupplyFixture,
  supplyCalls,
} from '../../../testing/supply-fixture.ts';

// The Supply page's reads (who may call, the figures over 7 and 30 days, a source day by day, the CSV);
// its changes are in sources-change.test.ts.

const SOME_UUID = '00000000-0000-4000-8000-000000000000';
const reason = 'Vendor renegotiated, ticket 512';

describe.each(testDatabaseKinds())('the Supply page API on %s', (kind) => {
  let fixture: SupplyFixture;
  beforeAll(async () => {
    fixture = await startSupplyFixture(kind);
  });
  afterAll(async () => {
    await fixture?.server.close();
  });
  const { get, list, byName, patch, csv } = supplyCalls(() => fixture);

  describe('who may call each route', () => {
    it('answers a customer 403 on every route, and support 403 on the change', async () => {
      const routes: Array<[string, string]> = [
        ['GET', '/api/admin/sources'],
        ['GET', '/api/admin/sources.csv'],
        ['GET', `/api/admin/sources/${fixture.oxylabsId}/days`],
        ['PATCH', `/api/admin/sources/${fixture.oxylabsId}`],
      ];
      for (const [method, path] of routes) {
        const body = method === 'PATCH' ? { weight: 1, reason } : undefined;
        const refused = await fixture.server.request(method, path, { token: fixture.customer.token, body });
        expect({ path, status: refused.status, body: refused.body }).toEqual({
          path,
          status: 403,
          body: { error: 'This area is for Bytegate staff only', code: 'FORBIDDEN' },
        });
        const anonymous = await fixture.server.request(method, path, { body });
        expect({ path, status: anonymous.status }).toEqual({ path, status: 401 });
      }
      const bySupport = await patch(fixture.oxylabsId, { weight: 1, reason }, fixture.support.token);
      expect(bySupport.status).toBe(403);
      expect(bySupport.body).toEqual({
        error: 'Only an admin may do this: support may read the sources, not change them',
        code: 'FORBIDDEN',
      });
      // Nothing changed.
      expect(byName(await list(), 'Oxylabs residential')?.weight).toBe(100);
    });

    it('lets support and admins read', async () => {
      for (const token of [fixture.support.token, fixture.admin.token]) {
        expect((await get('/api/admin/sources', token)).status).toBe(200);
        expect((await get(`/api/admin/sources/${fixture.webshareId}/days`, token)).status).toBe(200);
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
        id: fixture.oxylabsId,
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
      const answer = await get<SourceDaysResponse>(`/api/admin/sources/${fixture.oxylabsId}/days?days=30`);
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
});
