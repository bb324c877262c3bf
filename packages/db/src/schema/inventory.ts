import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
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
    /**
     * Set by the health job when the exit kept failing (its probes or its real traffic): the gateway
     * leaves it out of rotation until an admin puts it back or a later probe succeeds. `isActive` is
     * the operator's own switch and stays as it was.
     */
    outOfRotationAt: timestamp({ withTimezone: true }),
    outOfRotationReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /**
     * The inventory version of the statement that last wrote the row (a trigger stamps it, whoever
     * writes): the gateway reads the rows changed since the version it has, not the whole inventory.
     */
    changedVersion: bigint({ mode: 'number' }).notNull().default(0),
  },
  (table) => [
    index('exits_changed_version_idx').on(table.changedVersion),
    index('exits_pool_country_idx').on(table.poolType, table.country),
    // The option lists of Proxy Settings: states, ASNs and postal codes of the chosen countries.
    index('exits_pool_country_state_idx').on(table.poolType, table.country, table.state),
    index('exits_pool_country_asn_idx').on(table.poolType, table.country, table.asn),
    index('exits_pool_country_zip_idx').on(table.poolType, table.country, table.zip),
    check('exits_country_code', sql`${table.country} ~ '^[A-Z]{2}$'`),
    check(
      'exits_kind_fields',
      sql`(${table.kind} = 'direct' and ${table.upstreamUrl} is null) or (${table.kind} = 'upstream' and ${table.upstreamUrl} is not null)`,
    ),
  ],
);

/**
 * Client addresses allowed to use a plan without credentials. One customer lists an address on one of
 * their plans at most; once a customer proved an address (a verified entry, here or on a proxy user),
 * no other customer may list it (the API checks both, under the address's lock). The gateway lets an
 * address in without credentials only for its one verified entry (gateway allowlist-holders.ts).
 */
export const planAllowlist = pgTable(
  'plan_allowlist',
  {
    planId: uuid()
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    address: text().notNull(),
    /** Added by a request that came from this address: its owner proved they are behind it. */
    isVerified: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.planId, table.address] }),
    index('plan_allowlist_address_idx').on(table.address),
  ],
);

/**
 * A plan's saved targeting (SPEC section 3): the default of every connection through the plan; a proxy
 * login's parameters override it per connection. Saving it also touches the plan's `updated_at`, which
 * is how the gateway's refresh notices.
 */
export const proxySettings = pgTable(
  'proxy_settings',
  {
    planId: uuid()
      .primaryKey()
      .references(() => plans.id, { onDelete: 'cascade' }),
    countries: text().array().notNull().default(sql`'{}'`),
    states: text().array().notNull().default(sql`'{}'`),
    cities: text().array().notNull().default(sql`'{}'`),
    zipcodes: text().array().notNull().default(sql`'{}'`),
    asns: bigint({ mode: 'number' }).array().notNull().default(sql`'{}'`),
    excludeCountries: text().array().notNull().default(sql`'{}'`),
    excludeAsns: bigint({ mode: 'number' }).array().notNull().default(sql`'{}'`),
    anonymousFilter: boolean().notNull().default(true),
    rotationMinutes: integer().notNull().default(30),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    check('proxy_settings_rotation', sql`${table.rotationMinutes} between 1 and 120`),
    check(
      'proxy_settings_country_lists',
      sql`cardinality(${table.countries}) = 0 or cardinality(${table.excludeCountries}) = 0`,
    ),
  ],
);

/**
 * One row counting changes to `exits`: a trigger bumps it before every statement that writes them
 * (holding its row lock to the commit, so versions commit in order) and stamps the rows written with the
 * new version (`exits.changed_version`). The gateway reads it every second and, when it moved, reads
 * the rows changed and removed since the version it has.
 */
export const inventoryVersion = pgTable(
  'inventory_version',
  {
    id: boolean().primaryKey().default(true),
    version: bigint({ mode: 'number' }).notNull().default(0),
    /**
     * Removals up to this version may be gone (pruned, or a TRUNCATE that names none): a reader that
     * has seen less reads the whole inventory again.
     */
    removalsPrunedThrough: bigint({ mode: 'number' }).notNull().default(0),
  },
  (table) => [check('inventory_version_single_row', sql`${table.id}`)],
);

/**
 * Exits deleted, under the inventory version of the statement that deleted them (a trigger writes
 * them): how a gateway that reads only what changed learns that a row is gone. Kept a day.
 */
export const exitRemovals = pgTable(
  'exit_removals',
  {
    version: bigint({ mode: 'number' }).notNull(),
    exitId: uuid().notNull(),
    removedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.version, table.exitId] })],
);

/**
 * The probe job's view of an exit: its last check through the exit to the configured target, and how
 * many checks in a row failed. Kept apart from `exits` so that writing it does not bump the inventory
 * version (the gateway reloads only when rotation changes).
 */
export const exitProbes = pgTable('exit_probes', {
  exitId: uuid()
    .primaryKey()
    .references(() => exits.id, { onDelete: 'cascade' }),
  checkedAt: timestamp({ withTimezone: true }).notNull(),
  isOk: boolean().notNull(),
  connectMs: integer(),
  error: text(),
  consecutiveFailures: integer().notNull().default(0),
  lastOkAt: timestamp({ withTimezone: true }),
});

/**
 * An exit's health from real traffic, per hour: the gateway counts each connection it opened through
 * the exit (and how long the connect took) and each that failed, and flushes them with the usage.
 */
export const exitTrafficHealth = pgTable(
  'exit_traffic_health',
  {
    exitId: uuid()
      .notNull()
      .references(() => exits.id, { onDelete: 'cascade' }),
    bucketStart: timestamp({ withTimezone: true }).notNull(),
    connects: integer().notNull().default(0),
    failures: integer().notNull().default(0),
    connectMsTotal: bigint({ mode: 'number' }).notNull().default(0),
    lastError: text(),
    lastErrorAt: timestamp({ withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.exitId, table.bucketStart] })],
);
