import type { AuditResponse } from '@bytegate/contracts/admin';
import type { ExitResponse, ExitsResponse } from '@bytegate/contracts/admin-exits';
import { addExitTraffic, recordExitProbe } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_JOB_ACTOR } from '../../../services/inventory/inventory-access.ts';
import { takeExitOutOfRotation } from '../../../services/inventory/take-exit-out.ts';
import { createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

type Staff = Awaited<ReturnType<typeof createUserWithRole>>;

const SOME_UUID = '00000000-0000-4000-8000-000000000000';
const reason = 'Inventory maintenance for ticket 77';

describe.each(testDatabaseKinds())('back office exits on %s', (kind) => {
  let server: TestServer;
  let support: Staff;
  let admin: Staff;
  beforeAll(async () => {
    server = await startTestServer(kind);
    support = await createUserWithRole(server, 'support');
    admin = await createUserWithRole(server, 'admin');
  });
  afterAll(async () => {
    await server?.close();
  });

  const list = async (query = '', token = support.token) => {
    const answer = await server.request<ExitsResponse>('GET', `/api/admin/exits${query}`, { token });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const add = (exit: Record<string, unknown>, token = admin.token) =>
    server.request<ExitResponse & { error: string; code: string; field?: string }>(
      'POST',
      '/api/admin/exits',
      {
        token,
        body: { exit, reason },
      },
    );
  const act = (exitId: string, action: string, token = admin.token, body: object = { reason }) =>
    server.request<ExitResponse & { error: string; code: string }>(
      'POST',
      `/api/admin/exits/${exitId}/${action}`,
      { token, body },
    );
  const auditOf = async (targetId: string) =>
    (
      await server.request<AuditResponse>('GET', `/api/admin/audit?targetId=${targetId}`, {
        token: support.token,
      })
    ).body.entries;

  describe('POST /api/admin/exits', () => {
    it('refuses support before reading the body', async () => {
      const refused = await add({ name: 'x' }, support.token);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        error: 'Only an admin may do this: support may read the exits, not change them',
        code: 'FORBIDDEN',
      });
    });

    it('refuses a bad exit with the field named, by the rules of bytegate exits add', async () => {
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ pool: 'datacenter', country: 'US' }, 'name', 'name is required'],
        [
          { name: 'x', pool: 'premium', country: 'US' },
          'pool',
          'pool must be datacenter, residential or mobile',
        ],
        [{ name: 'x', pool: 'mobile', country: 'USA' }, 'country', 'country must be a two-letter ISO code'],
        [
          { name: 'x', pool: 'mobile', country: 'US', kind: 'upstream' },
          'upstreamUrl',
          'an upstream exit needs upstreamUrl, and a direct exit has none',
        ],
        [
          { name: 'x', pool: 'mobile', country: 'US', localAddress: '10.0.0.300' },
          'localAddress',
          'localAddress must be an IP address',
        ],
      ];
      for (const [exit, field, error] of cases) {
        const refused = await add(exit);
        expect({ status: refused.status, body: refused.body }).toEqual({
          status: 400,
          body: { error, code: 'VALIDATION_FAILED', field },
        });
      }
      expect((await list()).summary.total).toBe(0);
    });

    it('adds an exit, never shows an upstream password, and audits it', async () => {
      const direct = await add({
        name: 'Ashburn 1',
        pool: 'datacenter',
        country: 'us',
        localAddress: '127.0.0.2',
      });
      expect(direct.status).toBe(201);
      expect(direct.body.exit).toMatchObject({
        name: 'Ashburn 1',
        kind: 'direct',
        pool: 'datacenter',
        country: 'US',
        localAddress: '127.0.0.2',
        upstream: null,
        status: 'active',
        traffic: { connects: 0, failures: 0, successRate: null, avgConnectMs: null, lastError: null },
        probe: null,
      });
      const upstream = await add({
        name: 'Berlin upstream',
        kind: 'upstream',
        pool: 'residential',
        country: 'DE',
        upstreamUrl: 'socks5://acct:s3cret-pass@198.51.100.4:1080',
        asn: '3320',
        risky: true,
      });
      expect(upstream.status).toBe(201);
      expect(upstream.body.exit).toMatchObject({
        upstream: 'socks5://acct:***@198.51.100.4:1080',
        asn: 3320,
        isRisky: true,
      });
      expect(JSON.stringify(await list())).not.toContain('s3cret-pass');
      const [entry] = await auditOf(direct.body.exit.id);
      expect(entry).toMatchObject({
        action: 'exit.add',
        actorEmail: admin.email,
        targetType: 'exit',
        reason,
        after: { name: 'Ashburn 1', pool: 'datacenter', country: 'US', via: '127.0.0.2', status: 'active' },
      });
    });
  });

  describe('POST /api/admin/exits/import', () => {
    const importing = (body: object, token = admin.token) =>
      server.request<{ imported: number; error: string; code: string; problems?: unknown }>(
        'POST',
        '/api/admin/exits/import',
        { token, body },
      );

    it('refuses support', async () => {
      const refused = await importing(
        { format: 'csv', content: 'name,pool,country\nA,mobile,FR' },
        support.token,
      );
      expect(refused.status).toBe(403);
    });

    it('imports nothing when a line is wrong, and names every wrong line of the file', async () => {
      const before = (await list()).summary.total;
      const csv = [
        'name,pool,country,city,kind,upstreamUrl',
        'Paris 1,mobile,FR,Paris,,',
        '',
        '# a comment line',
        'Lyon 1,mobile,France,Lyon,,',
        'Nice 1,premium,FR,Nice,upstream,',
      ].join('\n');
      const refused = await importing({ format: 'csv', content: csv });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: 'Nothing was imported: 2 lines have problems',
        code: 'VALIDATION_FAILED',
        problems: [
          { line: 5, message: 'country: country must be a two-letter ISO code' },
          {
            line: 6,
            message: 'pool: pool must be datacenter, residential or mobile',
          },
        ],
      });
      const json = await importing({
        format: 'json',
        content: '[{"name":"ok","pool":"mobile","country":"FR"},{}]',
      });
      expect(json.status).toBe(400);
      expect(json.body.problems).toEqual([
        expect.objectContaining({ line: 2, message: expect.stringContaining('name: name is required') }),
      ]);
      const notJson = await importing({ format: 'json', content: '{"name":' });
      expect(notJson.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        error: expect.stringMatching(/^Nothing was imported: the file is not JSON/),
      });
      expect((await list()).summary.total).toBe(before);
    });

    it('imports a CSV and a JSON file whole, with one audit entry each', async () => {
      const before = (await list()).summary.total;
      const csv = await importing({
        format: 'csv',
        content:
          'name,pool,country,state,city,zip,asn,risky\nParis 1,mobile,FR,,Paris,75001,3215,false\nLondon 1,mobile,GB,,London,,,1\n',
        reason: 'New mobile batch',
      });
      expect(csv.status).toBe(201);
      expect(csv.body).toEqual({ imported: 2 });
      const json = await importing({
        format: 'json',
        content: JSON.stringify([{ name: 'Tokyo 1', pool: 'datacenter', country: 'JP', asn: 2516 }]),
      });
      expect(json.body).toEqual({ imported: 1 });
      expect((await list()).summary.total).toBe(before + 3);
      const imports = (
        await server.request<AuditResponse>('GET', '/api/admin/audit?action=exit.import', {
          token: support.token,
        })
      ).body.entries;
      expect(imports.map((entry) => entry.after)).toEqual([
        { count: 1, format: 'json', datacenter: 1 },
        { count: 2, format: 'csv', mobile: 2 },
      ]);
      expect(imports[1]).toMatchObject({
        actorEmail: admin.email,
        reason: 'New mobile batch',
        targetType: 'inventory',
      });
    });
  });

  describe('GET /api/admin/exits', () => {
    it('filters by pool, country, status and part of the name', async () => {
      const all = await list();
      expect(all.summary).toMatchObject({ total: 5, active: 5, outOfRotation: 0, disabled: 0 });
      expect(all.summary.countries).toEqual(['DE', 'FR', 'GB', 'JP', 'US']);
      expect(all.probing).toBeNull();
      const names = async (query: string) => (await list(query)).exits.map((exit) => exit.name);
      // Ordered by pool, country, then name.
      expect(await names('?pool=mobile')).toEqual(['Paris 1', 'London 1']);
      expect(await names('?country=gb')).toEqual(['London 1']);
      expect(await names('?q=ASHBURN')).toEqual(['Ashburn 1']);
      expect(await names('?q=%25')).toEqual([]);
      expect(await names('?status=disabled')).toEqual([]);
      const refused = await server.request('GET', '/api/admin/exits?status=broken', { token: support.token });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: 'Status must be one of active, out_of_rotation, disabled',
        code: 'VALIDATION_FAILED',
      });
    });

    it("shows each exit's traffic over 24 hours and its last probe", async () => {
      const [ashburn] = (await list('?q=Ashburn')).exits;
      const exitId = ashburn?.id ?? '';
      const hour = 60 * 60 * 1000;
      const thisHour = new Date(Math.floor(Date.now() / hour) * hour);
      const erredAt = new Date(thisHour.getTime() + 1000);
      await addExitTraffic(server.database.db, {
        bucketStart: new Date(thisHour.getTime() - 3 * hour),
        deltas: [
          { exitId, connects: 6, failures: 0, connectMsTotal: 120, lastError: null, lastErrorAt: null },
        ],
      });
      await addExitTraffic(server.database.db, {
        bucketStart: thisHour,
        deltas: [
          {
            exitId,
            connects: 2,
            failures: 2,
            connectMsTotal: 40,
            lastError: 'connect ECONNREFUSED',
            lastErrorAt: erredAt,
          },
          // Removed meanwhile: skipped, not an error.
          {
            exitId: SOME_UUID,
            connects: 1,
            failures: 0,
            connectMsTotal: 1,
            lastError: null,
            lastErrorAt: null,
          },
        ],
      });
      // Older than the window: left out.
      await addExitTraffic(server.database.db, {
        bucketStart: new Date(thisHour.getTime() - 30 * hour),
        deltas: [
          { exitId, connects: 0, failures: 50, connectMsTotal: 0, lastError: 'old', lastErrorAt: null },
        ],
      });
      const checkedAt = new Date();
      await recordExitProbe(server.database.db, {
        exitId,
        checkedAt,
        isOk: false,
        connectMs: null,
        error: 'upstream proxy timed out',
        isCounted: true,
      });
      const [shown] = (await list('?q=Ashburn')).exits;
      expect(shown?.traffic).toEqual({
        connects: 8,
        failures: 2,
        successRate: 0.8,
        avgConnectMs: 20,
        lastError: 'connect ECONNREFUSED',
        lastErrorAt: erredAt.toISOString(),
      });
      expect(shown?.probe).toEqual({
        checkedAt: checkedAt.toISOString(),
        isOk: false,
        connectMs: null,
        error: 'upstream proxy timed out',
        consecutiveFailures: 1,
        lastOkAt: null,
      });
    });
  });

  describe('disable, enable, restore and remove', () => {
    let exitId: string;
    beforeAll(async () => {
      exitId = (await list('?q=Tokyo')).exits[0]?.id ?? '';
    });

    it('refuses support, a missing reason, a malformed and an unknown id', async () => {
      for (const action of ['disable', 'enable', 'restore', 'remove']) {
        expect((await act(exitId, action, support.token)).status).toBe(403);
      }
      const noReason = await act(exitId, 'disable', admin.token, {});
      expect(noReason.body).toEqual({ error: 'Reason is required', code: 'VALIDATION_FAILED' });
      expect((await act('nope', 'disable')).body).toEqual({
        error: 'Exit id must be a UUID',
        code: 'VALIDATION_FAILED',
      });
      const unknown = await act(SOME_UUID, 'remove');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'No such exit', code: 'NOT_FOUND' });
    });

    it('disables and enables, recording each change once', async () => {
      const disabled = await act(exitId, 'disable');
      expect(disabled.status).toBe(200);
      expect(disabled.body.exit.status).toBe('disabled');
      expect((await act(exitId, 'disable')).body.exit.status).toBe('disabled');
      expect((await list('?status=disabled')).exits.map((exit) => exit.name)).toEqual(['Tokyo 1']);
      const enabled = await act(exitId, 'enable');
      expect(enabled.body.exit.status).toBe('active');
      // The import that added it stands under its id too (the first exit of a batch names the batch).
      expect((await auditOf(exitId)).map((entry) => entry.action)).toEqual([
        'exit.enable',
        'exit.disable',
        'exit.import',
      ]);
    });

    it('puts an exit the health job took out back into rotation, its probe failures started again', async () => {
      await recordExitProbe(server.database.db, {
        exitId,
        checkedAt: new Date(),
        isOk: false,
        connectMs: null,
        error: 'refused',
        isCounted: true,
      });
      const ctx = { db: server.database.db, config: server.config };
      expect(
        await takeExitOutOfRotation(ctx, {
          exitId,
          reason: '3 probes in a row failed: refused',
          actor: HEALTH_JOB_ACTOR,
        }),
      ).toBe(true);
      const out = (await list('?status=out_of_rotation')).exits;
      expect(out).toEqual([
        expect.objectContaining({
          id: exitId,
          status: 'out_of_rotation',
          outOfRotationAt: expect.any(String),
          outOfRotationReason: '3 probes in a row failed: refused',
        }),
      ]);
      const restored = await act(exitId, 'restore');
      expect(restored.body.exit).toMatchObject({
        status: 'active',
        outOfRotationAt: null,
        outOfRotationReason: null,
        probe: { consecutiveFailures: 0, isOk: false },
      });
      const [back, taken] = await auditOf(exitId);
      expect(back).toMatchObject({ action: 'exit.rotation.restore', actorEmail: admin.email, reason });
      expect(taken).toMatchObject({ action: 'exit.rotation.out', actorEmail: 'system' });
    });

    it('removes an exit with its health; the audit log keeps what it was', async () => {
      const removed = await act(exitId, 'remove');
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ removed: true });
      expect((await list('?q=Tokyo')).exits).toEqual([]);
      expect(await queryRows(server, `select 1 from exit_probes where exit_id = '${exitId}'`)).toEqual([]);
      expect((await auditOf(exitId))[0]).toMatchObject({
        action: 'exit.remove',
        before: { name: 'Tokyo 1', country: 'JP' },
        after: null,
      });
      expect((await act(exitId, 'remove')).status).toBe(404);
    });
  });

  describe('a large import', () => {
    it('takes a file over the API body limit (64 KiB), in several inserts, and pages the list', async () => {
      const before = (await list()).summary.total;
      const lines = Array.from(
        { length: 2100 },
        (_, i) => `Bulk ${String(i).padStart(4, '0')},residential,BR,Sao Paulo,,`,
      );
      const content = ['name,pool,country,city,zip,asn', ...lines].join('\n');
      expect(content.length).toBeGreaterThan(64 * 1024);
      const answer = await server.request<{ imported: number }>('POST', '/api/admin/exits/import', {
        token: admin.token,
        body: { format: 'csv', content },
      });
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual({ imported: 2100 });
      const page = await list('?country=BR&page=2');
      expect(page.pagination).toEqual({ currentPage: 2, totalPages: 42, totalItems: 2100, itemsPerPage: 50 });
      expect(page.exits[0]?.name).toBe('Bulk 0050');
      expect(page.summary.total).toBe(before + 2100);
    });
  });
});
