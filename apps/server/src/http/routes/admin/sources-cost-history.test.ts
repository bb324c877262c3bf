import type { SourceDaysResponse, SupplyResponse } from '@bytegate/contracts/admin-supply';
import type { ImportVendorUsageResponse } from '@bytegate/contracts/admin-supply-reconciliation';
import { addSourceUsage } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../../services/back-office/staff-actor.ts';
import { addSource } from '../../../services/supply/sources.ts';
import { createUserWithRole } from '../../../testing/staff.ts';
import { startTestServer, type TestServer } from '../../../testing/test-server.ts';

const GB = 1024 ** 3;
const DAY_MS = 24 * 60 * 60 * 1000;
const dayAgo = (daysAgo: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS);
const dateAgo = (daysAgo: number) => dayAgo(daysAgo).toISOString().slice(0, 10);

// A source's cost per GB changes: what it carried before keeps the cost it was carried at, to the cent,
// on the Supply page, its days, its CSV and its reconciliation, even when the change falls mid-day. Each
// usage write (the gateway's flush; here the same query) prices its bytes at the cost in force then.
describe.each(testDatabaseKinds())('cost history on %s', (kind) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof createUserWithRole>>;
  let sourceId: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await createUserWithRole(server, 'admin');
    const ctx = { db: server.database.db, config: server.config };
    sourceId = (
      await addSource(ctx, {
        input: {
          name: 'Decodo mobile',
          pool: 'mobile',
          grammar: 'decodo',
          url: 'http://acct:Secret7@127.0.0.1:7000',
          costPerGb: '2.00',
        },
        actor: CLI_ACTOR,
      })
    ).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const carry = (daysAgo: number, bytes: number) =>
    addSourceUsage(server.database.db, {
      day: dayAgo(daysAgo),
      deltas: [{ sourceId, carriedBytes: bytes, billedBytes: bytes }],
    });
  const setCost = async (costPerGb: string) => {
    const answer = await server.request('PATCH', `/api/admin/sources/${sourceId}`, {
      token: admin.token,
      body: { costPerGb, reason: 'New contract with Decodo' },
    });
    expect(answer.status).toBe(200);
  };
  const totals = async () => {
    const answer = await server.request<SupplyResponse>('GET', '/api/admin/sources?days=7', {
      token: admin.token,
    });
    return answer.body.sources.find((source) => source.id === sourceId)?.totals;
  };
  const costOfDays = async () => {
    const answer = await server.request<SourceDaysResponse>(
      'GET',
      `/api/admin/sources/${sourceId}/days?days=7`,
      {
        token: admin.token,
      },
    );
    return answer.body.days.slice(-2).map((day) => [day.date, day.costCents, day.marginCents]);
  };

  it('keeps past days at their cost when the cost changes, and prices a day split by a change exactly', async () => {
    // Yesterday 1 GB and this morning half a GB at $2.00; then $1.50, and half a GB more today.
    await carry(1, GB);
    await carry(0, GB / 2);
    await setCost('1.50');
    await carry(0, GB / 2);
    // Yesterday $2.00; today 100 + 75 cents. Revenue: 2 GB at the mobile pool's $3.99.
    expect(await totals()).toMatchObject({
      carriedBytes: 2 * GB,
      costCents: 375,
      revenueCents: 798,
      marginCents: 423,
    });
    expect(await costOfDays()).toEqual([
      [dateAgo(1), 200, 399 - 200],
      [dateAgo(0), 175, 399 - 175],
    ]);

    // A later change prices nothing carried before it.
    await setCost('3.00');
    expect(await totals()).toMatchObject({ costCents: 375, marginCents: 423 });
    // A quarter of a GB at $3.00 now: 75 cents, today 250.
    await carry(0, GB / 4);
    expect(await costOfDays()).toEqual([
      [dateAgo(1), 200, 399 - 200],
      // 1.25 GB billed at $3.99 is 498.75 cents: 499; 175 + 75 = 250.
      [dateAgo(0), 250, 499 - 250],
    ]);

    const csv = await fetch(`${server.url}/api/admin/sources.csv?days=7`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const rows = (await csv.text()).split('\r\n').filter((line) => line.includes('Decodo mobile'));
    expect(rows.slice(-2)).toEqual([
      `${dateAgo(1)},Decodo mobile,mobile,1,1,3.99,2,1.99,,`,
      `${dateAgo(0)},Decodo mobile,mobile,1.25,1.25,4.99,2.5,2.49,,`,
    ]);
  });

  it('prices a reconciled difference at the day’s own cost, not the cost now', async () => {
    // Yesterday's GB cost $2.00: an eighth of a GB more at the vendor is 25 cents, though a GB is $3.00 now.
    const answer = await server.request<ImportVendorUsageResponse>(
      'POST',
      `/api/admin/sources/${sourceId}/reconciliation`,
      {
        token: admin.token,
        body: { content: `Date,Bytes\n${dateAgo(1)},${GB + GB / 8}\n`, reason: 'Decodo statement' },
      },
    );
    expect(answer.status).toBe(201);
    expect(answer.body.reconciliation.days).toEqual([
      expect.objectContaining({
        differenceBytes: GB / 8,
        differencePct: 12.5,
        differenceCostCents: 25,
        isFlagged: true,
      }),
    ]);
  });
});
