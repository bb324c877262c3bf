import { fileURLToPath } from 'node:url';
import { createGateway, type Gateway, InMemoryGatewayStore } from '@bytegate/gateway';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BENCH_LOGIN, BENCH_PASSWORD } from './config.ts';
import { buildNewconn, newconnLoad, startNewconnOrigin } from './newconn.ts';
import { stop } from './processes.ts';

// The short pass of bench:gateway that runs with every test run: its C load generator and origin build
// and run, and the gateway under test carries a second of new tunnels over CONNECT and SOCKS5 with auth,
// limits and metering on, without a single failure. The figures are the full bench's (npm run bench:gateway).

const tool = buildNewconn(fileURLToPath(new URL('./.cache', import.meta.url)));
let origin: Awaited<ReturnType<typeof startNewconnOrigin>> | undefined;
let gateway: Gateway;
let ports: { httpPort: number; socksPort: number | undefined };

describe.runIf('path' in tool)('bench:gateway, a short pass', () => {
  const path = 'path' in tool ? tool.path : '';
  beforeAll(async () => {
    origin = await startNewconnOrigin(path);
    const store = new InMemoryGatewayStore()
      .addPlan({
        planId: 'bench',
        login: BENCH_LOGIN,
        password: BENCH_PASSWORD,
        poolType: 'datacenter',
        threadLimit: 1000,
        trafficLeftBytes: 1024 ** 3,
        isActive: true,
      })
      .addExit({ id: 'local', kind: 'direct', poolType: 'datacenter', country: 'US', isRisky: false });
    gateway = createGateway(store, {
      host: '127.0.0.1',
      httpPort: 0,
      socksPort: 0,
      allowPrivateTargets: true,
      openPorts: new Set([origin.port]),
    });
    ports = await gateway.listen();
  });

  afterAll(async () => {
    await gateway?.close();
    stop(origin?.child);
  });

  it.each(['connect', 'socks'] as const)(
    'carries a second of new %s tunnels, none failing, each metered',
    async (kind) => {
      gateway.meter.drain();
      const result = await newconnLoad(
        path,
        {
          kind,
          port: (kind === 'socks' ? ports.socksPort : ports.httpPort) ?? 0,
          credentials: `${BENCH_LOGIN}:${BENCH_PASSWORD}`,
        },
        origin?.port ?? 0,
        10,
        1,
      );
      expect(result.errors).toBe(0);
      expect(result.requests).toBeGreaterThan(50);
      await expect.poll(() => gateway.threads.count('bench')).toBe(0);
      // Every tunnel was counted as a request of the plan (the last ones may still be closing).
      const usage = gateway.meter.drain().get('bench');
      expect(usage?.requests).toBeGreaterThanOrEqual(result.requests);
      expect(usage?.bytes).toBeGreaterThan(result.requests * 1024);
    },
  );

  it('is refused without credentials, as the bench would report', async () => {
    await expect(
      newconnLoad(path, { kind: 'connect', port: ports.httpPort }, origin?.port ?? 0, 2, 0.3),
    ).rejects.toThrow(/CONNECT refused/);
  });
});
