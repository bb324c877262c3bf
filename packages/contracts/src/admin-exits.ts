import { z } from 'zod';
import { REASON_MAX_LENGTH, reasonField } from './admin.ts';
import { pageQueryField, paginationSchema } from './orders.ts';
import { POOL_TYPES } from './pools.ts';
import { text } from './text.ts';

// The exit inventory in the console (issue 15): what /api/admin/exits takes and answers. Staff read it;
// only admins change it. The rules of one exit (pool, country code, upstream URL, ...) live once, on the
// server (services/inventory/exit-input.ts), shared with `bytegate exits` and the import: a refusal
// answers 400 VALIDATION_FAILED naming the `field`, or an import's `problems`, line by line.

/** Exits per page of GET /api/admin/exits. */
export const EXITS_PAGE_SIZE = 50;
/** How large an import the console takes in one request (a CSV or JSON file's text). */
export const EXIT_IMPORT_MAX_BYTES = 1024 * 1024;

/**
 * Where an exit stands: `active` (in rotation), `out_of_rotation` (switched on, but taken out because
 * it kept failing), `disabled` (switched off by staff).
 */
export const EXIT_STATUSES = ['active', 'out_of_rotation', 'disabled'] as const;
export const exitStatusSchema = z.enum(EXIT_STATUSES, {
  error: `Status must be one of ${EXIT_STATUSES.join(', ')}`,
});
export type ExitStatus = z.infer<typeof exitStatusSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An exit's id (uuid) as a path names it; an unknown one is a 404. */
export const exitParamsSchema = z.object({
  exitId: text('Exit id')
    .max(64)
    .refine((value) => UUID.test(value), { message: 'Exit id must be a UUID' }),
});

/** `GET /api/admin/exits`: by pool, country, status and a part of the name; 50 a page. */
export const exitsQuerySchema = z.object({
  pool: z.enum(POOL_TYPES, { error: 'Pool must be datacenter, residential or mobile' }).optional(),
  country: text('Country', { shouldTrim: true })
    .regex(/^[A-Za-z]{2}$/, 'Country must be a two-letter code')
    .transform((value) => value.toUpperCase())
    .optional(),
  status: exitStatusSchema.optional(),
  q: text('Search', { shouldTrim: true }).max(100, 'Search must be at most 100 characters').default(''),
  page: pageQueryField,
});
export type ExitsQuery = z.input<typeof exitsQuerySchema>;

/** An exit's last 24 hours of real traffic through the gateway. */
export const exitTrafficHealthSchema = z.object({
  /** Connections opened through the exit, and those that failed to open. */
  connects: z.number().int(),
  failures: z.number().int(),
  /** opened / (opened + failed), 0 to 1; null without traffic. */
  successRate: z.number().nullable(),
  /** Mean time to open a connection, ms; null when none opened. */
  avgConnectMs: z.number().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
});
export type ExitTrafficHealth = z.infer<typeof exitTrafficHealthSchema>;

/** The probe job's last check through the exit to the configured target. */
export const exitProbeSchema = z.object({
  checkedAt: z.string(),
  isOk: z.boolean(),
  connectMs: z.number().int().nullable(),
  error: z.string().nullable(),
  /** Checks in a row that failed (0 after a success). */
  consecutiveFailures: z.number().int(),
  lastOkAt: z.string().nullable(),
});
export type ExitProbe = z.infer<typeof exitProbeSchema>;

export const adminExitSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['direct', 'upstream']),
  pool: z.enum(POOL_TYPES),
  country: z.string(),
  state: z.string().nullable(),
  city: z.string().nullable(),
  zip: z.string().nullable(),
  asn: z.number().int().nullable(),
  asnName: z.string().nullable(),
  mobileGeneration: z.string().nullable(),
  /** The local address a direct exit leaves from. */
  localAddress: z.string().nullable(),
  /** An upstream exit's proxy, its password shown as `***`. */
  upstream: z.string().nullable(),
  isRisky: z.boolean(),
  status: exitStatusSchema,
  /** Set while the health rules keep the exit out of rotation: when and why. */
  outOfRotationAt: z.string().nullable(),
  outOfRotationReason: z.string().nullable(),
  createdAt: z.string(),
  traffic: exitTrafficHealthSchema,
  /** Null until the probe has checked the exit (or when probing is off). */
  probe: exitProbeSchema.nullable(),
});
export type AdminExit = z.infer<typeof adminExitSchema>;

export const exitsResponseSchema = z.object({
  exits: z.array(adminExitSchema),
  pagination: paginationSchema,
  /** The whole inventory, whatever the filter: how many in each status, and the countries it has. */
  summary: z.object({
    total: z.number().int(),
    active: z.number().int(),
    outOfRotation: z.number().int(),
    disabled: z.number().int(),
    countries: z.array(z.string()),
  }),
  /** The probe's target and interval; null when EXIT_PROBE_URL is not set (no probing). */
  probing: z.object({ target: z.string(), intervalSeconds: z.number().int() }).nullable(),
});
export type ExitsResponse = z.infer<typeof exitsResponseSchema>;

const optionalReason = text('Reason', { isMultiline: true, shouldTrim: true })
  .max(REASON_MAX_LENGTH, `Reason must be at most ${REASON_MAX_LENGTH} characters`)
  .optional();

const field = (label: string, max = 100) =>
  text(label, { shouldTrim: true }).max(max, `${label} must be at most ${max} characters`).optional();

/**
 * One exit as staff enter it, spelled as `bytegate exits add` and an import's columns: `pool`, `country`
 * (two letters), `kind` (direct, the default, or upstream with `upstreamUrl`), `localAddress` for a
 * direct exit that leaves from one of the host's addresses, the location, and `risky`.
 */
export const exitFieldsSchema = z.object({
  name: field('Name'),
  kind: field('Kind', 20),
  pool: field('Pool', 20),
  country: field('Country', 20),
  state: field('State'),
  city: field('City'),
  zip: field('ZIP'),
  asn: z.union([z.number(), field('ASN', 20)]).optional(),
  asnName: field('ASN name'),
  mobileGeneration: field('Mobile generation', 10),
  localAddress: field('Local address', 100),
  upstreamUrl: field('Upstream URL', 500),
  risky: z.boolean().optional(),
});
export type ExitFields = z.input<typeof exitFieldsSchema>;

/** `POST /api/admin/exits`: one exit; the reason is optional (the audit log keeps it). */
export const addExitRequestSchema = z.object({ exit: exitFieldsSchema, reason: optionalReason });
export type AddExitRequest = z.input<typeof addExitRequestSchema>;

export const IMPORT_FORMATS = ['csv', 'json'] as const;

/**
 * `POST /api/admin/exits/import`: a CSV with a header line (columns as `exitFieldsSchema`) or a JSON
 * array of exits. All or nothing: one bad line and nothing is added.
 */
export const importExitsRequestSchema = z.object({
  format: z.enum(IMPORT_FORMATS, { error: 'Format must be csv or json' }),
  // Lines and tabs are the file's own; a NUL or other control character never is.
  content: text('Content', { isMultiline: true, error: 'Content is required' })
    .min(1, 'The file is empty')
    .max(EXIT_IMPORT_MAX_BYTES, 'The file is over 1 MiB: split it, or use bytegate exits import'),
  reason: optionalReason,
});
export type ImportExitsRequest = z.input<typeof importExitsRequestSchema>;

/** A line of an import that was refused: its line in a CSV (the header is line 1) or item of a JSON array. */
export const importProblemSchema = z.object({
  line: z.number().int(),
  message: z.string(),
});
export type ImportProblem = z.infer<typeof importProblemSchema>;

/** A refused import: 400 VALIDATION_FAILED with every problem (nothing was added). */
export const importRefusedSchema = z.object({
  error: z.string(),
  code: z.string(),
  problems: z.array(importProblemSchema).optional(),
});

export const importExitsResponseSchema = z.object({ imported: z.number().int() });
export type ImportExitsResponse = z.infer<typeof importExitsResponseSchema>;

/** disable, enable, remove, put back into rotation: why (required: they move traffic). */
export const exitActionRequestSchema = z.object({ reason: reasonField });
export type ExitActionRequest = z.input<typeof exitActionRequestSchema>;

export const exitResponseSchema = z.object({ exit: adminExitSchema });
export type ExitResponse = z.infer<typeof exitResponseSchema>;
