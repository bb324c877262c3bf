import type { AuditResponse } from '@bytegate/contracts/admin';
import type { SourceResponse, SupplyResponse } from '@bytegate/contracts/admin-supply';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole } from '../../../testing/staff.ts';
import { startTestServer, type TestServer } from '../../../testing/test-server.ts';

type User = Awaited<ReturnType<typeof createUserWithRole>>;
type Answer = SourceResponse & {
  error: string;
  code: string;
  field?: string;
  fields?: Record<string, string>;
};

const reason = 'New vendor contract, ticket 733';
const PASSWORD = 'Vend0rS3cret';
const oxylabs = {
  name: 'Oxylabs residential',
  pool: 'residential',
  grammar: 'oxylabs',
  url: `http://acct:${PASSWORD}@127.0.0.1:7777`,
  costPerGb: '1.20',
  reason,
};

// Adding a source from the console (the Supply page's "Add source"): the rules of `bytegate sources add`
// (source-input.ts), every problem named by its field, admins only, audited with the reason, and the
// account's password never in an answer or the audit log.
describe.each(testDatabaseKinds())('POST /api/admin/sources on %s', (kind) => {
  let server: TestServer;
  let customer: User;
  let support: User;
  let admin: User;
  beforeAll(async () => {
    server = await startTestServer(kind);
    [customer, support, admin] = await Promise.all([
      createUserWithRole(server, 'customer'),
      createUserWithRole(server, 'support'),
      createUserWithRole(server, 'admin'),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A POST as the admin, another user, or no one (null). */
  const post = (body: object, token: string | null = admin.token) =>
    server.request<Answer>('POST', '/api/admin/sources', { token: token ?? undefined, body });
  const names = async () =>
    (
      await server.request<SupplyResponse>('GET', '/api/admin/sources', { token: support.token })
    ).body.sources.map((source) => source.name);

  it('answers 401 without a session', async () => {
    const refused = await post(oxylabs, null);
    expect(refused.status).toBe(401);
  });

  it('names every field that is wrong, each with its message, and adds nothing', async () => {
    const cases: Array<[object, Record<string, string>]> = [
      [{ ...oxylabs, name: '  ' }, { name: 'name is required' }],
      [{ ...oxylabs, pool: 'moon' }, { pool: 'pool must be datacenter, residential or mobile' }],
      [
        { ...oxylabs, grammar: undefined },
        { grammar: expect.stringMatching(/^grammar must be one of brightdata, /) },
      ],
      [{ ...oxylabs, grammar: 'luminati' }, { grammar: expect.stringMatching(/^grammar must be one of /) }],
      [
        { ...oxylabs, url: 'http://127.0.0.1:7777' },
        { url: "url must carry the network account's USER:PASS" },
      ],
      [
        { ...oxylabs, url: 'ftp://a:b@127.0.0.1:21' },
        { url: 'url must be http://USER:PASS@HOST:PORT, https://... or socks5://... with the account' },
      ],
      [{ ...oxylabs, grammar: 'template' }, { template: 'the template grammar needs a template' }],
      [
        { ...oxylabs, grammar: 'template', template: '{user}-country-{cuntry}' },
        { template: expect.stringMatching(/^template: .*\{cuntry\}/) },
      ],
      [{ ...oxylabs, template: '{user}' }, { template: 'only the template grammar takes a template' }],
      [
        { ...oxylabs, costPerGb: '1.234' },
        { costPerGb: 'cost-per-gb must be an amount in dollars, such as 1.20' },
      ],
      [{ ...oxylabs, weight: '-1' }, { weight: 'weight must be a whole number from 0 to 1000000' }],
      [{ ...oxylabs, state: 'paused' }, { state: 'state must be active, draining or off' }],
      [
        { ...oxylabs, kind: 'exits', pool: 'mobile' },
        { kind: 'our own exits take no url, grammar or template' },
      ],
      // Several at once: each field its own message; the first is the answer's.
      [
        { ...oxylabs, name: '', pool: 'moon', url: 'nonsense', weight: 'many' },
        {
          name: 'name is required',
          pool: 'pool must be datacenter, residential or mobile',
          url: 'url must be http://USER:PASS@HOST:PORT, https://... or socks5://... with the account',
          weight: 'weight must be a whole number from 0 to 1000000',
        },
      ],
    ];
    for (const [body, fields] of cases) {
      const refused = await post(body);
      expect({ body, status: refused.status, fields: refused.body.fields }).toEqual({
        body,
        status: 400,
        fields,
      });
      const [field, message] = Object.entries(refused.body.fields ?? {})[0] ?? [];
      expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED', field, error: message });
      expect(JSON.stringify(refused.body)).not.toContain(PASSWORD);
    }
    // The body's own shape, and the reason, are read before the rules.
    expect((await post({ ...oxylabs, reason: undefined })).body).toMatchObject({
      error: 'Reason is required',
      code: 'VALIDATION_FAILED',
    });
    expect((await post({ ...oxylabs, name: 'x'.repeat(201) })).body).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(await names()).not.toContain('Oxylabs residential');
  });

  it('refuses customers and support', async () => {
    const byCustomer = await post(oxylabs, customer.token);
    expect(byCustomer.status).toBe(403);
    expect(byCustomer.body).toEqual({ error: 'This area is for Bytegate staff only', code: 'FORBIDDEN' });
    const bySupport = await post(oxylabs, support.token);
    expect(bySupport.status).toBe(403);
    expect(bySupport.body).toEqual({
      error: 'Only an admin may do this: support may read the sources, not change them',
      code: 'FORBIDDEN',
    });
    expect(await names()).not.toContain('Oxylabs residential');
  });

  it('adds a network, answers it with the password hidden, and audits it with the reason', async () => {
    const added = await post(oxylabs);
    expect(added.status).toBe(201);
    expect(added.body.source).toEqual({
      id: expect.any(String),
      name: 'Oxylabs residential',
      pool: 'residential',
      kind: 'network',
      grammar: 'oxylabs',
      url: 'http://acct:***@127.0.0.1:7777',
      state: 'active',
      weight: 100,
      costPerGbCents: 120,
      alarm: null,
      alarmAt: null,
      lastProbe: null,
    });
    expect(JSON.stringify(added.body)).not.toContain(PASSWORD);
    const id = added.body.source.id;
    const audit = await server.request<AuditResponse>('GET', `/api/admin/audit?targetId=${id}`, {
      token: support.token,
    });
    expect(audit.body.entries).toEqual([
      expect.objectContaining({
        action: 'source.add',
        actorEmail: admin.email,
        targetType: 'source',
        reason,
        before: null,
        after: expect.objectContaining({ url: 'http://acct:***@127.0.0.1:7777', costPerGbCents: 120 }),
      }),
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(PASSWORD);
    expect(await names()).toContain('Oxylabs residential');
  });

  it('adds a template network with all its settings, and refuses a name taken or a second own-exits source', async () => {
    const added = await post({
      name: 'Reseller X',
      pool: 'mobile',
      kind: 'network',
      grammar: 'template',
      template: '{user}[-country-{country:lower}][-session-{session}]',
      passwordTemplate: '{password}',
      url: `socks5://rs:${PASSWORD}@127.0.0.1:1080`,
      costPerGb: 0.95,
      weight: 50,
      state: 'draining',
      reason,
    });
    expect(added.status).toBe(201);
    expect(added.body.source).toMatchObject({
      grammar: 'template',
      url: 'socks5://rs:***@127.0.0.1:1080',
      costPerGbCents: 95,
      weight: 50,
      state: 'draining',
    });
    const taken = await post({ ...oxylabs, pool: 'datacenter' });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({
      error: 'A source is already named Oxylabs residential',
      code: 'CONFLICT',
      field: 'name',
    });
    const ownAgain = await post({ name: 'More own exits', pool: 'datacenter', kind: 'exits', reason });
    expect(ownAgain.status).toBe(409);
    expect(ownAgain.body).toMatchObject({ code: 'CONFLICT', field: 'kind' });
  });
});
