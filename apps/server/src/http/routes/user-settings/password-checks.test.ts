import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordWork } from '../../../services/accounts/password-work.ts';
import { createUserViaApi, startTestServer, type TestServer } from '../../../testing/test-server.ts';

describe.each(testDatabaseKinds())('password checks on %s', (kind) => {
  describe('rate limits', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, {
        rateLimits: {
          passwordChecksPerUser: { max: 3, windowMs: 15 * 60_000 },
          passwordChecksPerAddress: { max: 5, windowMs: 15 * 60_000 },
        },
      });
    });
    afterAll(async () => {
      await server.close();
    });

    it('limit each user’s password changes and deletions, saying the real wait', async () => {
      const { token } = await createUserViaApi(server);
      const guess = (path: string, body: object) =>
        server.request(path === 'password' ? 'PUT' : 'DELETE', `/api/user-settings/${path}`, { token, body });
      const statuses = [
        (await guess('password', { currentPassword: 'guess 1', newPassword: 'whatever 1' })).status,
        (await guess('account', { password: 'guess 2' })).status,
        (await guess('password', { currentPassword: 'guess 3', newPassword: 'whatever 3' })).status,
      ];
      expect(statuses).toEqual([403, 403, 403]);
      const held = await guess('account', { password: 'guess 4' });
      expect(held.status).toBe(429);
      expect(held.body).toEqual({
        error: 'Too many password attempts. Please try again in 15 minutes.',
        code: 'RATE_LIMITED',
      });
      expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    });

    it('limit them per address across users too', async () => {
      const users = await Promise.all([createUserViaApi(server), createUserViaApi(server)]);
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        for (const { token } of users) {
          statuses.push(
            (
              await server.request('DELETE', '/api/user-settings/account', {
                token,
                body: { password: 'no' },
              })
            ).status,
          );
        }
      }
      // This address had three checks in the test above: two more are allowed, then none.
      expect(statuses).toEqual([403, 403, 429, 429, 429, 429]);
    });
  });

  describe('the bound on concurrent password work', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, {
        rateLimits: {
          passwordChecksPerUser: { max: 1000, windowMs: 60_000 },
          passwordChecksPerAddress: { max: 1000, windowMs: 60_000 },
          login: { max: 1000, windowMs: 60_000 },
        },
      });
    });
    afterAll(async () => {
      await server.close();
    });

    it('runs two checks at a time, queues a few, and answers the rest 503 with Retry-After at once', async () => {
      const users = await Promise.all(Array.from({ length: 4 }, () => createUserViaApi(server)));
      let mostActive = 0;
      let mostWaiting = 0;
      const sampler = setInterval(() => {
        mostActive = Math.max(mostActive, passwordWork.load.active);
        mostWaiting = Math.max(mostWaiting, passwordWork.load.waiting);
      }, 1);
      const answers = await Promise.all(
        Array.from({ length: 80 }, (_, i) =>
          server.request('DELETE', '/api/user-settings/account', {
            token: users[i % users.length]?.token,
            body: { password: `guess ${i}` },
          }),
        ),
      );
      clearInterval(sampler);
      const byStatus = new Map<number, number>();
      for (const answer of answers) {
        byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
      }
      expect([...byStatus.keys()].every((status) => status === 403 || status === 503)).toBe(true);
      expect(byStatus.get(403)).toBeGreaterThanOrEqual(34);
      // PGlite has one connection, which lines the requests up before they reach the queue; on
      // PostgreSQL all 80 arrive at once and those past the bound are turned away.
      if (kind === 'postgres') {
        const busy = answers.find((answer) => answer.status === 503);
        expect(busy?.body).toEqual({
          error: 'The server is busy right now. Please try again in a few seconds.',
          code: 'SERVER_BUSY',
        });
        expect(busy?.headers.get('retry-after')).toBe('2');
      }
      expect(mostActive).toBe(2);
      expect(mostWaiting).toBeLessThanOrEqual(32);
      expect(passwordWork.load).toEqual({ active: 0, waiting: 0 });
      // Nobody was deleted by a guess, and the accounts still answer.
      for (const { token } of users) {
        expect((await server.request('GET', '/api/auth/me', { token })).status).toBe(200);
      }
    });
  });
});
