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
import { users } from './accounts.ts';
import { poolType } from './plans.ts';

/** active: admitted; quarantined: held out by staff (it may come back); banned: refused for good. */
export const agentStatus = pgEnum('agent_status', ['active', 'quarantined', 'banned']);

/**
 * An exit agent: a `bytegate-agent` program on a partner's machine, known by its token. Only the SHA-256
 * of the token is stored (the token is shown once, when made); its first characters are kept to tell
 * tokens apart on screen. Where it last connected from is kept with the place and network GeoIP gave it.
 */
export const agents = pgTable(
  'agents',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** The partner's account (role `partner`): who earns what it carries. */
    partnerUserId: uuid()
      .notNull()
      .references(() => users.id),
    name: text().notNull(),
    tokenHash: text().notNull().unique(),
    /** The token's first characters (`bga_1a2b3c`), shown in lists; never enough to use. */
    tokenPrefix: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Set when its token was revoked: refused from then on, and disconnected within seconds. */
    revokedAt: timestamp({ withTimezone: true }),
    status: agentStatus().notNull().default('active'),
    /** The operator's pool for it; null: the pool its network's ASN says. */
    poolOverride: poolType(),
    // The partner's limits from the dashboard (null: no limit of that kind); bytegate-agent/protocol.
    maxTunnels: integer(),
    gbPerDay: numeric({ precision: 10, scale: 3 }),
    /** `8-23`, or `22-6` across midnight, the agent's local time. */
    hours: text(),
    /** Whether forwarded plain HTTP (readable by the agent) may go through it; null: allowed. */
    plainHttp: boolean(),
    // Where it last connected from, as located then.
    lastAddress: text(),
    country: text(),
    state: text(),
    city: text(),
    zip: text(),
    asn: integer(),
    asnName: text(),
    /** The pool it was given at its last admission (the override, else by its ASN). */
    poolType: poolType(),
    firstSeenAt: timestamp({ withTimezone: true }),
    lastSeenAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('agents_partner_user_id_idx').on(table.partnerUserId),
    check('agents_max_tunnels_positive', sql`${table.maxTunnels} is null or ${table.maxTunnels} > 0`),
    check('agents_gb_per_day_positive', sql`${table.gbPerDay} is null or ${table.gbPerDay} > 0`),
  ],
);

/**
 * An agent connected to one gateway process now, as that gateway last said: written when it connects,
 * refreshed by the gateway's heartbeat, removed when it leaves. An agent is online while a row of it was
 * seen within a minute, so a gateway that crashed stops counting on its own.
 */
export const agentPresence = pgTable(
  'agent_presence',
  {
    agentId: uuid()
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    /** The gateway process (a random id per start). */
    gatewayId: text().notNull(),
    address: text().notNull(),
    connectedAt: timestamp({ withTimezone: true }).notNull(),
    seenAt: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.agentId, table.gatewayId] }),
    index('agent_presence_seen_at_idx').on(table.seenAt),
  ],
);

/**
 * What a partner earns per GB (1024³ bytes) its agents carry, in cents, per pool: the operator's terms.
 * A pool without a row earns nothing until one is set; a rate applies to bytes flushed from then on.
 */
export const partnerRates = pgTable(
  'partner_rates',
  {
    poolType: poolType().primaryKey(),
    centsPerGb: integer().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('partner_rates_not_negative', sql`${table.centsPerGb} >= 0`)],
);

/**
 * An agent's day (UTC): the bytes it carried and what its partner earned for them, written in the same
 * transaction as the customers' usage flush it came in (so once per flush, whichever gateway sent it).
 */
export const agentUsageDaily = pgTable(
  'agent_usage_daily',
  {
    agentId: uuid()
      .notNull()
      .references(() => agents.id),
    day: timestamp({ withTimezone: true }).notNull(),
    carriedBytes: bigint({ mode: 'number' }).notNull().default(0),
    /**
     * Earned, exactly: each flush adds its bytes × the rate per GB (cents) of the agent's pool in force
     * when it is written. Divided by 1024³ it is cents; numeric(38,0) as source_usage_daily's cost.
     */
    earnedByteCents: numeric({ precision: 38, scale: 0, mode: 'bigint' }).notNull().default(sql`0`),
  },
  (table) => [primaryKey({ columns: [table.agentId, table.day] })],
);
