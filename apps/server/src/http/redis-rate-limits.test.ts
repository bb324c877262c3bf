import { randomBytes } from 'node:crypto';
import { freePort } from '@bytegate/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/test-server.ts';

const redisUrl = process.env.TEST_REDIS_URL;

// With REDIS_URL the API's rate limits count across every API process (issue 16); while Redis is away
// they let requests through, and /readyz stays ready while it says Redis is not answering.
describe.runIf(redisUrl)('rate limits and sign-in failures in Redis', () => {
  const servers: TestServer[] = [];
  // This suite's own keys: others may share the Redis.
  const redisPrefix = `test-${randomBytes(4).toString('hex')}:`;
  const contactLimit = {
    contact: { max: 3, windowMs: 60_000 },
    loginFailuresPerAccountAndAddress: { max: 3, windowMs: 60_000 },
    passwordResetsPerEmail: { max: 2, windowMs: 60_000 },
  };
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      servers.push(await startTestServer('pglite', { redisUrl, redisPrefix, rateLimits: contactLimit }));
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  const contact = (server: TestServer | undefined) =>
    server?.request('POST', '/api/contact', {
      body: { name: 'Ann', email: 'ann@example.com', message: 'Counted once across the fleet' },
    });

  it('counts one limit across API processes', async () => {
    const [a, b] = servers;
    const statuses = [];
    for (const server of [a, b, a, b, a]) {
      statuses.push((await contact(server))?.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect((await a?.request('GET', '/readyz'))?.body).toMatchObject({
      ready: true,
      checks: { redis: { ok: true } },
    });
  });

  it('counts password reset requests per email across API processes', async () => {
    const [a, b] = servers;
    const email = `forgot.${randomBytes(4).toString('hex')}@example.com`;
    const statuses = [];
    for (const server of [a, b, a]) {
      statuses.push(
        (await server?.request('POST', '/api/auth/forgot-password', { body: { email } }))?.status,
      );
    }
    expect(statuses).toEqual([202, 202, 429]);
  });

  /** Four wrong sign-ins for one new email, sent to the servers in turn: their statuses. */
  async function guess(order: Array<TestServer | undefined>) {
    const wrong = {
      email: `guess.${randomBytes(4).toString('hex')}@example.com`,
      password: 'not the password',
    };
    const statuses = [];
    for (const server of order) {
      statuses.push((await server?.request('POST', '/api/auth/login', { body: wrong }))?.status);
    }
    return statuses;
  }

  it('counts failed sign-ins across API processes', async () => {
    const [a, b] = servers;
    expect(await guess([a, b, a, b])).toEqual([401, 401, 401, 429]);
  });

  it('lets requests through while Redis is away, and stays ready in /readyz while saying so', async () => {
    const nowhere = `redis://127.0.0.1:${await freePort()}`;
    const server = await startTestServer('pglite', {
      redisUrl: nowhere,
      redisPrefix,
      rateLimits: contactLimit,
    });
    try {
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await contact(server))?.status);
      }
      expect(statuses).toEqual([201, 201, 201, 201, 201]);
      // Failed sign-ins are still counted, in this process alone: a guesser is held back all the same.
      expect(await guess([server, server, server, server])).toEqual([401, 401, 401, 429]);
      // Ready all the same ("send me traffic"): it serves, in the degraded mode, which /readyz names.
      const ready = await server.request('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({
        ready: true,
        degraded: ['redis'],
        checks: { database: { ok: true }, redis: { ok: false, optional: true } },
      });
    } finally {
      await server.close();
    }
  });
});
