import { z } from 'zod';
import { reasonField } from './admin.ts';
import { POOL_TYPES } from './pools.ts';
import { text } from './text.ts';

// The console's Supply page (issue 29): what /api/admin/sources takes and answers. Staff read the sources
// and what each carried; only admins change them. Money is whole cents: revenue is what customers were
// billed for the GB a source carried (billed bytes, with the target filters' 2x, at the pool's price),
// cost is the GB it carried at its cost per GB, and margin is revenue minus cost. A network's endpoint is
// shown with its password as `***`: the account's password never leaves the server.

/** The ranges the page shows: the last 7 or 30 UTC days, today included. */
export const SUPPLY_RANGES = [7, 30] as const;
export type SupplyRange = (typeof SUPPLY_RANGES)[number];

/** active: takes new connections; draining: keeps its sticky sessions, takes no new ones; off: nothing. */
export const SOURCE_STATES = ['active', 'draining', 'off'] as const;
export type SourceState = (typeof SOURCE_STATES)[number];

/** Our own exits of a pool, or a wholesale network's endpoint. */
export const SOURCE_KINDS = ['exits', 'network'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/** A source's share of new connections among the pool's sources that can serve them. */
export const SOURCE_WEIGHT_MAX = 1_000_000;

const RANGE_MESSAGE = 'Days must be 7 or 30';

/** `?days=7` (the default) or `?days=30`. */
export const supplyQuerySchema = z.object({
  days: z.coerce
    .number({ error: RANGE_MESSAGE })
    .refine((days) => (SUPPLY_RANGES as readonly number[]).includes(days), RANGE_MESSAGE)
    .default(7),
});
export type SupplyQuery = z.input<typeof supplyQuerySchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A source's id (uuid) as a path names it; an unknown one is a 404. */
export const sourceParamsSchema = z.object({
  sourceId: text('Source id')
    .max(64)
    .refine((value) => UUID.test(value), { message: 'Source id must be a UUID' }),
});

/** The UTC days a figure covers: `from` and `to` are both included (YYYY-MM-DD). */
export const supplyRangeSchema = z.object({
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
});
export type SupplyRangeDays = z.infer<typeof supplyRangeSchema>;

/** What sources carried over some days, and what it earned and cost. */
export const supplyMoneySchema = z.object({
  /** What crossed the customers' sockets through the source: the cost side. */
  carriedBytes: z.number().int(),
  /** What customers were billed for it (target filters count twice): the revenue side. */
  billedBytes: z.number().int(),
  /** Billed GB at the pool's price per GB, in cents, rounded half up. */
  revenueCents: z.number().int(),
  /** Carried GB at the source's cost per GB, in cents, rounded half up. */
  costCents: z.number().int(),
  /** revenueCents - costCents, so the figures shown add up; negative when the source lost money. */
  marginCents: z.number().int(),
});
export type SupplyMoney = z.infer<typeof supplyMoneySchema>;

/** One source's figures over a range or a day: money, and how its dials went. */
export const sourceFiguresSchema = supplyMoneySchema.extend({
  /** Dials through the source that opened, and those that failed. */
  connects: z.number().int(),
  failures: z.number().int(),
  /** connects / (connects + failures), 0 to 1; null without dials. */
  successRate: z.number().nullable(),
  /** Mean time to open a dial, whole ms; null when none opened. */
  meanConnectMs: z.number().int().nullable(),
});
export type SourceFigures = z.infer<typeof sourceFiguresSchema>;

/** Probes failed in a row after which the routing tries a network last (the gateway's rule, mirrored). */
export const PROBE_FAILURES_TO_HOLD_DOWN = 2;

/**
 * A wholesale network's last probe (the source probe job: a real request through the vendor to
 * EXIT_PROBE_URL every EXIT_PROBE_INTERVAL_SECONDS).
 */
export const sourceProbeSchema = z.object({
  checkedAt: z.string(),
  isOk: z.boolean(),
  /** How long the connection through the network took to open, whole ms; null when it did not open. */
  connectMs: z.number().int().nullable(),
  /** What went wrong, in our words (never the vendor's); null when it worked. */
  error: z.string().nullable(),
  /** The exit IP the probe target saw (last known); null when it never said. */
  exitIp: z.string().nullable(),
  /** Probes failed in a row (0 once one works). */
  consecutiveFailures: z.number().int(),
  /**
   * The probes hold it down: the routing tries it after every other source until a probe works (or, on
   * each gateway, a real connection through it opens).
   */
  isHeldDown: z.boolean(),
});
export type SourceProbe = z.infer<typeof sourceProbeSchema>;

/** A source as staff see it: never its account's password. */
export const adminSourceSchema = z.object({
  id: z.string(),
  name: z.string(),
  pool: z.enum(POOL_TYPES),
  kind: z.enum(SOURCE_KINDS),
  /** A network's grammar (brightdata, oxylabs, ..., template); null for our own exits. */
  grammar: z.string().nullable(),
  /** A network's endpoint with the password as `***`; null for our own exits. */
  url: z.string().nullable(),
  state: z.enum(SOURCE_STATES),
  weight: z.number().int(),
  costPerGbCents: z.number().int(),
  /** The last refusal staff must handle (the vendor refused our account, its quota, our spelling). */
  alarm: z.string().nullable(),
  alarmAt: z.string().nullable(),
  /** A network's last probe; null for our own exits and a network not probed yet. */
  lastProbe: sourceProbeSchema.nullable(),
});
export type AdminSource = z.infer<typeof adminSourceSchema>;

export const adminSourceWithTotalsSchema = adminSourceSchema.extend({ totals: sourceFiguresSchema });
export type AdminSourceWithTotals = z.infer<typeof adminSourceWithTotalsSchema>;

/** `GET /api/admin/sources`: every source (by pool, then name) with its totals over the range. */
export const supplyResponseSchema = z.object({
  range: supplyRangeSchema,
  sources: z.array(adminSourceWithTotalsSchema),
  /** Every source together: the sums of the sources' figures above. */
  totals: supplyMoneySchema,
});
export type SupplyResponse = z.infer<typeof supplyResponseSchema>;

/** One UTC day of a source. */
export const sourceDaySchema = sourceFiguresSchema.extend({ date: z.string() });
export type SourceDay = z.infer<typeof sourceDaySchema>;

/** `GET /api/admin/sources/:sourceId/days`: every day of the range, oldest first, zeros included. */
export const sourceDaysResponseSchema = z.object({
  range: supplyRangeSchema,
  source: adminSourceWithTotalsSchema,
  days: z.array(sourceDaySchema),
});
export type SourceDaysResponse = z.infer<typeof sourceDaysResponseSchema>;

const WEIGHT_MESSAGE = `Weight must be a whole number from 0 to ${SOURCE_WEIGHT_MAX.toLocaleString('en-US')}`;
const COST_MESSAGE = 'Cost per GB must be an amount in dollars, such as 1.20';

/** What an admin may change of a source: its weight, state, cost per GB (dollars, "1.20"), its alarm. */
export const sourceChangeFieldsSchema = z.object({
  weight: z
    .number({ error: WEIGHT_MESSAGE })
    .int(WEIGHT_MESSAGE)
    .min(0, WEIGHT_MESSAGE)
    .max(SOURCE_WEIGHT_MAX, WEIGHT_MESSAGE)
    .optional(),
  state: z.enum(SOURCE_STATES, { error: 'State must be active, draining or off' }).optional(),
  costPerGb: z
    .union([z.number(), text('Cost per GB', { shouldTrim: true }).max(20, COST_MESSAGE)], {
      error: COST_MESSAGE,
    })
    .transform((value) => String(value))
    .refine((value) => /^\d{1,6}(\.\d{1,2})?$/.test(value), COST_MESSAGE)
    .optional(),
  clearAlarm: z.boolean({ error: 'Clear alarm must be true or false' }).optional(),
});

/**
 * `PATCH /api/admin/sources/:sourceId` (admins): any of the fields above, with the reason the audit log
 * keeps. A running gateway routes by it within a second.
 */
export const changeSourceRequestSchema = sourceChangeFieldsSchema
  .extend({ reason: reasonField })
  .refine(
    (body) =>
      body.weight !== undefined ||
      body.state !== undefined ||
      body.costPerGb !== undefined ||
      body.clearAlarm === true,
    { message: 'Nothing to change: give weight, state, costPerGb or clearAlarm' },
  );
export type ChangeSourceRequest = z.input<typeof changeSourceRequestSchema>;

/** The grammars a network's source can be spelled in (the gateway's adapters). */
export const SOURCE_GRAMMARS = [
  'brightdata',
  'oxylabs',
  'decodo',
  'iproyal',
  'webshare',
  'soax',
  'template',
] as const;

/** A field read loosely (the server's rules come after): text of at most `max` characters, no control characters. */
const loose = (label: string, max: number) =>
  text(label).max(max, `${label} must be at most ${max.toLocaleString('en-US')} characters`);

/**
 * `POST /api/admin/sources` (admins): a source as `bytegate sources add` takes it, with the reason the
 * audit log keeps. The body is read loosely here: the rules (a URL with the account, a grammar that
 * builds, a template that parses) are the server's one set (source-input.ts, the command line's), and a
 * refusal names every field it is about in `fields`. The answer shows the URL's password as `***`.
 */
export const addSourceRequestSchema = z.object({
  name: loose('Name', 200),
  pool: loose('Pool', 20),
  /** `network` (the default) or `exits` (the pool's own exits, when it has no such source yet). */
  kind: loose('Kind', 20).optional(),
  grammar: loose('Grammar', 40).optional(),
  /** The template grammar's username, and its password (default `{password}`). */
  template: loose('Template', 1000).optional(),
  passwordTemplate: loose('Password template', 1000).optional(),
  /** `http://USER:PASS@HOST:PORT`, `https://...` or `socks5://...`: the endpoint with the account. */
  url: loose('URL', 4000).optional(),
  /** Dollars, such as "1.20" (default 0). */
  costPerGb: z.union([z.number(), loose('Cost per GB', 20)]).optional(),
  /** 0 to 1,000,000 (default 100). */
  weight: z.union([z.number(), loose('Weight', 20)]).optional(),
  /** active (the default), draining or off. */
  state: loose('State', 20).optional(),
  reason: reasonField,
});
export type AddSourceRequest = z.input<typeof addSourceRequestSchema>;

export const sourceResponseSchema = z.object({ source: adminSourceSchema });
export type SourceResponse = z.infer<typeof sourceResponseSchema>;

/** The columns of `GET /api/admin/sources.csv`: one row per source and UTC day of the range. */
export const SUPPLY_CSV_HEADER = [
  'date',
  'source',
  'pool',
  'carried_gb',
  'billed_gb',
  'revenue_usd',
  'cost_usd',
  'margin_usd',
  'success_rate',
  'connect_ms',
] as const;
