import { createOidcFlow } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserViaApi, queryRows, startTestServer, type TestServer } from '../testing/test-server.ts';
import { pruneSessions } from './prune-sessions.ts';

describe.each(testDatabaseKinds())('pruning sessions on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  const countSessions = async () => {
    const [row] = await queryRows<{ n: number }>(server, 'select count(*)::int as n from sessions');
    return row?.n;
  };

  it('deletes sessions revoked over a week ago and keeps live and recently ended ones', async () => {
    const live = await createUserViaApi(server);
    const ended = await createUserViaApi(server);
    await server.request('POST', '/api/auth/logout', { token: ended.token });
    expect(await countSessions()).toBe(2);

    await pruneSessions({ db: server.database.db, config: server.config });
    expect(await countSessions()).toBe(2);

    await pruneSessions(
      { db: server.database.db, config: server.config },
      new Date(Date.now() + 8 * 86_400_000),
    );
    expect(await countSessions()).toBe(1);
    expect((await server.request('GET', '/api/auth/me', { token: live.token })).status).toBe(200);
  });

  it('deletes Google authorizations a day after they expired, used or not', async () => {
    const { db } = server.database;
    const flow = (state: string, expiresAt: Date) =>
      createOidcFlow(db, { stateHash: state, codeVerifier: 'v', nonce: 'n', purpose: 'sign_in', expiresAt });
    const now = Date.now();
    await flow('a'.repeat(64), new Date(now - 2 * 86_400_000));
    await flow('b'.repeat(64), new Date(now - 3_600_000));
    await flow('c'.repeat(64), new Date(now + 600_000));
    await pruneSessions({ db, config: server.config });
    const left = await queryRows<{ state_hash: string }>(
      server,
      'select state_hash from oidc_flows order by state_hash',
    );
    expect(left.map((row) => row.state_hash[0])).toEqual(['b', 'c']);
  });
});
