import { proxySettingsMessages as messages } from '@bytegate/contracts/proxy-settings';
import { createExits, listPlansForGateway, type NewExit } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import { createUserViaApi, startTestServer, type TestServer } from '../../../testing/test-server.ts';

type Option = { code: string; name: string };
type Settings = Record<string, unknown> & { error?: string; code?: string };

const exit = (fields: Partial<NewExit>): NewExit => ({
  name: `exit-${Math.random().toString(36).slice(2, 8)}`,
  kind: 'direct',
  poolType: 'residential',
  country: 'US',
  ...fields,
});

describe.each(testDatabaseKinds())('proxy settings API on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
    await createExits(server.database.db, {
      exits: [
        exit({ country: 'US', state: 'Texas', city: 'Austin', zip: '78701', asn: 7922, asnName: 'Comcast' }),
        exit({ country: 'US', state: 'Texas', city: 'Dallas', zip: '75201', asn: 7018, asnName: 'AT&T' }),
        exit({
          country: 'US',
          state: 'New York',
          city: 'New York',
          zip: '10001',
          asn: 7922,
          asnName: 'Comcast',
        }),
        exit({
          country: 'DE',
          state: 'Berlin',
          city: 'Berlin',
          zip: '10115',
          asn: 3320,
          asnName: 'Deutsche Telekom',
        }),
        exit({
          country: 'FR',
          state: 'Ile-de-France',
          city: 'Paris',
          zip: '75001',
          asn: 3215,
          asnName: 'Orange',
        }),
        // Another pool, and an exit that is switched off: neither is offered to residential.
        exit({ poolType: 'mobile', country: 'JP', asn: 2516, asnName: 'KDDI' }),
        exit({ country: 'IT', isActive: false }),
      ],
    });
  });
  afterAll(async () => {
    await server.close();
  });

  async function userWithPlan(poolType = 'residential') {
    const user = await createUserViaApi(server);
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: 100_00, reason: 'test credit' },
    );
    const bought = await server.request<{ plan: { subUserId: string } }>('POST', '/api/subuser/create', {
      token: user.token,
      body: { pool_type: poolType, default_pool_parameters: { quantity: 5 } },
    });
    expect(bought.status).toBe(201);
    return { token: user.token, planId: bought.body.plan.subUserId };
  }
  const load = (token: string, pool = 'residential') =>
    server.request<Settings>('GET', `/api/proxy-settings?pool_type=${pool}`, { token });
  const save = (token: string, body: Record<string, unknown>) =>
    server.request<Settings>('PUT', '/api/proxy-settings', {
      token,
      body: { pool_type: 'residential', ...body },
    });
  const options = (token: string, list: string, body: Record<string, unknown> = {}) =>
    server.request<Option[]>('POST', `/api/proxy-settings/${list}`, {
      token,
      body: { pool_type: 'residential', ...body },
    });

  it('answers 404 until something is saved (the client then uses the defaults), then what was saved', async () => {
    const { token } = await userWithPlan();
    expect((await server.request('GET', '/api/proxy-settings?pool_type=residential')).status).toBe(401);
    const before = await load(token);
    expect(before.status).toBe(404);
    expect(before.body.code).toBe('NOT_FOUND');

    const saved = await save(token, {
      countries: 'us, ',
      states: ['Texas'],
      asns: 'AS7922',
      exclude_asn: '7018',
      anonymous_filter: false,
      rotation_interval: '15',
    });
    expect(saved.status).toBe(200);
    const after = await load(token);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({
      pool_type: 'residential',
      countries: ['US'],
      states: ['texas'],
      cities: [],
      zipcodes: [],
      asns: [7922],
      exclude_countries: [],
      exclude_asn: [7018],
      anonymous_filter: false,
      rotation_interval: 15,
    });
    // Another pool of the same user has its own settings.
    expect((await load(token, 'datacenter')).status).toBe(404);
  });

  it('refuses each rule of SPEC section 5 with its message and saves nothing', async () => {
    const { token } = await userWithPlan();
    // Each refusal names the setting it is about, for the form to show the message there.
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, messages.noCountries, 'countries'],
      [{ countries: ['US'], exclude_countries: ['DE'] }, messages.bothCountryLists, 'countries'],
      [{ states: 'texas' }, messages.needsCountries, 'countries'],
      [{ countries: 'US', rotation_interval: 121 }, messages.rotation, 'rotation_interval'],
      [{ countries: 'US', rotation_interval: 0 }, messages.rotation, 'rotation_interval'],
      [{ countries: 'Germany' }, messages.countryCode('GERMANY'), 'countries'],
    ];
    for (const [body, message, field] of cases) {
      const response = await save(token, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toEqual({ error: message, code: 'VALIDATION_FAILED', field });
    }
    expect((await load(token)).status).toBe(404);
  });

  it('checks codes against the inventory: unknown countries, states elsewhere and absent ASNs are refused', async () => {
    const { token } = await userWithPlan();
    const unknownCountry = await save(token, { countries: 'us, zz' });
    expect(unknownCountry.status).toBe(400);
    expect(unknownCountry.body).toEqual({
      error: 'No residential exits in ZZ: choose countries from the list',
      code: 'VALIDATION_FAILED',
      field: 'countries',
    });
    // JP has exits, but in the mobile pool only; IT's only exit is switched off.
    expect((await save(token, { countries: 'jp' })).status).toBe(400);
    expect((await save(token, { countries: 'it' })).status).toBe(400);
    const wrongState = await save(token, { countries: 'DE', states: 'texas' });
    expect(wrongState.body.error).toBe('Not offered in the chosen countries (states): texas');
    expect(wrongState.body.field).toBe('states');
    expect((await save(token, { countries: 'DE', asns: '7922' })).status).toBe(400);
    // Exclusions may name anything well-formed.
    expect((await save(token, { exclude_countries: 'RU, BY', exclude_asn: '99999' })).status).toBe(200);
  });

  it('clears location filters when only excluded countries are saved; non-numeric rotation is 30', async () => {
    const { token } = await userWithPlan();
    const saved = await save(token, { exclude_countries: 'fr', states: 'texas', rotation_interval: 'soon' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ exclude_countries: ['FR'], states: [], rotation_interval: 30 });
  });

  it('needs an active plan in the pool to save', async () => {
    const user = await createUserViaApi(server);
    const response = await save(user.token, { countries: 'US' });
    expect(response.status).toBe(404);
  });

  it('offers only countries with active exits in the pool, by name, and narrows the other lists', async () => {
    const { token } = await userWithPlan();
    expect((await options(token, 'countries')).body).toEqual([
      { code: 'FR', name: 'France' },
      { code: 'DE', name: 'Germany' },
      { code: 'US', name: 'United States' },
    ]);
    expect((await options(token, 'countries', { pool_type: 'mobile' })).body).toEqual([
      { code: 'JP', name: 'Japan' },
    ]);
    // States, ASNs and postal codes only once a country is chosen.
    expect((await options(token, 'states')).body).toEqual([]);
    expect((await options(token, 'states', { countries: ['us'] })).body).toEqual([
      { code: 'new york', name: 'New York' },
      { code: 'texas', name: 'Texas' },
    ]);
    expect((await options(token, 'states', { countries: 'US, DE' })).body.map((o) => o.code)).toEqual([
      'berlin',
      'new york',
      'texas',
    ]);
    expect((await options(token, 'asns', { countries: ['US'] })).body).toEqual([
      { code: '7018', name: 'AT&T' },
      { code: '7922', name: 'Comcast' },
    ]);
    expect((await options(token, 'asns', { countries: ['US'], states: ['new york'] })).body).toEqual([
      { code: '7922', name: 'Comcast' },
    ]);
    expect(
      (await options(token, 'zipcodes', { countries: ['US'], states: 'Texas', asns: '7018' })).body,
    ).toEqual([{ code: '75201', name: 'Dallas' }]);
    expect(
      (await options(token, 'states', { countries: ['US'], asns: ['7922'], zipcodes: '78701' })).body,
    ).toEqual([{ code: 'texas', name: 'Texas' }]);
  });

  it("touches the plan on save, so the gateway's incremental refresh picks the change up", async () => {
    const { token, planId } = await userWithPlan();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const marker = new Date();
    expect(
      (await listPlansForGateway(server.database.db, { since: marker })).map((row) => row.planId),
    ).not.toContain(planId);
    expect((await save(token, { countries: 'DE' })).status).toBe(200);
    const changed = await listPlansForGateway(server.database.db, { since: marker });
    expect(changed.find((row) => row.planId === planId)?.settings?.countries).toEqual(['DE']);
  });
});
