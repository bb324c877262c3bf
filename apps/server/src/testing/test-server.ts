import type { DbHandle } from '@bytegate/db';
import { createTestDb } from '@bytegate/db/testing';
import { freePort } from '@bytegate/gateway/testing';
import type { FastifyInstance } from 'fastify';
import { type Config, loadConfig } from '../config.ts';
import { LocalGatewayChanges } from '../gateway/local-gateway-changes.ts';
import { type BuildAppOptions, buildApp } from '../http/app.ts';
import { createPaymentProviders, type PaymentProviders } from '../payments/providers.ts';

export interface TestServer {
  url: string;
  app: FastifyInstance;
  /** The database; `databaseUrl` is set on PostgreSQL, so another process can open it too. */
  database: DbHandle & { databaseUrl?: string };
  config: Config;
  /** The payment provider registry the app was built with, for jobs run beside it. */
  payments: PaymentProviders;
  /** Where a gateway run beside the app registers, so that API writes answer once it read them. */
  gatewayChanges: LocalGatewayChanges;
  /** Real HTTP to the running server; answers the status and the parsed JSON body. */
  request<T = Record<string, unknown>>(
    method: string,
    path: string,
    options?: { body?: unknown; token?: string; headers?: Record<string, string>; rawBody?: string },
  ): Promise<{ status: number; body: T; headers: Headers }>;
  close(): Promise<void>;
}

export type ConfigOverrides = Partial<Omit<Config, 'rateLimits'>> & {
  rateLimits?: Partial<Config['rateLimits']>;
};

/** The real app on a fresh, migrated database of the given kind, listening on 127.0.0.1. */
export async function startTestServer(
  kind: 'pglite' | 'postgres',
  overrides: ConfigOverrides = {},
  options: Pick<BuildAppOptions, 'liveStats'> = {},
): Promise<TestServer> {
  // The port is chosen first so that PUBLIC_URL (webhook and checkout links) points at this server.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const base = loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: url, HOST: '127.0.0.1', PORT: String(port) });
  const config: Config = {
    ...base,
    ...overrides,
    rateLimits: { ...base.rateLimits, ...overrides.rateLimits },
  };
  const database = await createTestDb(kind);
  const payments = createPaymentProviders(config);
  const gatewayChanges = new LocalGatewayChanges();
  const app = await buildApp({
    config,
    db: database.db,
    payments,
    gatewayChanges,
    logger: false,
    webDistDir: '/nonexistent',
    ...options,
  });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    url,
    app,
    database,
    config,
    payments,
    gatewayChanges,
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        headers['content-type'] ??= 'application/json';
        body = JSON.stringify(options.body);
      }
      if (options.token) {
        headers.authorization = `Bearer ${options.token}`;
      }
      const response = await fetch(url + path, { method, headers, body });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : {}, headers: response.headers };
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

let emailCounter = 0;

/** A unique, valid sign-up body; override any field. */
export function buildSignup(overrides: Record<string, unknown> = {}) {
  emailCounter += 1;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ada.${Date.now()}.${emailCounter}@example.com`,
    password: 'correct horse battery',
    ...overrides,
  };
}

/** Signs a new user up through the API and answers their token and credentials. */
export async function createUserViaApi(server: TestServer, overrides: Record<string, unknown> = {}) {
  const signup = buildSignup(overrides);
  const { status, body } = await server.request<{ token: string }>('POST', '/api/auth/signup', {
    body: signup,
  });
  if (status !== 201) {
    throw new Error(`signup failed with ${status}: ${JSON.stringify(body)}`);
  }
  return { token: body.token, email: signup.email.toLowerCase(), password: signup.password };
}

/** Rows of a raw SQL query, for tests that check what was stored. */
export async function queryRows<T = Record<string, unknown>>(server: TestServer, sql: string): Promise<T[]> {
  const result = await server.database.db.execute(sql);
  return (result as unknown as { rows: T[] }).rows;
}
