import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyDatacenterPlan } from '../../../testing/gateway-fixture.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

// Usage through the public API (issue 17): by hour and day (UTC), by target host with cursor pages, and
// by error code, for a bounded period.

describe.each(testDatabaseKinds())('GET /api/v1/usage on %s', (kind) => {
  let server: TestServer;
  let secret: string;
  let planId: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    const customer = await buyDatacenterPlan(server);
    planId = customer.planId;
    const created = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token: customer.token,
      body: { name: 'stats', scopes: ['read'], password: customer.accountPassword },
    });
    secret = created.body.secret;
    // Two days of usage: 10:00 and 11:00 on the 1st, 09:00 on the 2nd (UTC).
    await queryRows(
      server,
      `insert into usage_buckets (plan_id, bucket_start, bytes, extra_bytes, requests, errors) values
       ('${planId}', '2026-11-01T10:00:00Z', 1000, 0, 10, 1),
       ('${planId}', '2026-11-01T11:00:00Z', 2000, 500, 20, 2),
       ('${planId}', '2026-11-02T09:00:00Z', 4000, 0, 40, 0)`,
    );
    await queryRows(
      server,
      `insert into usage_errors (plan_id, bucket_start, code, count) values
       ('${planId}', '2026-11-01T10:00:00Z', 'NO_HOST_CONNECTION', 1),
       ('${planId}', '2026-11-01T11:00:00Z', 'PORT_BLOCKED', 2)`,
    );
    const hosts = Array.from(
      { length: 25 },
      (_, i) =>
        `('${planId}', '2026-11-01T00:00:00Z', 'host${String(i).padStart(2, '0')}.example', ${1000 + (i % 5) * 100})`,
    );
    await queryRows(
      server,
      `insert into usage_hosts (plan_id, day_start, host, bytes) values ${hosts.join(',')}`,
    );
  });
  afterAll(async () => {
    await server.close();
  });

  const usage = (query: string) =>
    server.request<Record<string, unknown>>('GET', `/api/v1/usage?${query}`, { token: secret });

  it('answers a series by hour and by day, billed bytes with the 2x extra', async () => {
    const hourly = await usage('group_by=hour&from=2026-11-01T00:00:00Z&to=2026-11-03T00:00:00Z');
    expect(hourly.status).toBe(200);
    expect(hourly.body.series).toEqual([
      {
        start: '2026-11-01T10:00:00.000Z',
        bytes: 1000,
        extra_bytes: 0,
        billed_bytes: 1000,
        requests: 10,
        errors: 1,
      },
      {
        start: '2026-11-01T11:00:00.000Z',
        bytes: 2000,
        extra_bytes: 500,
        billed_bytes: 2500,
        requests: 20,
        errors: 2,
      },
      {
        start: '2026-11-02T09:00:00.000Z',
        bytes: 4000,
        extra_bytes: 0,
        billed_bytes: 4000,
        requests: 40,
        errors: 0,
      },
    ]);
    const daily = await usage(
      `group_by=day&from=2026-11-01T00:00:00Z&to=2026-11-03T00:00:00Z&plan_id=${planId}`,
    );
    expect(daily.body.series).toEqual([
      {
        start: '2026-11-01T00:00:00.000Z',
        bytes: 3000,
        extra_bytes: 500,
        billed_bytes: 3500,
        requests: 30,
        errors: 3,
      },
      {
        start: '2026-11-02T00:00:00.000Z',
        bytes: 4000,
        extra_bytes: 0,
        billed_bytes: 4000,
        requests: 40,
        errors: 0,
      },
    ]);
  });

  it('pages target hosts by bytes with a cursor, every host once; and counts errors by code', async () => {
    const seen: Array<{ host: string; bytes: number }> = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page += 1) {
      const answer = await usage(
        `group_by=host&from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&limit=10${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(answer.status).toBe(200);
      seen.push(...(answer.body.hosts as Array<{ host: string; bytes: number }>));
      cursor = answer.body.next_cursor as string | null;
      if (!cursor) {
        break;
      }
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen.map((row) => row.host)).size).toBe(25);
    const sorted = [...seen].sort((a, b) => b.bytes - a.bytes || a.host.localeCompare(b.host));
    expect(seen).toEqual(sorted);
    const errors = await usage('group_by=error&from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z');
    expect(errors.body.errors).toEqual([
      { code: 'PORT_BLOCKED', count: 2 },
      { code: 'NO_HOST_CONNECTION', count: 1 },
    ]);
  });

  it('bounds the period and names bad input', async () => {
    const long = await usage('group_by=hour&from=2026-10-01T00:00:00Z&to=2026-11-01T00:00:00Z');
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('The period may be at most 7 days by hour.');
    expect((await usage('group_by=week&from=2026-11-01T00:00:00Z')).body.error).toBe(
      'group_by must be hour, day, host or error.',
    );
    expect((await usage('group_by=day&from=yesterday')).status).toBe(400);
    expect((await usage('group_by=day&from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z')).body.error).toBe(
      'to must be after from.',
    );
    expect((await usage('group_by=host&from=2026-11-01T00:00:00Z&cursor=nonsense')).body.error).toBe(
      'cursor is not one this API gave out.',
    );
    const foreign = await usage(
      'group_by=day&from=2026-11-01T00:00:00Z&plan_id=00000000-0000-4000-8000-000000000000',
    );
    expect(foreign.status).toBe(404);
  });
});
