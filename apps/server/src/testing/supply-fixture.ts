import type { SourceResponse, SupplyResponse } from '@bytegate/contracts/admin-supply';
import { addSourceHealth, addSourceUsage } from '@bytegate/db/queries';
import { CLI_ACTOR } from '../services/back-office/staff-actor.ts';
import { addSource } from '../services/supply/sources.ts';
import { createUserWithRole } from './staff.ts';
import { startTestServer, type TestServer } from './test-server.ts';

// The Supply page API's tests (routes/admin/sources*.test.ts): a server with three networks, one per
// pool, known bytes and dials on known days, and a customer, a support member and an admin to call it.

type User = Awaited<ReturnType<typeof createUserWithRole>>;

export const GB = 1024 ** 3;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The vendor accounts' passwords: never in an answer. */
export const SECRETS = ['S3cretPass', 'Hidden9ws', 'Resell7pw'];

/** UTC midnight `daysAgo` days before today, as the gateway writes a source's day. */
export const dayAgo = (daysAgo: number) =>
  new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS - daysAgo * DAY_MS);
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export interface SupplyFixture {
  server: TestServer;
  customer: User;
  support: User;
  admin: User;
  oxylabsId: string;
  webshareId: string;
}

export async function startSupplyFixture(kind: 'pglite' | 'postgres'): Promise<SupplyFixture> {
  const server = await startTestServer(kind);
  const customer = await createUserWithRole(server, 'customer');
  const support = await createUserWithRole(server, 'support');
  const admin = await createUserWithRole(server, 'admin');
  const ctx = { db: server.database.db, config: server.config };
  const add = (input: Record<string, unknown>) => addSource(ctx, { input, actor: CLI_ACTOR });
  const oxylabsId = (
    await add({
      name: 'Oxylabs residential',
      pool: 'residential',
      grammar: 'oxylabs',
      url: `http://acct:${SECRETS[0]}@127.0.0.1:7777`,
      costPerGb: '1.20',
    })
  ).id;
  const webshareId = (
    await add({
      name: 'Webshare DC',
      pool: 'datacenter',
      grammar: 'webshare',
      url: `socks5://ws:${SECRETS[1]}@127.0.0.1:1080`,
      costPerGb: '0.50',
    })
  ).id;
  // A name a spreadsheet would read as a formula, with a comma and quotes: the CSV must hold it safely.
  await add({
    name: '=Mobile reseller, "X"',
    pool: 'mobile',
    grammar: 'decodo',
    url: `https://rs:${SECRETS[2]}@127.0.0.1:8443`,
  });
  // Known bytes and dials, as the usage flush and the gateway's health counts write them.
  const usage = async (
    sourceId: string,
    daysAgo: number,
    [carriedBytes, billedBytes, connects, failures, connectMsTotal]: number[],
  ) => {
    const day = dayAgo(daysAgo);
    await addSourceUsage(server.database.db, {
      day,
      deltas: [{ sourceId, carriedBytes: carriedBytes ?? 0, billedBytes: billedBytes ?? 0 }],
    });
    await addSourceHealth(server.database.db, {
      day,
      deltas: [
        { sourceId, connects: connects ?? 0, failures: failures ?? 0, connectMsTotal: connectMsTotal ?? 0 },
      ],
    });
  };
  // Oxylabs: today 1 GB carried billed as 2 (target filters), 3 days ago half a GB, 10 days ago 2 GB,
  // and 40 days ago 100 GB, outside both ranges.
  await usage(oxylabsId, 0, [GB, 2 * GB, 6, 0, 120]);
  await usage(oxylabsId, 3, [GB / 2, GB / 2, 2, 2, 45]);
  await usage(oxylabsId, 10, [2 * GB, 2 * GB, 10, 0, 100]);
  await usage(oxylabsId, 40, [100 * GB, 100 * GB, 1, 0, 1]);
  // Webshare: today 1.5 GB, billed as carried.
  await usage(webshareId, 0, [1.5 * GB, 1.5 * GB, 3, 1, 30]);
  return { server, customer, support, admin, oxylabsId, webshareId };
}

/** The Supply routes as staff call them: support reads by default, an admin changes. */
export function supplyCalls(fixture: () => SupplyFixture) {
  const get = <T>(path: string, token = fixture().support.token) =>
    fixture().server.request<T>('GET', path, { token });
  return {
    get,
    async list(query = ''): Promise<SupplyResponse> {
      const answer = await get<SupplyResponse>(`/api/admin/sources${query}`);
      if (answer.status !== 200) {
        throw new Error(`the list answered ${answer.status}`);
      }
      return answer.body;
    },
    byName: (body: SupplyResponse, name: string) => body.sources.find((source) => source.name === name),
    patch: (sourceId: string, body: object, token = fixture().admin.token) =>
      fixture().server.request<SourceResponse & { error: string; code: string }>(
        'PATCH',
        `/api/admin/sources/${sourceId}`,
        { token, body },
      ),
    /** The CSV as a browser downloads it (the test server's `request` reads JSON). */
    async csv(query = '', token = fixture().support.token) {
      const response = await fetch(`${fixture().server.url}/api/admin/sources.csv${query}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    },
  };
}
