import { bigint, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { plans } from './plans.ts';

/**
 * The Statistics section's usage (issue 19), by plan and by credential: `credentialKey` is `*` for all
 * of a plan's credentials together, `` (empty) for the plan's own login, or a proxy user's id. The `*`
 * rows are written beside the others at each flush, so a customer-wide view reads one row per plan and
 * hour however many proxy users the plan has. `errors` counts every refused or failed request,
 * `refusals` those refused by our own policy (a blocked port or host, a private target, bad targeting
 * syntax), which the success rate leaves out. Hourly rows are kept 90 days, daily ones 13 months.
 */
const counts = {
  /** Bytes that crossed the client socket, both directions. */
  bytes: bigint({ mode: 'number' }).notNull().default(0),
  /** Extra bytes billed for target filters (2x): billed = bytes + extraBytes. */
  extraBytes: bigint({ mode: 'number' }).notNull().default(0),
  requests: bigint({ mode: 'number' }).notNull().default(0),
  errors: bigint({ mode: 'number' }).notNull().default(0),
  refusals: bigint({ mode: 'number' }).notNull().default(0),
};

const planId = () =>
  uuid()
    .notNull()
    .references(() => plans.id);

export const usageStatsHourly = pgTable(
  'usage_stats_hourly',
  {
    planId: planId(),
    credentialKey: text().notNull(),
    hour: timestamp({ withTimezone: true }).notNull(),
    ...counts,
  },
  (table) => [
    primaryKey({ columns: [table.planId, table.credentialKey, table.hour] }),
    index('usage_stats_hourly_hour_idx').on(table.hour),
  ],
);

export const usageStatsDaily = pgTable(
  'usage_stats_daily',
  {
    planId: planId(),
    credentialKey: text().notNull(),
    day: timestamp({ withTimezone: true }).notNull(),
    ...counts,
  },
  (table) => [
    primaryKey({ columns: [table.planId, table.credentialKey, table.day] }),
    index('usage_stats_daily_day_idx').on(table.day),
  ],
);

/** Refused and failed requests by error code, per plan, credential and hour. */
export const usageStatsErrorsHourly = pgTable(
  'usage_stats_errors_hourly',
  {
    planId: planId(),
    credentialKey: text().notNull(),
    hour: timestamp({ withTimezone: true }).notNull(),
    code: text().notNull(),
    count: bigint({ mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.planId, table.credentialKey, table.hour, table.code] }),
    index('usage_stats_errors_hourly_hour_idx').on(table.hour),
  ],
);

export const usageStatsErrorsDaily = pgTable(
  'usage_stats_errors_daily',
  {
    planId: planId(),
    credentialKey: text().notNull(),
    day: timestamp({ withTimezone: true }).notNull(),
    code: text().notNull(),
    count: bigint({ mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.planId, table.credentialKey, table.day, table.code] }),
    index('usage_stats_errors_daily_day_idx').on(table.day),
  ],
);

/** Bytes, requests and refused or failed requests per target host, per plan, credential and UTC day. */
export const usageStatsHostsDaily = pgTable(
  'usage_stats_hosts_daily',
  {
    planId: planId(),
    credentialKey: text().notNull(),
    day: timestamp({ withTimezone: true }).notNull(),
    host: text().notNull(),
    bytes: bigint({ mode: 'number' }).notNull().default(0),
    requests: bigint({ mode: 'number' }).notNull().default(0),
    errors: bigint({ mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.planId, table.credentialKey, table.day, table.host] }),
    index('usage_stats_hosts_daily_day_idx').on(table.day),
  ],
);
