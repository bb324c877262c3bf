import { statsMessages } from '@bytegate/contracts/stats';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSource } from '../../../services/stats/live-source.ts';
import { createUserViaApi, startTestServer, type TestServer } from '../../../testing/test-server.ts';

/** One open live stream, read as a streaming client does: its events as they come, and its end. */
async function openStream(server: TestServer, token: string) {
  const controller = new AbortController();
  const response = await fetch(`${server.url}/api/stats/live`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  let events = 0;
  let endedAt: number | null = null;
  if (response.status === 200 && response.body) {
    const reader = response.body.getReader();
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) {
            break;
          }
          events += Buffer.from(value).toString('utf8').split('event: live\n').length - 1;
        }
      } catch {
        // aborted by the test
      }
      endedAt = Date.now();
    })();
  }
  return {
    response,
    events: () => events,
    endedAt: () => endedAt,
    close: () => controller.abort(),
  };
}

const waitFor = async (isDone: () => boolean, ms: number) => {
  const until = Date.now() + ms;
  while (!isDone() && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return isDone();
};

describe.each(testDatabaseKinds())('GET /api/stats/live: bounded streams, on %s', (kind) => {
  let server: TestServer;
  /** The gateway's counters, counted: the live view's shared read per tick. */
  let counterReads = 0;
  const source: LiveSource = {
    scope: 'local',
    plans: async () => {
      counterReads += 1;
      return new Map();
    },
  };
  beforeAll(async () => {
    server = await startTestServer(kind, {}, { liveStats: () => source });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 401 without a session', async () => {
    expect((await fetch(`${server.url}/api/stats/live`)).status).toBe(401);
  });

  it('holds at most 5 streams per account: the 6th is 429 with a clear message, and one closed makes room', async () => {
    const { token } = await createUserViaApi(server);
    const streams: Array<Awaited<ReturnType<typeof openStream>>> = [];
    for (let i = 0; i < 5; i++) {
      streams.push(await openStream(server, token));
    }
    expect(streams.map((stream) => stream.response.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await openStream(server, token);
    expect(sixth.response.status).toBe(429);
    expect(await sixth.response.json()).toEqual({
      error: statsMessages.liveStreamsLimit,
      code: 'RATE_LIMITED',
    });
    // Another account is not held by this one's streams.
    const other = await openStream(server, (await createUserViaApi(server)).token);
    expect(other.response.status).toBe(200);
    other.close();
    streams[0]?.close();
    expect(await waitFor(() => streams[0]?.endedAt() !== null, 2000)).toBe(true);
    let again = await openStream(server, token);
    for (let i = 0; i < 20 && again.response.status === 429; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      again = await openStream(server, token);
    }
    expect(again.response.status).toBe(200);
    again.close();
    for (const stream of streams) {
      stream.close();
    }
  });

  it("an account's 5 streams share one read per tick", async () => {
    const { token } = await createUserViaApi(server);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const before = counterReads;
    const streams = await Promise.all([1, 2, 3, 4, 5].map(() => openStream(server, token)));
    expect(await waitFor(() => streams.every((stream) => stream.events() >= 1), 3000)).toBe(true);
    // The first event of every stream came from one read.
    expect(counterReads - before).toBe(1);
    const atFirst = counterReads;
    const eventsAtFirst = streams.map((stream) => stream.events());
    expect(
      await waitFor(() => streams.every((stream, i) => stream.events() >= (eventsAtFirst[i] ?? 0) + 2), 6000),
    ).toBe(true);
    // Two more events on each of the 5 streams: two reads, not ten.
    expect(counterReads - atFirst).toBeGreaterThanOrEqual(2);
    expect(counterReads - atFirst).toBeLessThanOrEqual(3);
    for (const stream of streams) {
      stream.close();
    }
  });

  it('a stream ends within 2 s of its session being signed out', async () => {
    const { token } = await createUserViaApi(server);
    const stream = await openStream(server, token);
    expect(stream.response.status).toBe(200);
    expect(await waitFor(() => stream.events() >= 1, 3000)).toBe(true);
    const loggedOut = await server.request('POST', '/api/auth/logout', { token, body: {} });
    expect(loggedOut.status).toBeLessThan(300);
    const at = Date.now();
    expect(await waitFor(() => stream.endedAt() !== null, 3000)).toBe(true);
    expect((stream.endedAt() ?? Infinity) - at).toBeLessThan(2000);
    stream.close();
  });
});
