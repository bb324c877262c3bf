// bench/inventory: the Proxy Settings option lists and the gateway's inventory refresh on 100,000 exits.
// `npm run bench:inventory` (PostgreSQL when TEST_DATABASE_URL is set, else in-memory PGlite). Each
// figure is the median of its runs, and its ratio to a baseline run in the same process: reading the
// pool's location columns whole, which is what computing a list without indexes costs per keystroke.

import { createExits, type NewExit } from '@bytegate/db/queries';
import { createTestDb } from '@bytegate/db/testing';
import { sql } from 'drizzle-orm';
import { DbGatewayStore } from '../../apps/server/src/gateway/db-gateway-store.ts';
import {
  asnOptions,
  countryOptions,
  geoFilter,
  stateOptions,
  zipcodeOptions,
} from '../../apps/server/src/services/proxy-settings/geo-options.ts';

const EXITS = 100_000;
const RUNS = 15;
const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
const log = (text: string) => process.stderr.write(`${text}\n`);

// 150 countries, 20 states each, 8 ASNs per country and a postal code per state and city: enough
// variety that every list has something to sort, shaped like a residential pool.
const countries = Array.from(
  { length: 150 },
  (_, i) => `${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`,
);
function exitAt(i: number): NewExit {
  const country = countries[i % countries.length] as string;
  const state = (i >> 3) % 20;
  const city = (i >> 5) % 40;
  return {
    name: `bench-${i}`,
    kind: 'direct',
    poolType: i % 10 === 0 ? 'mobile' : 'residential',
    localAddress: '127.0.0.1',
    country,
    state: `State ${country}-${state}`,
    city: `City ${country}-${city}`,
    zip: `${country}${String(state * 100 + city).padStart(5, '0')}`,
    asn: 64_512 + ((i >> 2) % 8) + (i % countries.length) * 8,
    asnName: `Carrier ${(i >> 2) % 8} of ${country}`,
    isRisky: i % 17 === 0,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function time(run: () => Promise<unknown>): Promise<number> {
  await run(); // warm
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const handle = await createTestDb(kind);
try {
  log(`seeding ${EXITS.toLocaleString('en-US')} exits into ${kind}...`);
  for (let start = 0; start < EXITS; start += 2_000) {
    await createExits(handle.db, {
      exits: Array.from({ length: Math.min(2_000, EXITS - start) }, (_, k) => exitAt(start + k)),
    });
  }
  if (kind === 'postgres') {
    await handle.db.execute(sql`analyze exits`);
  }
  const db = handle.db;
  const chosen = { countries: ['AA', 'BK'] };
  const baseline = await time(() =>
    db.execute(
      sql`select country, state, city, zip, asn, asn_name from exits where pool_type = 'residential' and is_active`,
    ),
  );
  const rows: Array<[string, number]> = [
    ['countries of the pool', await time(() => countryOptions(db, geoFilter('residential', {})))],
    ['states of 2 countries', await time(() => stateOptions(db, geoFilter('residential', chosen)))],
    [
      'ASNs of 2 countries and a state',
      await time(() => asnOptions(db, geoFilter('residential', { ...chosen, states: ['state aa-3'] }))),
    ],
    ['ZIP codes of 2 countries', await time(() => zipcodeOptions(db, geoFilter('residential', chosen)))],
  ];
  const store = new DbGatewayStore(db);
  await store.refresh();
  const refresh = await time(() => store.refresh());

  const lines = [
    '',
    `# bench/inventory on ${kind}, ${EXITS.toLocaleString('en-US')} exits (${(EXITS * 0.9).toLocaleString('en-US')} residential)`,
    '',
    `Baseline: reading the pool's location columns whole, ${baseline.toFixed(1)} ms (median of ${RUNS}).`,
    '',
    '| option list | median | vs baseline |',
    '|---|---|---|',
    ...rows.map(
      ([label, ms]) => `| ${label} | ${ms.toFixed(1)} ms | ${((ms / baseline) * 100).toFixed(0)}% |`,
    ),
    '',
    `Gateway store refresh with nothing changed (runs every second; plans incremental, exits on a version change): ${refresh.toFixed(1)} ms ` +
      `(${((refresh / baseline) * 100).toFixed(0)}% of the baseline).`,
  ];
  if (kind === 'postgres') {
    const plan = (await db.execute(
      sql`explain select distinct state from exits where pool_type = 'residential' and is_active and country in ('AA', 'BK') and state is not null`,
    )) as unknown as { rows: Array<Record<string, unknown>> };
    lines.push(
      '',
      'Plan of the states list:',
      '',
      ...plan.rows.map((row) => `    ${String(Object.values(row)[0])}`),
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await handle.close();
}
