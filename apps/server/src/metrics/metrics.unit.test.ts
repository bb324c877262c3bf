import { createGatewayCounters, gatewayErrors } from '@bytegate/gateway';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { gatewaySamples } from './gateway-samples.ts';
import { hasMetricsToken } from './metrics-access.ts';
import { createRoundTripProbe } from './round-trip.ts';

describe('gatewaySamples', () => {
  it('labels only protocols, catalogue codes and directions, each with its counter, zeros included', () => {
    const counters = createGatewayCounters();
    counters.connectionsOpen.connect = 2;
    counters.connectionsTotal.socks5 = 7;
    counters.refusals.THREADS_EXHAUSTED = 3;
    // A key outside the catalogue (a bug elsewhere) must never turn into a label.
    (counters.refusals as Record<string, number>)['plan-7f3a'] = 9;
    const samples = gatewaySamples({
      ...counters,
      relayed: { fromClientBytes: 100, toClientBytes: 2500 },
      authenticating: 1,
    });
    expect(samples.connectionsOpen).toEqual([
      { labels: { protocol: 'http' }, value: 0 },
      { labels: { protocol: 'connect' }, value: 2 },
      { labels: { protocol: 'socks5' }, value: 0 },
    ]);
    expect(samples.connectionsTotal.find((s) => s.labels.protocol === 'socks5')?.value).toBe(7);
    expect(samples.refusals.map((s) => s.labels.code)).toEqual(Object.keys(gatewayErrors));
    expect(samples.refusals.find((s) => s.labels.code === 'THREADS_EXHAUSTED')?.value).toBe(3);
    expect(samples.refusals.reduce((sum, s) => sum + s.value, 0)).toBe(3);
    expect(samples.bytesRelayed).toEqual([
      { labels: { direction: 'from_client' }, value: 100 },
      { labels: { direction: 'to_client' }, value: 2500 },
    ]);
  });
});

describe('hasMetricsToken', () => {
  const token = 'a-long-random-metrics-token';
  it.each([
    [`Bearer ${token}`, true],
    [`bearer ${token}`, true],
    [`Bearer ${token} `, true],
    [undefined, false],
    ['', false],
    [token, false],
    [`Basic ${token}`, false],
    [`Bearer ${token}x`, false],
    [`Bearer ${token.slice(0, -1)}`, false],
    ['Bearer ', false],
    [`Bearer ${token} extra`, false],
  ])('%s -> %s', (header, expected) => {
    expect(hasMetricsToken(header, token)).toBe(expected);
  });
});

describe('createRoundTripProbe', () => {
  it('answers the seconds of a round trip that answered', async () => {
    const probe = createRoundTripProbe(() => new Promise((resolve) => setTimeout(resolve, 30)), 1000);
    const seconds = await probe();
    expect(seconds).toBeGreaterThanOrEqual(0.025);
    expect(seconds).toBeLessThan(1);
  });

  it('answers null for a failure', async () => {
    const probe = createRoundTripProbe(() => Promise.reject(new Error('refused')), 1000);
    expect(await probe()).toBeNull();
  });

  it('answers null after the timeout, and starts no second one while the first hangs', async () => {
    let calls = 0;
    let answer: () => void = () => undefined;
    const probe = createRoundTripProbe(() => {
      calls += 1;
      return new Promise<void>((resolve) => {
        answer = resolve;
      });
    }, 50);
    const started = Date.now();
    expect(await probe()).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(await probe()).toBeNull();
    expect(calls).toBe(1);
    answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const next = probe();
    answer();
    expect(await next).toBeTypeOf('number');
    expect(calls).toBe(2);
  });
});

describe('metrics settings', () => {
  it('serve nothing by default, and the metrics port on loopback', () => {
    expect(loadConfig({}).metrics).toEqual({ port: undefined, host: '127.0.0.1', token: undefined });
  });

  it('read METRICS_PORT, METRICS_HOST and METRICS_TOKEN', () => {
    const config = loadConfig({
      METRICS_PORT: '9464',
      METRICS_HOST: '10.0.0.5',
      METRICS_TOKEN: 'sixteen-chars-ok',
    });
    expect(config.metrics).toEqual({ port: 9464, host: '10.0.0.5', token: 'sixteen-chars-ok' });
  });

  it('refuse a short token and a bad port, naming them', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16/);
    expect(() => loadConfig({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT/);
  });
});
