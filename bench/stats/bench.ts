// bench/stats: the Statistics section's queries at scale on PostgreSQL (issue 19's target: with
// 1,000,000 usage rows for one customer and 50 million in the table, every query under 50 ms p99).
// `npm run bench:stats` (needs TEST_DATABASE_URL). It seeds a database of its own once,
// `bytegate_bench_stats` on that server (a few minutes; kept for the next runs, `--reseed` starts
// again), then times each query of a customer with three plans and 460 proxy users (one row per
// credential and hour for 90 days: about a million rows) as the API runs them, 200 times each, with a
// baseline from the same run: reading that customer's rows for the range whole, without aggregating.
import { createDb } from '@bytegate/db';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import {
  getStatsErrors,
  getStatsHostsPage,
  getStatsSeries,
} from '../../apps/server/src/services/stats/get-stats.ts';
import { listStatsCredentials, resolveStatsScope } from '../../apps/server/src/services/stats/stats-scope.ts';

const TARGET_MS = 50;
const RUNS = 200;
const DAYS = 90;
const HOURS = DAYS * 24;
/** Other customers' plans: each has an all-credentials and an own-login row an hour for 90 days. */
const OTHER_PLANS = 11_300;
const PROXY_USERS = 460;
const DATABASE = 'bytegate_bench_stats';
const log = (text: string) => process.stderr.write(`${text}\n`);

const base = process.env.TEST_DATABASE_URL;
if (!base) {
  log(
    'bench:stats needs PostgreSQL: set TEST_DATABASE_URL (for example postgres://postgres@127.0.0.1:5432/test).',
  );
  process.exit(1);
}
const url = new URL(base);
url.pathname = `/${DATABASE}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
const exists = (await admin.query('select 1 from pg_database where datname = $1', [DATABASE])).rowCount === 1;
// A seed that finished leaves the table bench_seeded; one cut short is started again from nothing.
let seeded = false;
if (exists && !process.argv.includes('--reseed')) {
  const probe = new pg.Client({ connectionString: url.toString() });
  await probe.connect();
  seeded = (await probe.query("select to_regclass('bench_seeded') as t")).rows[0]?.t !== null;
  await probe.end();
}
if (exists && !seeded) {
  await admin.query(`drop database ${DATABASE} with (force)`);
}
if (!seeded) {
  await admin.query(`create database ${DATABASE}`);
}
await admin.end();

// Seeding runs statements of minutes: no query timeout here.
const handle = await createDb({ databaseUrl: url.toString(), maxConnections: 4, queryTimeoutMs: 0 });
await handle.migrate();
const db = handle.db;
const rows = async <T>(query: ReturnType<typeof sql>) =>
  (await db.execute(query)) as unknown as { rows: T[] };

async function seed(): Promise<void> {
  const started = performance.now();
  const step = (text: string) => log(`  ${text} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  log(
    `seeding ${DATABASE}: ${OTHER_PLANS.toLocaleString('en-US')} other plans and one customer with ${PROXY_USERS} proxy users...`,
  );
  await db.execute(sql`insert into users (email, password_hash, first_name, last_name)
    select 'bench-' || i || '@example.com', '!', 'Bench', 'Customer' from generate_series(0, ${OTHER_PLANS}) i`);
  await db.execute(sql`insert into plans (user_id, pool_type, label, login, password, thread_limit, traffic_total_bytes)
    select u.id, (array['datacenter','residential','mobile'])[1 + i % 3]::pool_type, 'Bench plan', 'bgbench' || i, 'x', 500, 1099511627776
    from (select id, row_number() over (order by email) - 1 as i from users where email like 'bench-%') u where i > 0`);
  // The customer measured: bench-0, with a plan of each pool and 460 proxy users on the residential one.
  await db.execute(sql`insert into plans (user_id, pool_type, label, login, password, thread_limit, traffic_total_bytes)
    select u.id, p::pool_type, initcap(p) || ' plan', 'bgtarget' || p, 'x', 500, 1099511627776
    from users u, unnest(array['datacenter','residential','mobile']) p where u.email = 'bench-0@example.com'`);
  await db.execute(sql`insert into proxy_users (plan_id, login, password, label)
    select p.id, 'benchuser' || lpad(i::text, 4, '0'), 'x', 'Customer ' || i
    from plans p, generate_series(1, ${PROXY_USERS}) i where p.login = 'bgtargetresidential'`);
  step('users, plans and proxy users');
  // Hourly rows, from 90 days ago to now: the measured customer's every credential, and the others'.
  await db.execute(sql`insert into usage_stats_hourly (plan_id, credential_key, hour, bytes, extra_bytes, requests, errors, refusals)
    select c.plan_id, c.key, date_trunc('hour', now()) - make_interval(hours => h),
      (1000000 + (h * 7919 + c.n * 104729) % 50000000)::bigint, 0, 100 + (h + c.n) % 900, (h + c.n) % 17, (h + c.n) % 5
    from (
      select p.id as plan_id, k.key, row_number() over () as n from plans p
      cross join lateral (select unnest(array['*', '']) as key) k where p.login like 'bgtarget%'
      union all
      select pu.plan_id, pu.id::text, row_number() over () + 10 from proxy_users pu
    ) c, generate_series(0, ${HOURS - 1}) h`);
  step('the measured customer: hourly rows');
  for (let from = 0; from < OTHER_PLANS; from += 1000) {
    await db.execute(sql`insert into usage_stats_hourly (plan_id, credential_key, hour, bytes, extra_bytes, requests, errors, refusals)
      select p.id, k.key, date_trunc('hour', now()) - make_interval(hours => h),
        (500000 + (h * 31 + p.n) % 9000000)::bigint, 0, 50 + (h + p.n) % 400, (h + p.n) % 11, (h + p.n) % 3
      from (select id, row_number() over (order by login) as n from plans where login like 'bgbench%') p,
        unnest(array['*', '']) k(key), generate_series(0, ${HOURS - 1}) h
      where p.n > ${from} and p.n <= ${from + 1000}`);
    step(`other customers: hourly rows of plans ${from + 1} to ${Math.min(from + 1000, OTHER_PLANS)}`);
  }
  await db.execute(sql`insert into usage_stats_daily (plan_id, credential_key, day, bytes, extra_bytes, requests, errors, refusals)
    select plan_id, credential_key, date_trunc('day', hour, 'UTC'), sum(bytes), sum(extra_bytes), sum(requests), sum(errors), sum(refusals)
    from usage_stats_hourly group by plan_id, credential_key, date_trunc('day', hour, 'UTC')`);
  step('daily rows');
  await db.execute(sql`insert into usage_stats_errors_hourly (plan_id, credential_key, hour, code, count)
    select plan_id, credential_key, hour, (array['NO_HOST_CONNECTION','NO_RAY','PORT_BLOCKED','THREADS_EXHAUSTED'])[1 + (extract(hour from hour)::int % 4)], errors
    from usage_stats_hourly where errors > 8`);
  await db.execute(sql`insert into usage_stats_errors_daily (plan_id, credential_key, day, code, count)
    select plan_id, credential_key, date_trunc('day', hour, 'UTC'), code, sum(count)
    from usage_stats_errors_hourly group by 1, 2, 3, 4`);
  step('errors by code');
  // Hosts: the measured customer reaches 300 hosts a day on each plan (and each proxy user 5 of them).
  await db.execute(sql`insert into usage_stats_hosts_daily (plan_id, credential_key, day, host, bytes, requests, errors)
    select p.id, '*', date_trunc('day', now(), 'UTC') - make_interval(days => d), 'site-' || s || '.example.com',
      (100000 + (s * 7 + d) % 900000)::bigint, 10 + s % 50, s % 3
    from plans p, generate_series(0, ${DAYS - 1}) d, generate_series(1, 300) s where p.login like 'bgtarget%'`);
  await db.execute(sql`insert into usage_stats_hosts_daily (plan_id, credential_key, day, host, bytes, requests, errors)
    select pu.plan_id, pu.id::text, date_trunc('day', now(), 'UTC') - make_interval(days => d), 'site-' || s || '.example.com',
      (10000 + (s * 13 + d) % 90000)::bigint, 1 + s % 5, 0
    from proxy_users pu, generate_series(0, ${DAYS - 1}) d, generate_series(1, 5) s`);
  await db.execute(sql`insert into usage_stats_hosts_daily (plan_id, credential_key, day, host, bytes, requests, errors)
    select p.id, '*', date_trunc('day', now(), 'UTC') - make_interval(days => d), 'host-' || s || '.example.org', 1000 * s, s, 0
    from plans p, generate_series(0, ${DAYS - 1}) d, generate_series(1, 5) s where p.login like 'bgbench%'`);
  step('target hosts');
  await db.execute(sql`analyze`);
  step('analyze');
  await db.execute(sql`create table bench_seeded (at timestamptz not null default now())`);
}

if (!seeded) {
  await seed();
} else {
  // A migration since the seed may have added planner statistics: they exist only once analyzed (as
  // autovacuum's analyze would in a while on a live database).
  await db.execute(sql`analyze usage_stats_hourly, usage_stats_daily, usage_stats_errors_hourly,
    usage_stats_errors_daily, usage_stats_hosts_daily`);
}

const counts = await rows<{ total: string; mine: string }>(sql`
  select (select count(*) from usage_stats_hourly) as total,
    (select count(*) from usage_stats_hourly where plan_id in
      (select p.id from plans p join users u on u.id = p.user_id where u.email = 'bench-0@example.com')) as mine`);
const total = Number(counts.rows[0]?.total ?? 0);
const mine = Number(counts.rows[0]?.mine ?? 0);
const target = await rows<{ id: string }>(sql`select id from users where email = 'bench-0@example.com'`);
const userId = target.rows[0]?.id as string;
const credentials = await listStatsCredentials(db, { userId });
const someUser = credentials.find((credential) => credential.kind === 'proxy_user')?.id as string;
const residentialLogin = credentials.find(
  (credential) => credential.kind === 'plan' && credential.pool === 'residential',
)?.id as string;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? 0;

async function time(run: () => Promise<unknown>, runs = RUNS): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(5, runs); i++) {
    await run();
  }
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

const now = Date.now();
const ago = (days: number) => new Date(now - days * 86_400_000).toISOString();
// A window of exactly `days` ending at the next whole hour (the longest hourly view is 90 days).
const toMs = Math.ceil(now / 3_600_000) * 3_600_000;
const view = (days: number, resolution: 'hour' | 'day', credential?: string) => ({
  from: new Date(toMs - days * 86_400_000).toISOString(),
  to: new Date(toMs).toISOString(),
  resolution,
  ...(credential ? { credential } : {}),
});
const series = (request: ReturnType<typeof view>) => async () =>
  getStatsSeries(db, await resolveStatsScope(db, { userId, request }));
const errors = (request: ReturnType<typeof view>) => async () =>
  getStatsErrors(db, await resolveStatsScope(db, { userId, request }));
const hosts = (request: ReturnType<typeof view>, search?: string) => async () =>
  getStatsHostsPage(db, await resolveStatsScope(db, { userId, request: { ...request, resolution: 'day' } }), {
    search,
  });

log(
  `timing on ${total.toLocaleString('en-US')} hourly rows, ${mine.toLocaleString('en-US')} of them the customer's...`,
);
// The baseline reads a million rows: a few runs give its median.
const baseline = await time(
  () =>
    db.execute(sql`select * from usage_stats_hourly where plan_id in
    (select id from plans where user_id = ${userId}) and hour >= ${ago(90)}::timestamptz`),
  5,
);
const cases: Array<[string, () => Promise<unknown>]> = [
  ['series, 24 h by the hour, all credentials', series(view(1, 'hour'))],
  ['series, 7 d by the hour, all credentials', series(view(7, 'hour'))],
  ['series, 90 d by the hour, all credentials', series(view(90, 'hour'))],
  ['series, 90 d by the day, all credentials', series(view(90, 'day'))],
  ['series, 90 d by the hour, one proxy user', series(view(90, 'hour', someUser))],
  ["series, 30 d by the day, the residential plan's own login", series(view(30, 'day', residentialLogin))],
  ['errors by code, 90 d by the hour, all credentials', errors(view(90, 'hour'))],
  ['errors by code, 7 d by the hour, one proxy user', errors(view(7, 'hour', someUser))],
  ['hosts, 90 d, first page, all credentials', hosts(view(90, 'day'))],
  ['hosts, 90 d, search "site-12"', hosts(view(90, 'day'), 'site-12')],
  ['hosts, 30 d, one proxy user', hosts(view(30, 'day', someUser))],
  ['credentials (3 plans, 460 proxy users)', () => listStatsCredentials(db, { userId })],
];
const results: Array<[string, { p50: number; p99: number }]> = [];
for (const [label, run] of cases) {
  results.push([label, await time(run)]);
}
const misses = results.filter(([, timing]) => timing.p99 >= TARGET_MS);
process.stdout.write(
  [
    '',
    `# bench/stats on PostgreSQL: ${total.toLocaleString('en-US')} hourly usage rows, ${mine.toLocaleString('en-US')} of the customer measured`,
    '',
    `${RUNS} runs each, through the services the API calls (scope, then the query). Baseline: reading the customer's 90 days of hourly rows whole, p50 of 5 runs ${baseline.p50.toFixed(1)} ms.`,
    '',
    '| query | p50 | p99 | p99 vs baseline p50 |',
    '|---|---|---|---|',
    ...results.map(
      ([label, timing]) =>
        `| ${label} | ${timing.p50.toFixed(1)} ms | ${timing.p99.toFixed(1)} ms | ${(timing.p99 / baseline.p50).toFixed(2)}x |`,
    ),
    '',
    'Target:',
    '',
    `- ${misses.length === 0 ? 'PASS' : 'MISS'} every Statistics query under ${TARGET_MS} ms p99${misses.length > 0 ? ` (over: ${misses.map(([label]) => label).join('; ')})` : ''}`,
    '',
  ].join('\n'),
);
await handle.close();
