import { z } from 'zod';
import { reasonField } from './admin.ts';
import { importProblemSchema } from './admin-exits.ts';
import { text } from './text.ts';

// A wholesale network's catalog of locations (issue 29): the countries, states, cities, postal codes and
// ASNs it serves, imported from the vendor's own list and learned from the exit IPs its sessions got.
// It feeds the dashboard's option lists and the routing (a network is not sent a place it does not
// list). `/api/admin/sources/:sourceId/catalog`: staff read it; admins import.

/** The largest catalog file the console sends (the command line reads any size). */
export const CATALOG_IMPORT_MAX_BYTES = 8 * 1024 * 1024;

/** How many problems a refused import lists (the message says how many there were in all). */
export const CATALOG_PROBLEMS_LISTED = 100;

export const CATALOG_FORMATS = ['csv', 'json'] as const;
export type CatalogFormat = (typeof CATALOG_FORMATS)[number];

/** Where a catalog entry came from: the vendor's list, or an exit IP our traffic got (GeoIP). */
export const CATALOG_ORIGINS = ['imported', 'learned'] as const;
export type CatalogOrigin = (typeof CATALOG_ORIGINS)[number];

/**
 * `POST /api/admin/sources/:sourceId/catalog` (admins): the vendor's file as text. All or nothing: one
 * bad line and nothing changes. `replace` drops the entries an earlier import added that traffic never
 * saw; without it the file's entries are added to what is there. Learned entries always stay.
 */
export const importCatalogRequestSchema = z.object({
  format: z.enum(CATALOG_FORMATS, { error: 'Format must be csv or json' }),
  content: text('Content', { isMultiline: true, error: 'Content is required' })
    .min(1, 'The file is empty')
    .max(CATALOG_IMPORT_MAX_BYTES, 'The file is over 8 MiB: use bytegate sources catalog import'),
  replace: z.boolean({ error: 'Replace must be true or false' }).default(false),
  reason: reasonField,
});
export type ImportCatalogRequest = z.input<typeof importCatalogRequestSchema>;

/** What an import did: entries new to the catalog, already there, dropped by `replace`, and the total after. */
export const importCatalogResponseSchema = z.object({
  /** Lines of the file that name an entry (repeats of one entry count once). */
  read: z.number().int(),
  added: z.number().int(),
  /** Entries the file lists that the catalog already had (learned ones become imported too). */
  alreadyListed: z.number().int(),
  /** Entries of an earlier import no longer listed (with `replace` only; those traffic saw stay). */
  dropped: z.number().int(),
  /** The catalog's entries and countries after the import. */
  entries: z.number().int(),
  countries: z.number().int(),
});
export type ImportCatalogResponse = z.infer<typeof importCatalogResponseSchema>;

/** A refused import: 400 VALIDATION_FAILED with the first problems by line (nothing was changed). */
export const catalogImportRefusedSchema = z.object({
  error: z.string(),
  code: z.string(),
  problems: z.array(importProblemSchema).optional(),
});

/** One country of a catalog: how many places it lists, and the cities traffic saw most. */
export const catalogCountrySchema = z.object({
  code: z.string(),
  name: z.string(),
  /** Entries (one per state, city, postal code and ASN combination). */
  entries: z.number().int(),
  states: z.number().int(),
  cities: z.number().int(),
  asns: z.number().int(),
  /** Entries the vendor's list holds, and entries only traffic found. */
  imported: z.number().int(),
  learned: z.number().int(),
  /** Exit IPs our traffic got there (GeoIP), and when the last one was seen. */
  exitsSeen: z.number().int(),
  lastSeenAt: z.string().nullable(),
  /** Up to 5 cities, those traffic saw most first, then by name. */
  topCities: z.array(z.object({ name: z.string(), exitsSeen: z.number().int() })),
});
export type CatalogCountry = z.infer<typeof catalogCountrySchema>;

/** `GET /api/admin/sources/:sourceId/catalog`: a network's catalog, country by country (by name). */
export const catalogResponseSchema = z.object({
  source: z.object({ id: z.string(), name: z.string(), kind: z.string() }),
  totals: z.object({
    entries: z.number().int(),
    countries: z.number().int(),
    cities: z.number().int(),
    imported: z.number().int(),
    learned: z.number().int(),
    exitsSeen: z.number().int(),
  }),
  countries: z.array(catalogCountrySchema),
});
export type CatalogResponse = z.infer<typeof catalogResponseSchema>;
