import type { AuditResponse } from '@bytegate/contracts/admin';
import type {
  ImportVendorUsageResponse,
  ReconciliationResponse,
} from '@bytegate/contracts/admin-supply-reconciliation';
import { addSourceUsage } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../../services/back-office/staff-actor.ts';
import { addSource } from '../../../services/supply/sources.ts';
import { createUserWithRole } from '../../../testing/staff.ts';
import { startTestServer, type TestServer } from '../../../testing/test-server.ts';

type User = Awaited<ReturnType<typeof createUserWithRole>>;
type Answer = ImportVendorUsageResponse &
  ReconciliationResponse & { error: string; code: string; problems?: unknown };

const GB = 1024 ** 3;
const DAY_MS = 24 * 60 * 60 * 1000;
const SOME_UUID = '00000000-0000-4000-8000-000000000000';
const reason = 'March invoice from Oxylabs';

/** UTC midnight `daysAgo` days before today, as the gateway writes a source's day, and its date. */
const dayAgo = (daysAgo: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS);
const dateAgo = (daysAgo: number) => dayAgo(daysAgo).toISOString().slice(0, 10);

/**
 * The vendor's export: bytes, GiB and a decimal GB in a unit column, and a Total row. Against our count
 * at $1.20 a GB: 5 days ago we carried nothing and the vendor 1 GB (10^9 bytes); 3 days ago both 2 GiB;
 * 2 days ago the vendor 4.2 GiB against our 4 (+5.00%: flagged); yesterday 1.01 GiB against 1 (+1.00%).
 */
const exportCsv = [
  'Date,Traffic,Unit',
  `${dateAgo(5)},1,GB`,
  `${dateAgo(3)},2147483648,B`,
  `${dateAgo(2)},4.2,GiB`,
  `${dateAgo(1)},1.01,GiB`,
  'Total,,',
].join('\n');

describe.each(testDatabaseKinds())('the reconciliation API on %s', (kind) => {
  let server: TestServer;
  let customer: User;
  let support: User;
  let admin: User;
  let oxylabsId: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    customer = await createUserWithRole(server, 'customer');
    support = await createUserWithRole(server, 'support');
    admin = await createUserWithRole(server, 'admin');
    const ctx = { db: server.database.db, config: server.config };
    oxylabsId = (
      await addSource(ctx, {
        input: {
          name: 'Oxylabs residential',
          pool: 'residential',
          grammar: 'oxylabs',
          url: 'http://acct:S3cretPass@127.0.0.1:7777',
          costPerGb: '1.20',
        },
        actor: CLI_ACTOR,
      })
    ).id;
    for (const [daysAgo, carriedBytes] of [
      [3, 2 * GB],
      [2, 4 * GB],
      [1, GB],
      [0, 3 * GB],
    ] as const) {
      await addSourceUsage(server.database.db, {
        day: dayAgo(daysAgo),
        deltas: [{ sourceId: oxylabsId, carriedBytes, billedBytes: carriedBytes }],
      });
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const path = (sourceId = oxylabsId) => `/api/admin/sources/${sourceId}/reconciliation`;
  const get = (query = '', token = support.token, sourceId = oxylabsId) =>
    server.request<Answer>('GET', `${path(sourceId)}${query}`, { token });
  const post = (body: object, token = admin.token, sourceId = oxylabsId) =>
    server.request<Answer>('POST', path(sourceId), { token, body });

  it('answers a customer 403 and the anonymous 401 on both routes, support 403 on the import', async () => {
    for (const method of ['GET', 'POST']) {
      const body = method === 'POST' ? { content: exportCsv, reason } : undefined;
      const refused = await server.request(method, path(), { token: customer.token, body });
      expect({ method, status: refused.status, body: refused.body }).toEqual({
        method,
        status: 403,
        body: { error: 'This area is for Bytegate staff only', code: 'FORBIDDEN' },
      });
      expect((await server.request(method, path(), { body })).status).toBe(401);
    }
    const bySupport = await post({ content: exportCsv, reason }, support.token);
    expect(bySupport.status).toBe(403);
    expect(bySupport.body).toEqual({
      error: 'Only an admin may do this: support may read the sources, not change them',
      code: 'FORBIDDEN',
    });
    expect((await get()).body.totals.days).toBe(0);
  });

  it('reads every day of the range with no vendor figure before an import, and refuses a bad range or id', async () => {
    const answer = await get('?days=7');
    expect(answer.status).toBe(200);
    expect(answer.body.range).toEqual({ days: 7, from: dateAgo(6), to: dateAgo(0) });
    expect(answer.body.tolerancePct).toBe(2);
    expect(answer.body.source).toMatchObject({ id: oxylabsId, url: 'http://acct:***@127.0.0.1:7777' });
    expect(answer.body.days).toHaveLength(7);
    expect(answer.body.days.at(-1)).toEqual({
      date: dateAgo(0),
      carriedBytes: 3 * GB,
      vendorBytes: null,
      differenceBytes: null,
      differencePct: null,
      differenceCostCents: null,
      isFlagged: false,
      importedAt: null,
      importedBy: null,
    });
    expect((await get()).body.days).toHaveLength(30);
    for (const query of ['?days=0', '?days=367', '?days=abc']) {
      const refused = await get(query);
      expect({ query, status: refused.status, body: refused.body }).toEqual({
        query,
        status: 400,
        body: { error: 'Days must be a whole number from 1 to 366', code: 'VALIDATION_FAILED' },
      });
    }
    expect((await get('', support.token, 'not-a-uuid')).status).toBe(400);
    const unknown = await get('', support.token, SOME_UUID);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'No such source', code: 'NOT_FOUND' });
    expect((await post({ content: exportCsv, reason }, admin.token, SOME_UUID)).status).toBe(404);
  });

  it('refuses a bad import with every problem by line, and stores nothing', async () => {
    const bad = [
      'Date,Traffic (GB)',
      `${dateAgo(2)},1.5`,
      `${dateAgo(1)},-2`,
      'yesterday,1',
      '2999-01-01,1',
    ].join('\n');
    const refused = await post({ content: bad, reason });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'Nothing was imported: 3 lines have problems',
      code: 'VALIDATION_FAILED',
      problems: [
        { line: 3, message: 'traffic must not be negative (-2)' },
        { line: 4, message: '"yesterday" is not a day, such as 2025-03-01' },
        { line: 5, message: `2999-01-01 is in the future (today is ${dateAgo(0)}, UTC)` },
      ],
    });
    const noColumns = await post({ content: 'Day,Requests\n2025-01-01,5\n', reason });
    expect(noColumns.body).toEqual({
      error:
        'Nothing was imported: the header must name a date column (Date or Day) and a traffic column (Bytes, or Traffic, Usage or Bandwidth with a unit, such as Traffic (GB)): none of its 2 lines does',
      code: 'VALIDATION_FAILED',
    });
    const cases: Array<[object, string]> = [
      [{ content: exportCsv }, 'Reason is required'],
      [{ content: exportCsv, reason: 'no' }, 'Reason must be at least 3 characters'],
      [{ content: '', reason }, 'The file is empty'],
      [{ content: exportCsv, reason, units: 'metric' }, 'Units must be decimal or binary'],
      [{ content: exportCsv, reason, dateOrder: 'ymd' }, 'Date order must be mdy or dmy'],
      [{ content: exportCsv, reason, decimalMark: 'dot' }, 'Decimal mark must be point or comma'],
      [
        { content: 'Date,Bytes\n\u0000', reason },
        'Content must not contain control characters (such as NUL)',
      ],
    ];
    for (const [body, error] of cases) {
      const answer = await post(body);
      expect({ body, status: answer.status, answer: answer.body }).toEqual({
        body,
        status: 400,
        answer: { error, code: 'VALIDATION_FAILED' },
      });
    }
    expect((await get()).body.totals.days).toBe(0);
  });

  it('imports an export, flags the days over 2%, prices each difference at the day’s cost, and audits it', async () => {
    const answer = await post({ content: exportCsv, reason });
    expect(answer.status).toBe(201);
    expect(answer.body.imported).toEqual({
      rows: 4,
      skipped: 1,
      days: 4,
      replaced: 0,
      from: dateAgo(5),
      to: dateAgo(1),
    });
    const { reconciliation } = answer.body;
    expect(reconciliation.range).toEqual({ days: 5, from: dateAgo(5), to: dateAgo(1) });
    const compared = reconciliation.days.map(({ importedAt, importedBy, ...day }) => day);
    expect(compared).toEqual([
      // We carried nothing: flagged, priced at the cost now (10^9 bytes × $1.20 = 111.76 cents).
      {
        date: dateAgo(5),
        carriedBytes: 0,
        vendorBytes: 1_000_000_000,
        differenceBytes: 1_000_000_000,
        differencePct: null,
        differenceCostCents: 112,
        isFlagged: true,
      },
      {
        date: dateAgo(4),
        carriedBytes: 0,
        vendorBytes: null,
        differenceBytes: null,
        differencePct: null,
        differenceCostCents: null,
        isFlagged: false,
      },
      {
        date: dateAgo(3),
        carriedBytes: 2 * GB,
        vendorBytes: 2 * GB,
        differenceBytes: 0,
        differencePct: 0,
        differenceCostCents: 0,
        isFlagged: false,
      },
      // 4.2 GiB is 4,509,715,660.8 bytes: 4,509,715,661. +214,748,365 bytes × $1.20 = 24.00 cents.
      {
        date: dateAgo(2),
        carriedBytes: 4 * GB,
        vendorBytes: 4_509_715_661,
        differenceBytes: 214_748_365,
        differencePct: 5,
        differenceCostCents: 24,
        isFlagged: true,
      },
      // +0.99999998%: within 2%; 1.19999997 cents.
      {
        date: dateAgo(1),
        carriedBytes: GB,
        vendorBytes: 1_084_479_242,
        differenceBytes: 10_737_418,
        differencePct: 1,
        differenceCostCents: 1,
        isFlagged: false,
      },
    ]);
    expect(reconciliation.days[0]).toMatchObject({ importedBy: admin.email, importedAt: expect.any(String) });
    expect(reconciliation.totals).toEqual({
      days: 4,
      flaggedDays: 2,
      carriedBytes: 7 * GB,
      vendorBytes: 8_741_678_551,
      differenceBytes: 1_225_485_783,
      differencePct: 16.3,
      differenceCostCents: 137,
    });

    const [entry] = (
      await server.request<AuditResponse>('GET', `/api/admin/audit?targetId=${oxylabsId}`, {
        token: support.token,
      })
    ).body.entries;
    expect(entry).toMatchObject({
      action: 'source.reconcile',
      actorEmail: admin.email,
      targetType: 'source',
      reason,
      before: {
        vendorBytes: { [dateAgo(5)]: null, [dateAgo(3)]: null, [dateAgo(2)]: null, [dateAgo(1)]: null },
      },
      after: {
        name: 'Oxylabs residential',
        vendorBytes: { [dateAgo(5)]: 1_000_000_000, [dateAgo(2)]: 4_509_715_661 },
        rows: 4,
        skipped: 1,
        columns: { date: 'Date', traffic: 'Traffic', unit: 'Unit' },
        units: 'decimal',
      },
    });
  });

  it('replaces a day imported again, audited with the figure before; the reads show it again', async () => {
    // The vendor corrected the day 2 days ago: 4 GiB and 64 MiB (+1.5625%, within 2%), as 4.160 MiB in
    // a ;-separated export that the decimal mark settles (4,160 MiB, not 4.16).
    const answer = await post({
      content: `Day;Traffic (MiB)\n${dateAgo(2)};4.160\n`,
      decimalMark: 'comma',
      reason: 'Corrected export',
    });
    expect(answer.status).toBe(201);
    expect(answer.body.imported).toMatchObject({ days: 1, replaced: 1 });
    expect(answer.body.reconciliation.days).toEqual([
      expect.objectContaining({
        date: dateAgo(2),
        differencePct: 1.56,
        isFlagged: false,
        differenceCostCents: 8,
      }),
    ]);
    const [entry] = (
      await server.request<AuditResponse>('GET', `/api/admin/audit?targetId=${oxylabsId}`, {
        token: admin.token,
      })
    ).body.entries;
    expect(entry).toMatchObject({
      reason: 'Corrected export',
      before: { vendorBytes: { [dateAgo(2)]: 4_509_715_661 } },
      after: { vendorBytes: { [dateAgo(2)]: 4 * GB + 64 * 1024 ** 2 }, decimalMark: 'comma' },
    });

    // Support reads the last 7 days: the day 5 days ago is still flagged, the corrected one no longer.
    const week = await get('?days=7');
    expect(week.body.totals).toMatchObject({ days: 4, flaggedDays: 1 });
    expect(week.body.days.filter((day) => day.isFlagged).map((day) => day.date)).toEqual([dateAgo(5)]);
  });
});
