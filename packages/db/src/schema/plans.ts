import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

export const poolType = pgEnum('pool_type', ['datacenter', 'residential', 'mobile']);

/**
 * A plan ("subuser"): one per user and pool. Its login and password are the proxy credentials;
 * traffic is integer bytes, bought in GB (1024^3 bytes) and used by the gateway.
 */
export const plans = pgTable(
  'plans',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    poolType: poolType().notNull(),
    label: text().notNull(),
    login: text().notNull().unique(),
    password: text().notNull(),
    threadLimit: integer().notNull(),
    trafficTotalBytes: bigint({ mode: 'number' }).notNull().default(0),
    trafficUsedBytes: bigint({ mode: 'number' }).notNull().default(0),
    isActive: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    unique('plans_user_pool_unique').on(table.userId, table.poolType),
    check(
      'plans_traffic_non_negative',
      sql`${table.trafficTotalBytes} >= 0 and ${table.trafficUsedBytes} >= 0`,
    ),
    check('plans_thread_limit_positive', sql`${table.threadLimit} > 0`),
  ],
);
