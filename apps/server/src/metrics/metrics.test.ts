import { connect } from 'node:net';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { gatewayErrors } from '@bytegate/gateway';
import { freePort } from '@bytegate/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageFlushObserver } from '../gateway/db-gateway-store.ts';
import { buildApp } from '../http/app.ts';
import {
  buyDatacenterPlan,
  type GatewayFixture,
  startGatewayFixture,
  within,
} from '../testing/gateway-fixture.ts';
import { startTestServer } from '../testing/test-server.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { type MetricsServer, startMetricsServer } from './metrics-server.ts';

const TOKEN = 'metrics-test-token-0123456789';

/** Every sample of a Prometheus text exposition, keyed `name{labels as written}`. */
function parseExposition(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match?.[1] && match[2]) {
      samples.set(match[1], Number(match[2]));
    }
  }
  return samples;
}

/** A CONNECT to `target` through the gateway; after a 200, one request over the tunnel. */
function connectThrough(
  port: number,
  target: string,
  credentials: string,
): Promise<{ status: string; text: string; bytesRead: number; bytesWritten: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => {
      const auth = Buffer.from(credentials).toString('base64');
      socket.write(
        `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
      );
    });
    socket.once('data', (first: Buffer) => {
      if (first.toString('latin1').startsWith('HTTP/1.1 200')) {
        socket.write(`GET /?bytes=5000 HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`);
      }
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({
        status: text.split('\r\n')[0] ?? '',
        text,
        bytesRead: socket.bytesRead,
        bytesWritten: socket.bytesWritten,
      });
    });
  });
}

describe.each(testDatabaseKinds())('Prometheus metrics of a process running the gateway, on %s', (kind) => {
  let fixture: GatewayFixture;
  let metrics: Metrics;
  let metricsServer: MetricsServer;
  const scrapeUrl = () => `http://127.0.0.1:${metricsServer.port}/metrics`;
  const scrape = async () => {
    const response = await fetch(scrapeUrl(), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    return response.text();
  };

  beforeAll(async () => {
    // The store reports each usage write from the first second; the metrics exist just after.
    let observe: UsageFlushObserver = () => undefined;
    fixture = await startGatewayFixture(kind, { onUsageFlush: (flush) => observe(flush) });
    metrics = createMetrics({ db: fixture.server.database.db, gateway: () => fixture.gateway.stats() });
    observe = metrics.observeUsageFlush;
    metricsServer = await startMetricsServer({
      host: '127.0.0.1',
      port: 0,
      metrics,
      token: TOKEN,
      handlers: [
        (req, res) => {
          if (req.url !== '/healthz') {
            return false;
          }
          res.writeHead(200).end('ok');
          return true;
        },
      ],
    });
  });
  afterAll(async () => {
    await metricsServer?.close();
    await fixture?.close();
  });

  it('counts one accepted CONNECT and one refused exactly, and never labels a plan, login or address', async () => {
    const customer = await buyDatacenterPlan(fixture.server);
    await within(3000, async () => fixture.gateway.store.getPlanByLogin(customer.login) !== undefined);
    const target = new URL(fixture.originUrl).host;
    const before = parseExposition(await scrape());

    const accepted = await connectThrough(
      fixture.gateway.httpPort,
      target,
      `${customer.login}:${customer.password}`,
    );
    expect(accepted.status).toBe('HTTP/1.1 200 Connection Established');
    expect(accepted.text).toContain('bbbbb');
    const refused = await connectThrough(
      fixture.gateway.httpPort,
      target,
      `${customer.login}:wrong-password`,
    );
    expect(refused.status).toBe('HTTP/1.1 407 NO_USER');
    // The gateway's side of both has closed (metered) and the usage has been written once at least.
    await within(3000, async () => fixture.gateway.connections().open === 0);
    let after = new Map<string, number>();
    await within(5000, async () => {
      after = parseExposition(await scrape());
      return (
        (after.get('bytegate_usage_flush_seconds_count') ?? 0) >
        (before.get('bytegate_usage_flush_seconds_count') ?? 0)
      );
    });
    const moved = (name: string) => (after.get(name) ?? Number.NaN) - (before.get(name) ?? Number.NaN);

    expect(moved('bytegate_gateway_connections_total{protocol="connect"}')).toBe(2);
    expect(moved('bytegate_gateway_connections_total{protocol="http"}')).toBe(0);
    expect(moved('bytegate_gateway_connections_total{protocol="socks5"}')).toBe(0);
    for (const protocol of ['http', 'connect', 'socks5']) {
      expect(after.get(`bytegate_gateway_connections_open{protocol="${protocol}"}`)).toBe(0);
    }
    const refusals = [...after.keys()].filter((key) => key.startsWith('bytegate_gateway_refusals_total{'));
    expect(refusals.length).toBeGreaterThan(10);
    for (const key of refusals) {
      expect([key, moved(key)]).toEqual([key, key.includes('code="NO_USER"') ? 1 : 0]);
    }
    // What crossed the accepted client's socket, as billed; the refusal is not billed.
    expect(moved('bytegate_gateway_bytes_relayed_total{direction="from_client"}')).toBe(
      accepted.bytesWritten,
    );
    expect(moved('bytegate_gateway_bytes_relayed_total{direction="to_client"}')).toBe(accepted.bytesRead);
    expect(after.get('bytegate_usage_flush_failures_total')).toBe(0);
    expect(after.get('bytegate_usage_flush_seconds_sum')).toBeGreaterThan(0);

    const roundTrip = after.get('bytegate_database_roundtrip_seconds') ?? Number.NaN;
    expect(roundTrip).toBeGreaterThan(0);
    expect(roundTrip).toBeLessThan(2);
    expect(after.get('bytegate_database_roundtrip_failures_total')).toBe(0);
    expect(after.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(after.has('process_resident_memory_bytes')).toBe(true);
    expect([...after.keys()].some((key) => key.startsWith('bytegate_redis_'))).toBe(false);

    const text = await scrape();
    for (const secret of [customer.planId, customer.login, customer.email, '127.0.0.']) {
      expect(text).not.toContain(secret);
    }
    // Our own series carry only bounded labels (Node's defaults label handle types, GC kinds, versions).
    const bounded = new Set([
      'http',
      'connect',
      'socks5',
      'from_client',
      'to_client',
      ...Object.keys(gatewayErrors),
    ]);
    const ours = text.split('\n').filter((line) => line.startsWith('bytegate_'));
    const labels = ours.flatMap((line) =>
      [...line.matchAll(/(\w+)="([^"]*)"/g)].map(([, name, value]) => ({ name, value })),
    );
    expect(labels.length).toBeGreaterThan(20);
    expect(
      labels.filter(
        ({ name, value }) =>
          !(name === 'le' ? /^[\d.]+$|^\+Inf$/.test(value ?? '') : bounded.has(value ?? '')),
      ),
    ).toEqual([]);
  });

  it('asks for the bearer token on the metrics port, and hands other paths to the extra handlers', async () => {
    expect((await fetch(scrapeUrl())).status).toBe(401);
    const wrong = await fetch(scrapeUrl(), { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    const right = await fetch(scrapeUrl(), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
    expect(right.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const base = `http://127.0.0.1:${metricsServer.port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/other`)).status).toBe(404);
  });

  it('serves /metrics on the HTTP app only with METRICS_TOKEN set, and only to that bearer', async () => {
    const open = async (token: string | undefined) => {
      const config = { ...fixture.server.config, metrics: { port: undefined, host: '127.0.0.1', token } };
      const app = await buildApp({ config, db: fixture.server.database.db, metrics, logger: false });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      return { app, url: `http://127.0.0.1:${port}/metrics` };
    };
    const untokened = await open(undefined);
    try {
      const response = await fetch(untokened.url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('bytegate_');
    } finally {
      await untokened.app.close();
    }
    const tokened = await open(TOKEN);
    try {
      const anonymous = await fetch(tokened.url);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toEqual({
        error: 'Metrics need the bearer token (METRICS_TOKEN)',
        code: 'UNAUTHENTICATED',
      });
      const scraped = await fetch(tokened.url, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await scraped.text()).toContain('bytegate_gateway_connections_total{protocol="connect"}');
    } finally {
      await tokened.app.close();
    }
  });
});

// Redis's round trip is exported only by a process that has a Redis connection (REDIS_URL).
describe.runIf(process.env.TEST_REDIS_URL)('the Redis round trip', () => {
  it('is timed at each scrape while Redis answers, and NaN with a failure counted when it does not', async () => {
    const server = await startTestServer('pglite');
    const scrapeWith = async (redisUrl: string) => {
      const metrics = createMetrics({ db: server.database.db, roundTripTimeoutMs: 1000 });
      const config = { ...server.config, redisUrl };
      const app = await buildApp({ config, db: server.database.db, metrics, logger: false });
      try {
        return parseExposition((await metrics.render()).body);
      } finally {
        await app.close();
      }
    };
    try {
      const up = await scrapeWith(process.env.TEST_REDIS_URL ?? '');
      expect(up.get('bytegate_redis_roundtrip_seconds')).toBeGreaterThan(0);
      expect(up.get('bytegate_redis_roundtrip_seconds')).toBeLessThan(1);
      expect(up.get('bytegate_redis_roundtrip_failures_total')).toBe(0);
      const down = await scrapeWith(`redis://127.0.0.1:${await freePort()}`);
      expect(down.get('bytegate_redis_roundtrip_seconds')).toBeNaN();
      expect(down.get('bytegate_redis_roundtrip_failures_total')).toBe(1);
    } finally {
      await server.close();
    }
  });
});
