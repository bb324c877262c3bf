import type { AuditResponse } from '@bytegate/contracts/admin';
import type { CatalogResponse, ImportCatalogResponse } from '@bytegate/contracts/admin-catalog';
import { createExits, getSource, listSources } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR } from '../../../services/back-office/staff-actor.ts';
import { learnCatalogLocation } from '../../../services/supply/learn-catalog-location.ts';
import { addSource, changeSource } from '../../../services/supply/sources.ts';
import { createCustomerWithPlan, createUserWithRole } from '../../../testing/staff.ts';
import { startTestServer, type TestServer } from '../../../testing/test-server.ts';

type User = Awaited<ReturnType<typeof createUserWithRole>>;
type Refusal = { error: string; code: string; problems?: Array<{ line: number; message: string }> };

const SOME_UUID = '00000000-0000-4000-8000-000000000000';
const reason = 'Vendor list of 2026-12';

describe.each(testDatabaseKinds())('network catalogs on %s', (kind) => {
  let server: TestServer;
  let customer: Awaited<ReturnType<typeof createCustomerWithPlan>>;
  let support: User;
  let admin: User;
  let oxylabsId: string;
  let decodoId: string;
  let ownId: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    customer = await createCustomerWithPlan(server, { poolType: 'residential' });
    support = await createUserWithRole(server, 'support');
    admin = await createUserWithRole(server, 'admin');
    const ctx = { db: server.database.db, config: server.config };
    const add = async (input: Record<string, unknown>) =>
      (await addSource(ctx, { input, actor: CLI_ACTOR })).id;
    oxylabsId = await add({
      name: 'Oxylabs residential',
      pool: 'residential',
      grammar: 'oxylabs',
      url: 'http://acct:pw@127.0.0.1:7777',
    });
    // Decodo spells countries and cities only: its catalog's states never reach the option lists.
    decodoId = await add({
      name: 'Decodo',
      pool: 'residential',
      grammar: 'decodo',
      url: 'http://a:b@127.0.0.1:7000',
    });
    const own = (await listSources(server.database.db)).find(
      (row) => row.kind === 'exits' && row.poolType === 'residential',
    );
    ownId = own?.id ?? '';
    await createExits(server.database.db, {
      exits: [{ name: 'own-fr', kind: 'direct', poolType: 'residential', country: 'FR', city: 'Paris' }],
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const importFile = (sourceId: string, body: object, token = admin.token) =>
    server.request<ImportCatalogResponse & Refusal>('POST', `/api/admin/sources/${sourceId}/catalog`, {
      token,
      body,
    });
  const show = async (sourceId: string, token = support.token) => {
    const answer = await server.request<CatalogResponse>('GET', `/api/admin/sources/${sourceId}/catalog`, {
      token,
    });
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const options = (list: string, body: Record<string, unknown> = {}) =>
    server.request<Array<{ code: string; name: string }>>('POST', `/api/proxy-settings/${list}`, {
      token: customer.token,
      body: { pool_type: 'residential', ...body },
    });

  describe('who may call', () => {
    it('answers 401 without a session, 403 to a customer, and lets support read but not import', async () => {
      const url = `/api/admin/sources/${oxylabsId}/catalog`;
      expect((await server.request('GET', url)).status).toBe(401);
      expect((await server.request('GET', url, { token: customer.token })).status).toBe(403);
      expect(
        (await importFile(oxylabsId, { format: 'csv', content: 'cc\nUS', reason }, customer.token)).status,
      ).toBe(403);
      const bySupport = await importFile(
        oxylabsId,
        { format: 'csv', content: 'cc\nUS', reason },
        support.token,
      );
      expect(bySupport.status).toBe(403);
      expect(bySupport.body.error).toMatch(/support may read the sources, not change them$/);
      expect((await show(oxylabsId)).totals.entries).toBe(0);
    });
  });

  describe('POST /api/admin/sources/:sourceId/catalog', () => {
    it('names what is wrong with a request, and changes nothing', async () => {
      const cases: Array<[object, string]> = [
        [{ format: 'csv', content: 'cc\nUS' }, 'Reason is required'],
        [{ format: 'xml', content: 'cc\nUS', reason }, 'Format must be csv or json'],
        [{ format: 'csv', content: '', reason }, 'The file is empty'],
        [{ format: 'csv', content: 'cc\nUS', replace: 'yes', reason }, 'Replace must be true or false'],
        [
          { format: 'csv', content: 'town\nParis', reason },
          expect.stringMatching(
            /^Nothing was imported: the CSV must start with a header line naming a country column/,
          ),
        ],
        [
          { format: 'json', content: '{"US": [', reason },
          expect.stringMatching(/^Nothing was imported: the file is not JSON/),
        ],
        [
          { format: 'csv', content: 'cc\n# nothing here', reason },
          'Nothing was imported: the file lists no places',
        ],
      ] as Array<[object, string]>;
      for (const [body, error] of cases) {
        const refused = await importFile(oxylabsId, body);
        expect({ body, status: refused.status, answer: refused.body }).toEqual({
          body,
          status: 400,
          answer: { error, code: 'VALIDATION_FAILED' },
        });
      }
      expect((await importFile('nope', { format: 'csv', content: 'cc\nUS', reason })).body.error).toBe(
        'Source id must be a UUID',
      );
      const unknown = await importFile(SOME_UUID, { format: 'csv', content: 'cc\nUS', reason });
      expect(unknown.status).toBe(404);
      const own = await importFile(ownId, { format: 'csv', content: 'cc\nUS', reason });
      expect(own.body.error).toBe(
        "Own residential exits is our own exits: their places are the exits' own, so it has no catalog to import",
      );
      expect((await show(oxylabsId)).totals.entries).toBe(0);
    });

    it('refuses a file with bad lines as a whole, naming each line and its problem', async () => {
      const content = 'country,state,city,asn\nUS,Texas,Dallas,\nUK,,London,\nUS,,Austin,AS-9\n,,Paris,';
      const refused = await importFile(oxylabsId, { format: 'csv', content, reason });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: 'Nothing was imported: 3 lines have problems',
        code: 'VALIDATION_FAILED',
        problems: [
          {
            line: 3,
            message: 'country "UK" is not a country (an ISO 3166 code such as US, or its English name)',
          },
          { line: 4, message: '"AS-9" is not an ASN (a number such as 3320 or AS3320)' },
          { line: 5, message: 'country is missing' },
        ],
      });
      expect((await show(oxylabsId)).totals.entries).toBe(0);
    });

    it('merges an import, learns exits beside it, and a replace drops only what the vendor and traffic both left', async () => {
      const before = (await getSource(server.database.db, { id: oxylabsId }))?.catalogVersion ?? 0;
      const first = await importFile(oxylabsId, {
        format: 'csv',
        content:
          'country,state,city\nUS,TX,Dallas\nUS,New York,New York\nus,texas,dallas\nDE,,Berlin\nFrance,,',
        reason,
      });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        read: 5,
        added: 4,
        alreadyListed: 0,
        dropped: 0,
        entries: 4,
        countries: 3,
      });
      expect((await getSource(server.database.db, { id: oxylabsId }))?.catalogVersion).toBe(before + 1);

      // The exits our traffic got: Telstra in Melbourne twice, Google's resolver (the US, no city), a private one.
      const db = server.database.db;
      expect((await learnCatalogLocation(db, oxylabsId, '139.130.4.5'))?.isNewPlace).toBe(true);
      expect((await learnCatalogLocation(db, oxylabsId, '::ffff:139.130.4.5'))?.isNewPlace).toBe(false);
      expect((await learnCatalogLocation(db, oxylabsId, '8.8.8.8'))?.place).toEqual({
        country: 'US',
        state: null,
        city: null,
        asn: 15169,
        asnName: 'Google LLC',
      });
      expect(await learnCatalogLocation(db, oxylabsId, '10.0.0.7')).toBeNull();

      const shown = await show(oxylabsId);
      expect(
        shown.countries.map((country) => [country.code, country.entries, country.imported, country.learned]),
      ).toEqual([
        ['AU', 1, 0, 1],
        ['FR', 1, 1, 0],
        ['DE', 1, 1, 0],
        ['US', 3, 2, 1],
      ]);
      expect(shown.countries[0]).toMatchObject({
        name: 'Australia',
        states: 1,
        cities: 1,
        asns: 1,
        exitsSeen: 2,
        topCities: [{ name: 'Melbourne', exitsSeen: 2 }],
      });
      expect(shown.countries[0]?.lastSeenAt).toEqual(expect.any(String));
      expect(shown.totals).toEqual({
        entries: 6,
        countries: 4,
        cities: 4,
        imported: 4,
        learned: 2,
        exitsSeen: 3,
      });

      // The vendor's new list: Dallas still, Japan new; New York, Berlin and France are gone from it.
      const replaced = await importFile(oxylabsId, {
        format: 'json',
        content: JSON.stringify({ US: { Texas: ['Dallas'] }, JP: [] }),
        replace: true,
        reason: 'Vendor list of 2027-01',
      });
      expect(replaced.body).toEqual({
        read: 2,
        added: 1,
        alreadyListed: 1,
        dropped: 3,
        entries: 4,
        countries: 3,
      });
      const after = await show(oxylabsId);
      expect(
        after.countries.map((country) => [country.code, country.entries, country.imported, country.learned]),
      ).toEqual([
        ['AU', 1, 0, 1],
        ['JP', 1, 1, 0],
        ['US', 2, 1, 1],
      ]);
      const [entry] = (
        await server.request<AuditResponse>('GET', `/api/admin/audit?targetId=${oxylabsId}`, {
          token: support.token,
        })
      ).body.entries;
      expect(entry).toMatchObject({
        action: 'source.catalog.import',
        actorEmail: admin.email,
        targetType: 'source',
        reason: 'Vendor list of 2027-01',
        before: { entries: 6, countries: 4 },
        after: { entries: 4, countries: 3, format: 'json', replace: true, read: 2, added: 1, dropped: 3 },
      });
    });
  });

  describe("the dashboard's option lists", () => {
    it("add the places of the pool's active networks' catalogs to its own exits', where routing can reach them", async () => {
      await importFile(decodoId, {
        format: 'csv',
        content: 'cc,state,city\nUS,California,Los Angeles\nBR,,São Paulo',
        reason,
      });
      expect((await options('countries')).body.map((option) => option.code)).toEqual([
        'AU',
        'BR',
        'FR',
        'JP',
        'US',
      ]);
      // States only from Oxylabs (Decodo cannot spell one); cities from both; ASNs need a grammar that
      // takes an ASN with a country (Oxylabs applies only one of them).
      expect((await options('states', { countries: ['US'] })).body).toEqual([
        { code: 'texas', name: 'Texas' },
      ]);
      expect((await options('asns', { countries: ['US'] })).body).toEqual([]);
      // A catalog-only country can be saved as a default.
      const saved = await server.request('PUT', '/api/proxy-settings', {
        token: customer.token,
        body: { pool_type: 'residential', countries: ['BR'] },
      });
      expect(saved.status).toBe(200);
      // A network switched off takes its places out of the lists.
      const ctx = { db: server.database.db, config: server.config };
      await changeSource(ctx, { source: { id: oxylabsId }, settings: { state: 'off' }, actor: CLI_ACTOR });
      expect((await options('countries')).body.map((option) => option.code)).toEqual(['BR', 'FR', 'US']);
      expect((await options('states', { countries: ['US'] })).body).toEqual([]);
    });
  });
});
