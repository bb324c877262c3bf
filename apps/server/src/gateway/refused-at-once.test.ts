import { connect } from 'node:net';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyDatacenterPlan, type GatewayFixture, startGatewayFixture } from '../testing/gateway-fixture.ts';

// "Refused at once" (docs/gateway.md "Revocation"): an API write that takes a credential away answers only once
// the gateway in the same process has read it, so the very next CONNECT (no sleep, no polling) with the
// old credential is refused, and the new one works.

const ROUNDS = 20;

describe.each(testDatabaseKinds())('a credential taken away over the API, on %s', (kind) => {
  let fixture: GatewayFixture;
  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
  });
  afterAll(async () => {
    await fixture?.close();
  });

  /** One CONNECT to the origin with `credentials`: the status line the gateway answered. */
  function connectStatus(credentials: string): Promise<string> {
    const target = new URL(fixture.originUrl).host;
    return new Promise((resolve, reject) => {
      const socket = connect(fixture.gateway.httpPort, '127.0.0.1', () => {
        socket.write(
          `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n\r\n`,
        );
      });
      socket.once('data', (chunk: Buffer) => {
        socket.destroy();
        resolve(chunk.toString('latin1').split('\r\n')[0] ?? '');
      });
      socket.once('error', reject);
    });
  }

  const OK = 'HTTP/1.1 200 Connection Established';
  const REFUSED = 'HTTP/1.1 407 NO_USER';

  it(`refuses a plan's old password on the very next CONNECT after a new one, ${ROUNDS} times over`, async () => {
    const customer = await buyDatacenterPlan(fixture.server);
    let password = customer.password;
    // The purchase's answer waited for the gateway too: the plan works on the first try.
    expect(await connectStatus(`${customer.login}:${password}`)).toBe(OK);
    for (let round = 0; round < ROUNDS; round++) {
      const answer = await fixture.server.request<{ password: string }>(
        'POST',
        '/api/subuser/regenerate-password',
        { token: customer.token, body: { subuser_id: customer.planId } },
      );
      expect(answer.status).toBe(200);
      expect(await connectStatus(`${customer.login}:${password}`)).toBe(REFUSED);
      password = answer.body.password;
      expect(await connectStatus(`${customer.login}:${password}`)).toBe(OK);
    }
  });

  it(`refuses a proxy user's old password at once after a new one, ${ROUNDS} times over, then a disable and a delete`, async () => {
    const customer = await buyDatacenterPlan(fixture.server);
    const created = await fixture.server.request<{
      proxy_user: { id: string; login: string; password: string };
    }>('POST', `/api/plans/${customer.planId}/proxy-users`, {
      token: customer.token,
      body: { label: 'rotated' },
    });
    expect(created.status).toBe(201);
    const { id, login } = created.body.proxy_user;
    let password = created.body.proxy_user.password;
    expect(await connectStatus(`${login}:${password}`)).toBe(OK);
    for (let round = 0; round < ROUNDS; round++) {
      const answer = await fixture.server.request<{ proxy_user: { password: string } }>(
        'POST',
        `/api/proxy-users/${id}/regenerate-password`,
        { token: customer.token },
      );
      expect(answer.status).toBe(200);
      expect(await connectStatus(`${login}:${password}`)).toBe(REFUSED);
      password = answer.body.proxy_user.password;
      expect(await connectStatus(`${login}:${password}`)).toBe(OK);
    }

    const disabled = await fixture.server.request('PATCH', `/api/proxy-users/${id}`, {
      token: customer.token,
      body: { enabled: false },
    });
    expect(disabled.status).toBe(200);
    expect(await connectStatus(`${login}:${password}`)).toBe(REFUSED);
    const enabled = await fixture.server.request('PATCH', `/api/proxy-users/${id}`, {
      token: customer.token,
      body: { enabled: true },
    });
    expect(enabled.status).toBe(200);
    expect(await connectStatus(`${login}:${password}`)).toBe(OK);

    const deleted = await fixture.server.request('DELETE', `/api/proxy-users/${id}`, {
      token: customer.token,
    });
    expect(deleted.status).toBe(204);
    expect(await connectStatus(`${login}:${password}`)).toBe(REFUSED);
  });
});
