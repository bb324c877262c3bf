import type { AuditResponse } from '@bytegate/contracts/admin';
import { raiseSourceAlarm } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SECRETS,
  type SupplyFixture,
  startSupplyFixture,
  supplyCalls,
} from '../../../testing/supply-fixture.ts';

// The Supply page's changes (PATCH /api/admin/sources/:sourceId: weight, state, cost, alarms, audited) and
// the vendor passwords kept out of every answer; the reads are in sources.test.ts.

const SOME_UUID = '00000000-0000-4000-8000-000000000000';
const reason = 'Vendor renegotiated, ticket 512';

describe.each(testDatabaseKinds())('changing sources through the Supply page API on %s', (kind) => {
  let fixture: SupplyFixture;
  beforeAll(async () => {
    fixture = await startSupplyFixture(kind);
  });
  afterAll(async () => {
    await fixture?.server.close();
  });
  const { get, list, byName, patch, csv } = supplyCalls(() => fixture);

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
        const refused = await patch(fixture.oxylabsId, body);
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
      const changed = await patch(fixture.oxylabsId, {
        weight: 300,
        state: 'draining',
        costPerGb: '0.95',
        reason,
      });
      expect(changed.status).toBe(200);
      expect(changed.body.source).toEqual({
        id: fixture.oxylabsId,
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
      const [entry] = (await get<AuditResponse>(`/api/admin/audit?targetId=${fixture.oxylabsId}`)).body
        .entries;
      expect(entry).toMatchObject({
        action: 'source.change',
        actorEmail: fixture.admin.email,
        targetType: 'source',
        reason,
        before: { weight: 100, state: 'active', costPerGbCents: 120, url: 'http://acct:***@127.0.0.1:7777' },
        after: { weight: 300, state: 'draining', costPerGbCents: 95 },
      });
      // A number of dollars reads as well as text; a source can be switched off with weight 0.
      const off = await patch(fixture.webshareId, { costPerGb: 0.6, weight: 0, state: 'off', reason });
      expect(off.body.source).toMatchObject({ costPerGbCents: 60, weight: 0, state: 'off' });
    });

    it('clears an alarm the gateway raised', async () => {
      const at = new Date('2025-01-02T03:04:05.000Z');
      await raiseSourceAlarm(fixture.server.database.db, {
        sourceId: fixture.webshareId,
        alarm: 'The network refused our account (407): check its credentials',
        at,
      });
      expect(byName(await list(), 'Webshare DC')).toMatchObject({
        alarm: 'The network refused our account (407): check its credentials',
        alarmAt: at.toISOString(),
      });
      const cleared = await patch(fixture.webshareId, { clearAlarm: true, reason: 'Rotated the password' });
      expect(cleared.status).toBe(200);
      expect(cleared.body.source).toMatchObject({ alarm: null, alarmAt: null, weight: 0, state: 'off' });
      const [entry] = (await get<AuditResponse>(`/api/admin/audit?targetId=${fixture.webshareId}`)).body
        .entries;
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
        [fixture.oxylabsId, fixture.webshareId].map(async (id) =>
          JSON.stringify((await get(`/api/admin/sources/${id}/days`)).body),
        ),
      )),
      JSON.stringify((await patch(fixture.oxylabsId, { weight: 250, reason })).body),
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
