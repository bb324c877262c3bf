import { request as httpRequest } from 'node:http';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyDatacenterPlan,
  type GatewayFixture,
  startGatewayFixture,
  within,
} from '../testing/gateway-fixture.ts';

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

describe.each(testDatabaseKinds())('an address more than one customer allowlists, on %s', (kind) => {
  let fixture: GatewayFixture;
  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  const allowlist = (customer: { token: string; planId: string }, method: 'POST' | 'DELETE') =>
    method === 'POST'
      ? fixture.server.request('POST', '/api/subuser/allowlist', {
          token: customer.token,
          body: { subuser_id: customer.planId, address: '127.0.0.1' },
        })
      : fixture.server.request(
          'DELETE',
          `/api/subuser/allowlist?subuser_id=${customer.planId}&address=127.0.0.1`,
          { token: customer.token },
        );

  it('opens no plan without credentials, says why, and opens the one left when the other goes', async () => {
    const first = await buyDatacenterPlan(fixture.server);
    const second = await buyDatacenterPlan(fixture.server);
    expect((await allowlist(first, 'POST')).status).toBe(201);
    await within(2000, async () => (await throughGateway(fixture)).status === 200);

    // The second customer is behind the same address (both requests come from 127.0.0.1): neither
    // may now be billed for the other's traffic.
    expect((await allowlist(second, 'POST')).status).toBe(201);
    await within(2000, async () => (await throughGateway(fixture)).status === 407);
    const refused = await throughGateway(fixture);
    expect(refused.error).toBe('NO_USER');
    expect(refused.body).toContain(
      'More than one account allowlists this address: send the proxy login and password',
    );

    expect((await allowlist(first, 'DELETE')).status).toBe(200);
    await within(2000, async () => (await throughGateway(fixture)).status === 200);
  });
});
