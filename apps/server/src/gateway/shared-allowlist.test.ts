import { request as httpRequest } from 'node:http';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyDatacenterPlan, type GatewayFixture, startGatewayFixture } from '../testing/gateway-fixture.ts';
import { queryRows } from '../testing/test-server.ts';

/** A forward request through the gateway with no credentials: the client address is all it has. */
function throughGateway(fixture: GatewayFixture): Promise<{ status: number; error: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: fixture.gateway.httpPort, path: `${fixture.originUrl}/`, agent: false },
      (response) => {
        let body = '';
        response.on('data', (chunk) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            error: String(response.headers['x-bytegate-error'] ?? ''),
            body,
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

// Audit issue 28, item 2: another account's allowlist must never take a customer's credential-less
// traffic. The tests' client is 127.0.0.1, which the victim proves by adding it from there; the
// attacker's entry for it is written as the API took one before (any public address, unproved).

describe.each(testDatabaseKinds())('an address another account allowlists, on %s', (kind) => {
  let fixture: GatewayFixture;
  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  const allowlistHere = (customer: { token: string; planId: string }) =>
    fixture.server.request('POST', '/api/subuser/allowlist', {
      token: customer.token,
      body: { subuser_id: customer.planId, address: '127.0.0.1' },
    });

  async function usedBytes(table: 'plans' | 'proxy_users', id: string): Promise<number> {
    const [row] = await queryRows<{ used: string }>(
      fixture.server,
      `select traffic_used_bytes as used from ${table} where id = '${id}'`,
    );
    return Number(row?.used ?? 0);
  }

  it("never admits or bills the victim's credential-less traffic as an attacker's proxy user", async () => {
    const victim = await buyDatacenterPlan(fixture.server);
    expect((await allowlistHere(victim)).status).toBe(201);
    expect((await throughGateway(fixture)).status).toBe(200);

    const attacker = await buyDatacenterPlan(fixture.server);
    const created = await fixture.server.request<{ proxy_user: { id: string } }>(
      'POST',
      `/api/plans/${attacker.planId}/proxy-users`,
      { token: attacker.token, body: { label: 'hijack' } },
    );
    expect(created.status).toBe(201);
    const proxyUserId = created.body.proxy_user.id;
    // The API refuses the victim's proved address to the attacker (allowlist-proof.test.ts); an entry
    // from before that rule is all an attacker could hold, and it was never proved.
    await queryRows(
      fixture.server,
      `update proxy_users set allowlist = '{127.0.0.1}' where id = '${proxyUserId}'`,
    );
    await queryRows(fixture.server, `update plans set updated_at = now() where id = '${attacker.planId}'`);
    await fixture.gateway.store.refresh();

    const before = await usedBytes('plans', victim.planId);
    for (let i = 0; i < 3; i++) {
      const answer = await throughGateway(fixture);
      expect(answer.status).toBe(200);
    }
    await fixture.gateway.flush();
    expect(await usedBytes('proxy_users', proxyUserId)).toBe(0);
    expect(await usedBytes('plans', attacker.planId)).toBe(0);
    expect(await usedBytes('plans', victim.planId)).toBeGreaterThan(before);

    // Nor can the attacker cut the victim off by disabling the proxy user.
    const disabled = await fixture.server.request('PATCH', `/api/proxy-users/${proxyUserId}`, {
      token: attacker.token,
      body: { enabled: false },
    });
    expect(disabled.status).toBe(200);
    expect((await throughGateway(fixture)).status).toBe(200);
    await queryRows(fixture.server, `delete from plan_allowlist where plan_id = '${victim.planId}'`);
    await queryRows(fixture.server, `update plans set updated_at = now() where id = '${victim.planId}'`);
    await fixture.gateway.store.refresh();
  });

  it('opens nothing where two accounts proved one address before the rule, and says why', async () => {
    const first = await buyDatacenterPlan(fixture.server);
    const second = await buyDatacenterPlan(fixture.server);
    expect((await allowlistHere(first)).status).toBe(201);
    expect((await throughGateway(fixture)).status).toBe(200);
    // Now refused to a second account; rows from before may still hold both proved.
    expect((await allowlistHere(second)).status).toBe(409);
    await queryRows(
      fixture.server,
      `insert into plan_allowlist (plan_id, address, is_verified) values ('${second.planId}', '127.0.0.1', true)`,
    );
    await queryRows(fixture.server, `update plans set updated_at = now() where id = '${second.planId}'`);
    await fixture.gateway.store.refresh();
    const refused = await throughGateway(fixture);
    expect(refused.status).toBe(407);
    expect(refused.error).toBe('NO_USER');
    expect(refused.body).toContain(
      'More than one account allowlists this address: send the proxy login and password',
    );
  });
});
