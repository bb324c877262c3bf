import { addUsage } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import { createUserViaApi, queryRows, startTestServer, type TestServer } from '../testing/test-server.ts';
import { pruneUsage } from './prune-usage.ts';

describe.each(testDatabaseKinds())('pruning usage on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  it('keeps 30 days of usage buckets, the proxy users’ too', async () => {
    const user = await createUserViaApi(server);
    const ctx = { db: server.database.db, config: server.config };
    await adjustBalance(ctx, { email: user.email, amountCents: 500, reason: 'test' });
    const bought = await server.request<{ plan: { subUserId: string } }>('POST', '/api/subuser/create', {
      token: user.token,
      body: { pool_type: 'datacenter', default_pool_parameters: { quantity: 5 } },
    });
    const planId = bought.body.plan.subUserId;
    const day = 24 * 60 * 60 * 1000;
    for (const daysAgo of [31, 29, 0]) {
      await addUsage(server.database.db, {
        planId,
        bucketStart: new Date(Date.now() - daysAgo * day),
        bytes: 1,
        extraBytes: 0,
        requests: 1,
        errors: 0,
      });
    }
    // A proxy user's hourly rows are kept as long.
    const [proxyUser] = await queryRows<{ id: string }>(
      server,
      `insert into proxy_users (plan_id, login, password) values ('${planId}', 'pruneuser1', 'x') returning id`,
    );
    for (const daysAgo of [31, 29, 0]) {
      await queryRows(
        server,
        `insert into proxy_user_usage (proxy_user_id, bucket_start, bytes)
         values ('${proxyUser?.id}', now() - interval '${daysAgo} days', 1)`,
      );
    }
    await pruneUsage(ctx);
    const rows = await queryRows(server, `select 1 from usage_buckets where plan_id = '${planId}'`);
    expect(rows).toHaveLength(2);
    const userRows = await queryRows(
      server,
      `select 1 from proxy_user_usage where proxy_user_id = '${proxyUser?.id}'`,
    );
    expect(userRows).toHaveLength(2);
  });

  it('forgets removed exits after a day, and tells gateways that were behind to read the whole inventory', async () => {
    const ctx = { db: server.database.db, config: server.config };
    await queryRows(
      server,
      `insert into exits (name, kind, pool_type, country) values ('prune-gone', 'direct', 'datacenter', 'DE')`,
    );
    await queryRows(server, `delete from exits where name = 'prune-gone'`);
    const [removal] = await queryRows<{ version: string }>(
      server,
      'select max(version) as version from exit_removals',
    );
    await pruneUsage(ctx);
    expect(await queryRows(server, 'select 1 from exit_removals')).not.toHaveLength(0);
    await pruneUsage(ctx, new Date(Date.now() + 25 * 60 * 60 * 1000));
    expect(await queryRows(server, 'select 1 from exit_removals')).toHaveLength(0);
    const [state] = await queryRows<{ through: string }>(
      server,
      'select removals_pruned_through as through from inventory_version',
    );
    expect(Number(state?.through)).toBe(Number(removal?.version));
  });
});
