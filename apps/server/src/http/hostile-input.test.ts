import { messages } from '@bytegate/contracts/messages';
import { createExits } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setStaffRole } from '../services/back-office/set-staff-role.ts';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { adjustBalance } from '../services/billing/adjust-balance.ts';
import { type OpenApi, type Parameter, sampleAt, textPaths, withNul } from '../testing/openapi-samples.ts';
import { createUserViaApi, startTestServer, type TestServer } from '../testing/test-server.ts';

// Hostile input on every route of the API, found from the OpenAPI document the app serves (a new route
// is covered without touching this file): a NUL in any text field, and a body nested 5,000 levels deep.
// Either is a 400 that says what is wrong, never a 500 (PostgreSQL refuses NUL in text) nor a crash.

interface Case {
  route: string;
  field: string;
  method: string;
  url: string;
  body?: unknown;
}

function nested(depth: number, open: string, close: string, inner = '1'): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

describe.each(testDatabaseKinds())('hostile input on %s', (kind) => {
  let server: TestServer;
  let token: string;
  /** An API key with every scope, for the public API's routes (which take nothing else). */
  let apiKey: string;
  let password: string;
  let planId: string;
  let userId: string;
  let openApi: OpenApi;
  let emails = 0;

  beforeAll(async () => {
    const plenty = { max: 10_000, windowMs: 60_000 };
    server = await startTestServer(kind, {
      rateLimits: {
        login: plenty,
        loginFailuresPerAccountAndAddress: plenty,
        loginFailuresPerAddress: plenty,
        loginFailuresPerAccount: plenty,
        loginFailuresPerDevice: plenty,
        signup: plenty,
        contact: plenty,
        passwordChecksPerUser: plenty,
        passwordChecksPerAddress: plenty,
      },
    });
    // An exit in the US, so that a targeting by US gets as far as its database lookups.
    await createExits(server.database.db, {
      exits: [
        {
          name: 'exit-us',
          kind: 'direct',
          poolType: 'residential',
          country: 'US',
          state: 'Texas',
          city: 'Austin',
          zip: '78701',
          asn: 7922,
          asnName: 'Comcast',
        },
      ],
    });
    const user = await createUserViaApi(server);
    token = user.token;
    password = user.password;
    // An admin, so that the back office's routes get past their staff guard to their validation too.
    userId = (
      await setStaffRole(
        { db: server.database.db, config: server.config },
        { email: user.email, role: 'admin', actor: CLI_ACTOR },
      )
    ).userId;
    await adjustBalance(
      { db: server.database.db, config: server.config },
      { email: user.email, amountCents: 100_00, reason: 'test credit' },
    );
    const bought = await server.request<{ plan: { subUserId: string } }>('POST', '/api/subuser/create', {
      token,
      body: { pool_type: 'residential', default_pool_parameters: { quantity: 5 } },
    });
    expect(bought.status).toBe(201);
    planId = bought.body.plan.subUserId;
    const key = await server.request<{ secret: string }>('POST', '/api/user-settings/api-keys', {
      token,
      body: { name: 'hostile', scopes: ['read', 'proxy_users', 'purchase', 'billing'], password },
    });
    apiKey = key.body.secret;
    const document = await server.request<OpenApi>('GET', '/api/openapi.json');
    expect(document.status).toBe(200);
    openApi = document.body;
  });
  afterAll(async () => {
    await server.close();
  });

  /** Valid values by field name, so that a request gets as far as it can (the database included). */
  const valid = (name: string): unknown => {
    switch (name) {
      case 'email':
        emails += 1;
        return `hostile.${Date.now()}.${emails}@example.com`;
      case 'password':
      case 'currentPassword':
        return password;
      case 'newPassword':
        return 'another long password';
      case 'subuser_id':
      case 'planId':
        return planId;
      case 'userId':
        return userId;
      case 'messageId':
      case 'exitId':
      case 'sourceId':
      case 'requestId':
        // Any well-formed id: the NUL in the body is refused before the message is looked up.
        return '00000000-0000-4000-8000-000000000000';
      case 'country':
        return 'US';
      case 'pool_type':
        return 'residential';
      case 'countries':
        return 'US';
      case 'address':
        return '8.8.8.8';
      case 'amount':
      case 'amount_usd':
        return '10';
      case 'from':
        return '2026-11-01T00:00:00Z';
      case 'to':
        return '2026-11-02T00:00:00Z';
      case 'group_by':
        return 'host';
      case 'orderId':
      case 'order_id':
        return 'BG-100001';
      case 'hosts':
        return 'example.com';
      case 'session':
        return 'token';
      default:
        return undefined;
    }
  };

  /** One request per text field of every API route: its body, its query string and its path. */
  function nulCases(): Case[] {
    const cases: Case[] = [];
    for (const [template, operations] of Object.entries(openApi.paths)) {
      if (!template.startsWith('/api/')) {
        continue;
      }
      for (const [method, operation] of Object.entries(operations)) {
        const route = `${method.toUpperCase()} ${template}`;
        const parameters = (operation.parameters ?? []).filter((p) => p.in === 'query' || p.in === 'path');
        const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
        /** The request with every field valid, but for a NUL in the one parameter named. */
        const requestFor = (field: string, nulIn?: Parameter, body?: unknown): Case => {
          let url = template;
          const query = new URLSearchParams();
          for (const parameter of parameters) {
            const value = sampleAt(parameter.schema, [], valid, parameter.name);
            const text = String(parameter === nulIn ? withNul(value) : value);
            if (parameter.in === 'path') {
              url = url.replace(`{${parameter.name}}`, encodeURIComponent(text));
            } else {
              query.set(parameter.name, text);
            }
          }
          const search = query.toString();
          return { route, field, method: method.toUpperCase(), url: search ? `${url}?${search}` : url, body };
        };
        const validBody = bodySchema?.type === 'object' ? sampleAt(bodySchema, [], valid, '') : undefined;
        for (const parameter of parameters) {
          if (textPaths(parameter.schema).length > 0) {
            cases.push(requestFor(`${parameter.in} ${parameter.name}`, parameter, validBody));
          }
        }
        if (bodySchema?.type === 'object') {
          for (const path of textPaths(bodySchema)) {
            // The NUL goes into an otherwise valid value of that very field.
            const name = String(path.findLast((part) => typeof part === 'string') ?? '');
            const body = sampleAt(bodySchema, path, valid, '', withNul(valid(name) ?? 'x'));
            cases.push(requestFor(`body ${path.join('.')}`, undefined, body));
          }
        }
      }
    }
    return cases;
  }

  it('finds the routes that take text in the OpenAPI document', () => {
    const routes = new Set(nulCases().map((c) => c.route));
    // A floor, not the list: a new route adds itself to the cases below.
    for (const route of [
      'POST /api/auth/signup',
      'POST /api/auth/login',
      'POST /api/auth/forgot-password',
      'POST /api/auth/reset-password',
      'POST /api/auth/verify-email',
      'PUT /api/user-settings/profile',
      'GET /api/auth/google/callback',
      'PUT /api/user-settings/password',
      'POST /api/user-settings/password',
      'DELETE /api/user-settings/account',
      'POST /api/contact',
      'POST /api/subuser/create',
      'GET /api/subusers/get',
      'POST /api/subuser/regenerate-password',
      'GET /api/subuser/usage',
      'GET /api/subuser/allowlist',
      'POST /api/subuser/allowlist',
      'DELETE /api/subuser/allowlist',
      'PUT /api/proxy-settings',
      'POST /api/proxy-settings/states',
      'GET /api/orders/{orderId}/invoice',
      'POST /api/topup/cryptomus/create-invoice',
      'GET /api/topup/bitcart/status',
      'GET /api/admin/customers',
      'GET /api/admin/customers/{userId}',
      'POST /api/admin/customers/{userId}/balance',
      'POST /api/admin/plans/{planId}/threads',
      'GET /api/admin/audit',
      'GET /api/admin/sources/{sourceId}/catalog',
      'POST /api/admin/sources/{sourceId}/catalog',
    ]) {
      expect(routes, route).toContain(route);
    }
  });

  it('refuses a NUL in every text field of every route with 400 VALIDATION_FAILED, never a 500', async () => {
    const failures: string[] = [];
    const cases = nulCases();
    for (const c of cases) {
      const { status, body } = await server.request<{ error?: string; code?: string }>(c.method, c.url, {
        token: c.url.startsWith('/api/v1/') ? apiKey : token,
        body: c.body,
      });
      const isRefused =
        status === 400 &&
        body.code === 'VALIDATION_FAILED' &&
        /must not contain control characters/.test(body.error ?? '');
      if (!isRefused) {
        failures.push(`${c.route} (${c.field}): ${status} ${JSON.stringify(body)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(cases.length).toBeGreaterThan(40);
  });

  it('names the field it refuses, and lets a contact message keep its line breaks and tabs', async () => {
    const signup = await server.request('POST', '/api/auth/signup', {
      body: {
        firstName: 'A\u0000da',
        lastName: 'Lovelace',
        email: 'nul@example.com',
        password: 'long enough',
      },
    });
    expect(signup.status).toBe(400);
    expect(signup.body).toEqual({
      error: 'First name must not contain control characters (such as NUL)',
      code: 'VALIDATION_FAILED',
    });
    // A bell in a subject (one line) is refused; a message may span lines and hold tabs.
    const contact = (subject: string, message: string) =>
      server.request('POST', '/api/contact', {
        body: { name: 'Ada', email: 'ada@example.com', subject, message },
      });
    expect((await contact('Hello\u0007', 'Hi')).body).toEqual({
      error: 'Subject must not contain control characters (such as NUL)',
      code: 'VALIDATION_FAILED',
    });
    expect((await contact('Hello', 'Hi\u0000')).status).toBe(400);
    expect((await contact('Hello', 'Line one\r\n\tLine two\n')).status).toBe(201);
  });

  it('stores a webhook whose claims carry a NUL (dropping the claims) instead of answering 500', async () => {
    for (const url of ['/api/topup/bitcart/webhook', '/api/topup/cryptomus/webhook']) {
      const { status } = await server.request('POST', url, {
        rawBody: JSON.stringify({
          id: 'a\u0000b',
          uuid: 'a\u0000b',
          order_id: 'x\u0000',
          status: 'paid\u0000',
        }),
        headers: { 'content-type': 'application/json' },
      });
      expect({ url, status: status < 500 }).toEqual({ url, status: true });
    }
    expect((await server.request('GET', '/api/health')).status).toBe(200);
  });

  describe('a body nested 5,000 levels deep', () => {
    const routes: Array<[method: string, url: string]> = [
      ['POST', '/api/auth/signup'],
      ['POST', '/api/contact'],
      ['PUT', '/api/proxy-settings'],
      ['POST', '/api/topup/bitcart/webhook'],
      // Reads its JSON as text, to check the signature over the exact bytes.
      ['POST', '/api/topup/cryptomus/webhook'],
    ];
    // Arrays nest in 2 bytes a level: 5,000 levels are 10 KB, within every route's body limit. Objects
    // take 5 or more, so a route with a smaller limit (the webhooks take 16 KiB) may refuse those for
    // their size first: a 400 as well.
    const bodies = {
      arrays: nested(5000, '[', ']'),
      'beside a signature': `{"sign":"x","order_id":"ORD-1","data":${nested(5000, '[', ']')}}`,
      objects: nested(5000, '{"a":', '}'),
      'objects in a field': `{"firstName":${nested(5000, '{"a":', '}')},"countries":${nested(5000, '[', ']')}}`,
      'arrays and objects': nested(2500, '[{"a":', '}]'),
    };
    const tooDeep = { error: messages.bodyTooDeep, code: 'INVALID_BODY' };
    const tooLarge = { error: messages.bodyTooLarge, code: 'BODY_TOO_LARGE' };
    for (const [method, url] of routes) {
      it(`is a 400 INVALID_BODY on ${method} ${url}, and the server keeps serving`, async () => {
        for (const [shape, rawBody] of Object.entries(bodies)) {
          const { status, body } = await server.request(method, url, {
            token,
            rawBody,
            headers: { 'content-type': 'application/json' },
          });
          expect({ shape, status }).toEqual({ shape, status: 400 });
          if (rawBody.length <= 16 * 1024) {
            expect(body, shape).toEqual(tooDeep);
          } else {
            expect([tooDeep, tooLarge], shape).toContainEqual(body);
          }
        }
        expect((await server.request('GET', '/api/health')).status).toBe(200);
      });
    }

    it('still takes an ordinary nested body', async () => {
      const { status } = await server.request('PUT', '/api/proxy-settings', {
        token,
        body: { pool_type: 'residential', countries: ['US'], states: [] },
      });
      expect(status).toBe(200);
    });
  });
});
