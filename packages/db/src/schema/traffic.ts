import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { plans } from './plans.ts';

/**
 * Usage aggregates behind the dashboard: per plan per hour, the bytes carried, the extra bytes billed
 * for target filters, requests and errors. The gateway adds to these as it flushes its metering;
 * rows older than 30 days are dropped.
 */
export const usageBuckets = pgTable(
  'usage_buckets',
  {
    planId: uuid()
      .notNull()
      .references(() => plans.id),
    /** Start of the hour the bucket covers. */
    bucketStart: timestamp({ withTimezone: true }).notNull(),
    /** Bytes that crossed the client socket, both directions. */
    bytes: bigint({ mode: 'number' }).notNull().default(0),
    /** Extra bytes billed on top (target filters bill 2x, so this equals `bytes` of filtered traffic). */
    extraBytes: bigint({ mode: 'number' }).notNull().default(0),
    requests: integer().notNull().default(0),
    errors: integer().notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.planId, table.bucketStart] }),
    index('usage_buckets_start_idx').on(table.bucketStart),
  ],
);

/** Refusals per plan per hour by error code (NO_RAY, PORT_BLOCKED, ...), for the error statistics. */
export const usageErrors = pgTable(
  'usage_errors',
  {
    planId: uuid()
      .notNull()
      .references(() => plans.id),
    bucketStart: timestamp({ withTimezone: true }).notNull(),
    code: text().notNull(),
    count: integer().notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.planId, table.bucketStart, table.code] }),
    index('usage_errors_start_idx').on(table.bucketStart),
  ],
);

/**
 * Bytes per target host per plan per UTC day (daily, not hourly: a scraper reaches many hosts, and the
 * question asked of this table is "where did my traffic go this month").
 */
export const usageHosts = pgTable(
  'usage_hosts',
  {
    planId: uuid()
      .notNull()
      .references(() => plans.id),
    dayStart: timestamp({ withTimezone: true }).notNull(),
    host: text().notNull(),
    bytes: bigint({ mode: 'number' }).notNull().default(0),
  },
  (table) => [
    primaryKey({ columns: [table.planId, table.dayStart, table.host] }),
    index('usage_hosts_start_idx').on(table.dayStart),
  ],
);

/**
 * Every metering flush the database committed, by the id the gateway gave it. A flush whose answer was
 * lost (the connection died around COMMIT) is looked up here before its usage is sent again, so it is
 * billed once whatever happened to it. Kept a day.
 */
export const usageFlushes = pgTable(
  'usage_flushes',
  {
    id: uuid().primaryKey(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('usage_flushes_created_at_idx').on(table.createdAt)],
);
