import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

/** Every route of the app with its method, read from Fastify's own route tree (`printRoutes`). */
function listRoutes(tree: string): Array<{ method: string; url: string }> {
  const routes: Array<{ method: string; url: string }> = [];
  const segments: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) {
      continue;
    }
    segments.length = (match[1] ?? '').length / 4;
    segments.push(match[2] ?? '');
    for (const method of match[3]?.split(', ') ?? []) {
      routes.push({ method, url: segments.join('') });
    }
  }
  return routes;
}

const SOME_UUID = '00000000-0000-4000-8000-000000000000';

describe.each(testDatabaseKinds())('the back office guard on %s', (kind) => {
  let server: TestServer;
  let adminRoutes: Array<{ method: string; url: string }>;
  beforeAll(async () => {
    server = await startTestServer(kind);
    adminRoutes = listRoutes(server.app.printRoutes({ commonPrefix: false }))
      .filter((route) => route.url.startsWith('/api/admin') && route.method !== 'HEAD')
      .map((route) => ({ ...route, url: route.url.replace(/:[A-Za-z]+/g, SOME_UUID) }));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('finds every registered /api/admin route', () => {
    // A floor, not the list: a route added later is walked by the tests below without touching them.
    expect(adminRoutes).toEqual(
      expect.arrayContaining([
        { method: 'GET', url: '/api/admin/customers' },
        { method: 'GET', url: `/api/admin/customers/${SOME_UUID}` },
        { method: 'POST', url: `/api/admin/customers/${SOME_UUID}/balance` },
        { method: 'POST', url: `/api/admin/customers/${SOME_UUID}/disable` },
        { method: 'POST', url: `/api/admin/customers/${SOME_UUID}/enable` },
        { method: 'POST', url: `/api/admin/customers/${SOME_UUID}/sessions/revoke` },
        { method: 'POST', url: `/api/admin/plans/${SOME_UUID}/threads` },
        { method: 'GET', url: '/api/admin/audit' },
      ]),
    );
  });

  it('answers 401 to an anonymous request on every /api/admin route', async () => {
    const answers = [];
    for (const route of adminRoutes) {
      const { status, body } = await server.request(route.method, route.url, {
        body: route.method === 'GET' ? undefined : { reason: 'why not' },
      });
      answers.push({ ...route, status, code: body.code });
    }
    expect(answers).toEqual(adminRoutes.map((route) => ({ ...route, status: 401, code: 'UNAUTHENTICATED' })));
  });

  it('answers 403 to a customer on every /api/admin route', async () => {
    const customer = await createUserWithRole(server, 'customer');
    const answers = [];
    for (const route of adminRoutes) {
      const { status, body } = await server.request(route.method, route.url, {
        token: customer.token,
        body: route.method === 'GET' ? undefined : { reason: 'why not', amount: '1', threadLimit: 5 },
      });
      answers.push({ ...route, status, body });
    }
    expect(answers).toEqual(
      adminRoutes.map((route) => ({
        ...route,
        status: 403,
        body: { error: 'This area is for Bytegate staff only', code: 'FORBIDDEN' },
      })),
    );
    // Nothing happened on the customer's behalf.
    expect(await queryRows(server, 'select * from audit_log')).toEqual([]);
  });

  it('lets support and admins in', async () => {
    for (const role of ['support', 'admin'] as const) {
      const staff = await createUserWithRole(server, role);
      const { status } = await server.request('GET', '/api/admin/customers', { token: staff.token });
      expect({ role, status }).toEqual({ role, status: 200 });
    }
  });

  it('tells the web app the role in GET /api/auth/me', async () => {
    for (const role of ['customer', 'support', 'admin'] as const) {
      const user = await createUserWithRole(server, role);
      const me = await server.request<{ role: string }>('GET', '/api/auth/me', { token: user.token });
      expect(me.status).toBe(200);
      expect(me.body.role).toBe(role);
    }
  });

  it('keeps the audit log append-only in the database: UPDATE, DELETE and TRUNCATE fail', async () => {
    await queryRows(
      server,
      `insert into audit_log (actor_email, action, target_type, target_id, reason) values ('cli', 'staff.grant', 'user', '${SOME_UUID}', 'test')`,
    );
    /** The database's refusal of a statement (drizzle wraps it: the cause is PostgreSQL's error). */
    const refusal = (sql: string) =>
      queryRows(server, sql).then(
        () => 'accepted',
        (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
      );
    expect(await refusal(`update audit_log set reason = 'rewritten'`)).toBe(
      'audit_log is append-only: UPDATE is refused',
    );
    expect(await refusal('delete from audit_log')).toBe('audit_log is append-only: DELETE is refused');
    expect(await refusal('truncate audit_log')).toBe('audit_log is append-only: TRUNCATE is refused');
    const rows = await queryRows<{ reason: string }>(
      server,
      `select reason from audit_log where target_id = '${SOME_UUID}'`,
    );
    expect(rows).toEqual([{ reason: 'test' }]);
  });
});
