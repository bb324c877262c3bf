import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { plans, poolType } from './plans.ts';

export const exitKind = pgEnum('exit_kind', ['direct', 'upstream']);

/**
 * The exit inventory: where customer traffic leaves. `direct` exits leave from the gateway host
 * (optionally bound to one of its addresses); `upstream` exits relay through another proxy.
 */
export const exits = pgTable(
  'exits',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    kind: exitKind().notNull(),
    poolType: poolType().notNull(),
    localAddress: text(),
    upstreamUrl: text(),
    country: text().notNull(),
    state: text(),
    city: text(),
    zip: text(),
    asn: integer(),
    asnName: text(),
    /** Mobile network generation (5G, 4G, 3G, LTE). */
    mobileGeneration: text(),
    /** Skipped by the anonymous filter. */
    isRisky: boolean().notNull().default(false),
    isActive: boolean().notNull().default(true),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('exits_pool_country_idx').on(table.poolType, table.country),
    check('exits_country_code', sql`${table.country} ~ '^[A-Z]{2}$'`),
    check(
      'exits_kind_fields',
      sql`(${table.kind} = 'direct' and ${table.upstreamUrl} is null) or (${table.kind} = 'upstream' and ${table.upstreamUrl} is not null)`,
    ),
  ],
);

/** Client addresses allowed to use a plan without credentials; one address belongs to one plan. */
export const planAllowlist = pgTable('plan_allowlist', {
  address: text().primaryKey(),
  planId: uuid()
    .notNull()
    .references(() => plans.id, { onDelete: 'cascade' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
