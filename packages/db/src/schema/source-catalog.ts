import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { supplySources } from './supply.ts';

/** Where a catalog entry came from: the vendor's list (an import), or an exit IP our traffic got (GeoIP). */
export const catalogOrigin = pgEnum('catalog_origin', ['imported', 'learned']);

/**
 * A wholesale network's catalog of locations: one row per place it serves (a country, with a state,
 * city, postal code and ASN where known). Imported from the vendor's list, or learned from the exit IPs
 * our traffic got through it. The gateway reads a source's rows again when its `catalog_version` moves.
 *
 * One row per place: `location_key` is the place normalised (country, lower-case state and city,
 * postal code, ASN), so "New York" and "new york" are one city, and an import or a learned exit updates
 * the row it names.
 */
export const sourceCatalog = pgTable(
  'source_catalog',
  {
    id: uuid().primaryKey().defaultRandom(),
    sourceId: uuid()
      .notNull()
      .references(() => supplySources.id, { onDelete: 'cascade' }),
    /** ISO 3166-1 alpha-2, upper-case. */
    country: text().notNull(),
    /** As the vendor or GeoIP spells it ("Texas", "England"); null when the entry is the whole country. */
    state: text(),
    city: text(),
    /** Upper-case. */
    zip: text(),
    asn: bigint({ mode: 'number' }),
    asnName: text(),
    locationKey: text()
      .notNull()
      .generatedAlwaysAs(
        sql`country || '|' || coalesce(lower(state), '') || '|' || coalesce(lower(city), '') || '|' || coalesce(zip, '') || '|' || coalesce(asn::text, '')`,
      ),
    /** imported: the vendor's list holds it; learned: only traffic found it. */
    origin: catalogOrigin().notNull(),
    /** Exit IPs our traffic got there (each probe or reported exit counts once). */
    exitsSeen: bigint({ mode: 'number' }).notNull().default(0),
    /** When an import last listed it (a `replace` drops the imported entries its file did not list). */
    listedAt: timestamp({ withTimezone: true }),
    firstSeenAt: timestamp({ withTimezone: true }),
    lastSeenAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('source_catalog_location_idx').on(table.sourceId, table.locationKey),
    index('source_catalog_country_idx').on(table.sourceId, table.country),
    check('source_catalog_country_code', sql`${table.country} ~ '^[A-Z]{2}$'`),
    check('source_catalog_exits_seen_not_negative', sql`${table.exitsSeen} >= 0`),
  ],
);
