import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { poolType } from './plans.ts';

/** Where a source's traffic goes out: our own exits of its pool, or a wholesale network's endpoint. */
export const sourceKind = pgEnum('source_kind', ['exits', 'network']);
/** active: takes new connections; draining: keeps its sticky sessions, takes no new ones; off: nothing. */
export const sourceState = pgEnum('source_state', ['active', 'draining', 'off']);

/**
 * A source of supply for one pool. A wholesale network's endpoint URL holds the account's credentials
 * (a secret: shown masked everywhere); its grammar says how targeting and sessions are spelled for it.
 */
export const supplySources = pgTable(
  'supply_sources',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull().unique(),
    poolType: poolType().notNull(),
    kind: sourceKind().notNull(),
    /** A network's grammar (brightdata, oxylabs, ..., template); null for our own exits. */
    grammar: text(),
    /** The username (and password) template of the generic grammar. */
    template: text(),
    passwordTemplate: text(),
    /** `http://USER:PASS@host:port`, `https://...` or `socks5://...`: a network's endpoint and account. */
    endpointUrl: text(),
    /** What a GB carried through it costs us, in cents. */
    costPerGbCents: integer().notNull().default(0),
    /** Its share of new connections among the pool's sources that can serve them. */
    weight: integer().notNull().default(100),
    state: sourceState().notNull().default('active'),
    /**
     * The last refusal that needs staff (the vendor refused our account, its quota, or our spelling),
     * in our words; cleared by staff once handled. Never shown to customers.
     */
    alarm: text(),
    alarmAt: timestamp({ withTimezone: true }),
    /**
     * Moves whenever the source's catalog gains or loses a place (source-catalog.ts): the gateway reads a
     * catalog again only then, not every second.
     */
    catalogVersion: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('supply_sources_pool_idx').on(table.poolType),
    check('supply_sources_cost_not_negative', sql`${table.costPerGbCents} >= 0`),
    check('supply_sources_weight_range', sql`${table.weight} between 0 and 1000000`),
    check(
      'supply_sources_network_has_endpoint',
      sql`${table.kind} <> 'network' or (${table.endpointUrl} is not null and ${table.grammar} is not null)`,
    ),
  ],
);

/**
 * Traffic carried through each source per UTC day, written in the same transaction as the plans' usage
 * it is part of: what the client sockets carried (the cost side) and what customers were billed for it
 * (with the target filters' 2x, the revenue side), and what the carried bytes cost us.
 */
export const sourceUsageDaily = pgTable(
  'source_usage_daily',
  {
    sourceId: uuid()
      .notNull()
      .references(() => supplySources.id, { onDelete: 'cascade' }),
    day: timestamp({ withTimezone: true }).notNull(),
    carriedBytes: bigint({ mode: 'number' }).notNull().default(0),
    billedBytes: bigint({ mode: 'number' }).notNull().default(0),
    /**
     * What the carried bytes cost, exactly: each usage flush adds its bytes × the source's cost per GB
     * (cents) in force when the flush is written, read in the flush's own statement. Divided by 1024³
     * it is cents, so a day keeps its cost when the source's cost per GB changes later, or mid-day.
     * numeric(38,0): bytes × cents outgrows a bigint at a few hundred TB a day.
     */
    costByteCents: numeric({ precision: 38, scale: 0, mode: 'bigint' }).notNull().default(sql`0`),
    /** Dials through it that opened, that failed, and their connect time (health, per day). */
    connects: bigint({ mode: 'number' }).notNull().default(0),
    failures: bigint({ mode: 'number' }).notNull().default(0),
    connectMsTotal: bigint({ mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.sourceId, table.day] })],
);

/**
 * What a vendor says a source carried on a UTC day, imported from its usage export (a CSV per day), to
 * set against our carried bytes. One figure per source and day: an import of a day replaces its figure
 * (audited with the figure before). Its own table, so the gateway's usage writes never touch it.
 */
export const sourceVendorUsage = pgTable(
  'source_vendor_usage',
  {
    sourceId: uuid()
      .notNull()
      .references(() => supplySources.id, { onDelete: 'cascade' }),
    day: timestamp({ withTimezone: true }).notNull(),
    vendorBytes: bigint({ mode: 'number' }).notNull(),
    importedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Who imported it: a staff email, or `cli`. */
    importedBy: text().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.sourceId, table.day] }),
    check('source_vendor_usage_bytes_not_negative', sql`${table.vendorBytes} >= 0`),
  ],
);

/**
 * The last probe of each wholesale network (the source probe job: a real request through the vendor's
 * endpoint to EXIT_PROBE_URL, with no targeting), one row per source: whether it worked, how long the
 * connection took, the vendor's refusal class when it refused, and the exit IP the probe target saw. The
 * gateway reads it with the sources: a network whose last probes failed goes last in the routing until a
 * probe or a real connection through it works.
 */
export const sourceProbes = pgTable('source_probes', {
  sourceId: uuid()
    .primaryKey()
    .references(() => supplySources.id, { onDelete: 'cascade' }),
  checkedAt: timestamp({ withTimezone: true }).notNull(),
  isOk: boolean().notNull(),
  /** How long opening the connection through the network took (null when it did not open). */
  connectMs: integer(),
  /** How the grammar read the vendor's refusal: no-exit, auth, quota, bad-request, failed (null: none). */
  refusal: text(),
  /** What went wrong, in our words (never the vendor's page). */
  error: text(),
  /** The exit IP the probe target saw (its JSON `ip`, or a body that is an address); null when unknown. */
  lastProbeExitIp: text(),
  /** Probes failed in a row, counted (a round in which every network failed counts none). */
  consecutiveFailures: integer().notNull().default(0),
  /** When the first of those failures was (null while the last probe worked). */
  failingSince: timestamp({ withTimezone: true }),
  lastOkAt: timestamp({ withTimezone: true }),
});
