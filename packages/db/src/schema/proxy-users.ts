import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { plans } from './plans.ts';

export const trafficCapPeriod = pgEnum('traffic_cap_period', ['day', 'month', 'lifetime']);

/** A proxy user's own saved targeting: the Proxy Settings fields, used instead of the plan's when set. */
export interface ProxyUserTargeting {
  countries: string[];
  states: string[];
  cities: string[];
  zipcodes: string[];
  asns: number[];
  excludeCountries: string[];
  excludeAsns: number[];
  anonymousFilter: boolean;
  rotationMinutes: number;
}

/**
 * A proxy user: another credential under a plan, with its own caps. Traffic is drawn from the plan; a
 * cap only bounds this user's share. `periodUsedBytes` counts from `periodStart` (the UTC day or month
 * the last usage fell in): a write in a later period starts it again. Logins never start with `bg`, so
 * they cannot meet a plan's.
 */
export const proxyUsers = pgTable(
  'proxy_users',
  {
    id: uuid().primaryKey().defaultRandom(),
    planId: uuid()
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    login: text().notNull().unique(),
    password: text().notNull(),
    label: text().notNull().default(''),
    isEnabled: boolean().notNull().default(true),
    trafficCapBytes: bigint({ mode: 'number' }),
    capPeriod: trafficCapPeriod(),
    threadLimit: integer(),
    trafficUsedBytes: bigint({ mode: 'number' }).notNull().default(0),
    periodUsedBytes: bigint({ mode: 'number' }).notNull().default(0),
    periodStart: timestamp({ withTimezone: true }),
    targeting: jsonb().$type<ProxyUserTargeting>(),
    allowlist: text().array().notNull().default(sql`'{}'`),
    /**
     * The addresses of `allowlist` its owner proved (added by a request from that very address): only
     * these let traffic in without credentials (the plan allowlist's `is_verified`).
     */
    allowlistVerified: text().array().notNull().default(sql`'{}'`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    index('proxy_users_plan_idx').on(table.planId),
    check(
      'proxy_users_cap_pair',
      sql`(${table.trafficCapBytes} is null) = (${table.capPeriod} is null) and coalesce(${table.trafficCapBytes}, 0) >= 0`,
    ),
    check('proxy_users_thread_limit_positive', sql`${table.threadLimit} is null or ${table.threadLimit} > 0`),
    check(
      'proxy_users_used_non_negative',
      sql`${table.trafficUsedBytes} >= 0 and ${table.periodUsedBytes} >= 0`,
    ),
    check('proxy_users_login_not_plan_like', sql`${table.login} !~ '^bg'`),
  ],
);

/** A proxy user's usage per hour (its plan's usage_buckets hold the same bytes, for the whole plan). */
export const proxyUserUsage = pgTable(
  'proxy_user_usage',
  {
    proxyUserId: uuid()
      .notNull()
      .references(() => proxyUsers.id, { onDelete: 'cascade' }),
    bucketStart: timestamp({ withTimezone: true }).notNull(),
    bytes: bigint({ mode: 'number' }).notNull().default(0),
    extraBytes: bigint({ mode: 'number' }).notNull().default(0),
    requests: integer().notNull().default(0),
    errors: integer().notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.proxyUserId, table.bucketStart] })],
);
