import { z } from 'zod';
import { POOL_TYPES } from './pools.ts';
import { text } from './text.ts';

// Statistics (issue 19): usage by period, resolution, pool and credential, with what each error means.
// Dashboard routes (/api/stats/*) answer these shapes; the public API (/api/v1/stats/*) the same views in
// its snake_case.

/**
 * Refusals by our own policy: the customer's traffic never met its target, so the success rate leaves
 * them out and shows them apart ("refused by policy"). Everything else refused or failed counts.
 */
export const POLICY_REFUSAL_CODES = [
  'PORT_BLOCKED',
  'HOST_BLOCKED',
  'PRIVATE_TARGET',
  'UNKNOWN_PARAM',
  'DUPLICATE_PARAM',
  'INVALID_VALUE',
  'PARAM_CONFLICT',
  'PARAM_REQUIRES_COUNTRY',
] as const;

export const isPolicyRefusal = (code: string): boolean =>
  (POLICY_REFUSAL_CODES as readonly string[]).includes(code);

/** What an error code means and what to do about it, as the errors table explains it. */
export const ERROR_CODE_GUIDE: Record<string, { meaning: string; action: string }> = {
  TRAFFIC_EXHAUSTED: {
    meaning: 'The plan had no traffic left.',
    action: 'Add traffic to the plan, or set an auto-buy in Proxy Setup.',
  },
  THREADS_EXHAUSTED: {
    meaning: 'More connections were open at once than the plan (or proxy user) allows.',
    action: 'Close idle connections or reuse them, or ask for more threads in Proxy Setup.',
  },
  NO_RAY: {
    meaning: 'No IP in the pool matched the targeting.',
    action: 'Loosen the targeting: a state instead of a city, fewer ASNs, or another country.',
  },
  NO_HOST_CONNECTION: {
    meaning: 'The target did not answer through two different exits.',
    action: 'Check the target address and port; if it is up, retry later or from another country.',
  },
  PORT_BLOCKED: {
    meaning: 'The target port is closed by default.',
    action: 'Use an open port, or ask support to unblock this one for your account.',
  },
  HOST_BLOCKED: {
    meaning: 'The site is in a blocked category.',
    action: 'Ask support to unblock it, with the exact domain and your use case.',
  },
  PRIVATE_TARGET: {
    meaning: 'The target is a private, loopback or link-local address.',
    action: 'Send only public addresses through the proxy.',
  },
  UNKNOWN_PARAM: {
    meaning: 'The username held a targeting parameter that does not exist.',
    action: 'Check the spelling against the targeting guide.',
  },
  DUPLICATE_PARAM: {
    meaning: 'The username gave a targeting parameter twice.',
    action: 'Give each parameter once.',
  },
  INVALID_VALUE: {
    meaning:
      'A targeting value had the wrong shape (a country code, an ASN, a session length), or the username held a malformed %-escape.',
    action: 'Check the value against the targeting guide; write a literal % as %25.',
  },
  PARAM_CONFLICT: {
    meaning:
      'Targeting parameters that cannot go together: countries with excluded countries, or a sessid on a sticky port.',
    action: 'Keep one of the two; on a sticky port the port is the session, so leave sessid out.',
  },
  PARAM_REQUIRES_COUNTRY: {
    meaning: 'State, city, ZIP or ASN targeting came without a country.',
    action: 'Add the country to the username.',
  },
  BAD_REQUEST: {
    meaning: 'The request was not one the gateway understands.',
    action: 'Send a proxy request: an absolute URL, or CONNECT host:port.',
  },
  HEAD_TOO_LARGE: {
    meaning: 'The request head was over 16 KiB.',
    action: 'Send fewer or smaller headers and cookies.',
  },
};

export const STATS_PERIODS = ['24h', '7d', '30d', '90d', 'custom'] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];
export const STATS_RESOLUTIONS = ['hour', 'day'] as const;
export type StatsResolution = (typeof STATS_RESOLUTIONS)[number];
/** Hourly rows are kept 90 days and daily ones 13 months: no range reaches further back. */
export const HOURLY_RETENTION_DAYS = 90;
export const DAILY_RETENTION_DAYS = 397;
/** An hourly series spans at most 90 days (2,160 points); a daily one, the 13 months kept. */
export const MAX_HOURLY_RANGE_DAYS = 90;
export const HOSTS_PAGE_SIZE = 50;

export const statsMessages = {
  rangeInvalid: 'Give the period as from and to dates (ISO 8601), from before to.',
  rangeTooLongHourly: `An hourly view spans at most ${MAX_HOURLY_RANGE_DAYS} days: choose daily resolution.`,
  rangeTooOld: 'Usage is kept 13 months (hourly: 90 days): choose a later start.',
  credentialUnknown: 'No such credential on your plans.',
  liveStreamsLimit:
    'Live statistics are already open in 5 windows or tabs of this account: close one of them to watch here.',
} as const;

const isoDate = text('Date').max(40);

/** A view of the statistics: its range, resolution, and the pool and credential it is narrowed to. */
export const statsQuerySchema = z.object({
  /** ISO 8601; the range is [from, to). */
  from: isoDate,
  to: isoDate,
  resolution: z.enum(STATS_RESOLUTIONS, { error: 'Resolution must be hour or day.' }).default('hour'),
  pool: z.enum(POOL_TYPES, { error: `Pool must be one of ${POOL_TYPES.join(', ')}.` }).optional(),
  /**
   * One credential: `plan:<plan id>` for a plan's own login, `user:<proxy user id>` for a proxy user;
   * left out: every credential.
   */
  credential: text('Credential').max(80).optional(),
});
export type StatsQuery = z.input<typeof statsQuerySchema>;

export const statsTotalsSchema = z.object({
  /** Bytes carried (both directions at the client socket). */
  bytes: z.number().int(),
  /** Bytes billed: carried, plus the 2x of target filters. */
  billedBytes: z.number().int(),
  requests: z.number().int(),
  /** Requests that met their target. */
  succeeded: z.number().int(),
  /** Refused or failed for the customer's traffic (not by our policy). */
  failed: z.number().int(),
  /** Refused by our own policy: a blocked port or host, a private target, bad targeting syntax. */
  refusedByPolicy: z.number().int(),
  /** succeeded / (requests − refused by policy), as a percentage with one decimal; null without requests. */
  successRate: z.number().nullable(),
});
export type StatsTotals = z.infer<typeof statsTotalsSchema>;

export const statsPointSchema = statsTotalsSchema.omit({ successRate: true }).extend({
  /** The start of the hour or UTC day, ISO 8601. */
  at: z.string(),
});
export type StatsPoint = z.infer<typeof statsPointSchema>;

export const statsSeriesResponseSchema = z.object({
  from: z.string(),
  to: z.string(),
  resolution: z.enum(STATS_RESOLUTIONS),
  totals: statsTotalsSchema,
  /** Every hour or day of the range, zeros included, oldest first. */
  points: z.array(statsPointSchema),
});
export type StatsSeriesResponse = z.infer<typeof statsSeriesResponseSchema>;

export const statsErrorRowSchema = z.object({
  code: z.string(),
  count: z.number().int(),
  isPolicyRefusal: z.boolean(),
  meaning: z.string(),
  action: z.string(),
});
export const statsErrorsResponseSchema = z.object({
  errors: z.array(statsErrorRowSchema),
  /** Per point of the series: counts by code (only codes that occurred). */
  points: z.array(z.object({ at: z.string(), counts: z.record(z.string(), z.number().int()) })),
});
export type StatsErrorsResponse = z.infer<typeof statsErrorsResponseSchema>;

export const statsHostsQuerySchema = statsQuerySchema.omit({ resolution: true }).extend({
  /** Hosts containing this text. */
  search: text('Search', { shouldTrim: true }).max(253).optional(),
  /** From the previous page's `nextCursor`. */
  cursor: text('Cursor').max(200).optional(),
});
export type StatsHostsQuery = z.input<typeof statsHostsQuerySchema>;

export const statsHostRowSchema = z.object({
  host: z.string(),
  bytes: z.number().int(),
  requests: z.number().int(),
  errors: z.number().int(),
});
export const statsHostsResponseSchema = z.object({
  hosts: z.array(statsHostRowSchema),
  nextCursor: z.string().nullable(),
});
export type StatsHostsResponse = z.infer<typeof statsHostsResponseSchema>;

/** The credentials a view can be narrowed to: each plan's own login and its proxy users. */
export const statsCredentialSchema = z.object({
  id: z.string(),
  label: z.string(),
  login: z.string(),
  pool: z.enum(POOL_TYPES),
  kind: z.enum(['plan', 'proxy_user']),
});
export const statsCredentialsResponseSchema = z.object({ credentials: z.array(statsCredentialSchema) });
export type StatsCredential = z.infer<typeof statsCredentialSchema>;

/** Live: what is open and moving now, per plan. */
export const statsLivePlanSchema = z.object({
  subUserId: z.string(),
  pool: z.enum(POOL_TYPES),
  openConnections: z.number().int(),
  /** Bytes per second over the last seconds, both directions. */
  bytesPerSecond: z.number(),
});
export const statsLiveSchema = z.object({
  at: z.string(),
  /**
   * `fleet`: counted across every gateway (Redis); `local`: the gateway in the API's own process;
   * `unavailable`: neither (a gateway in another process without REDIS_URL).
   */
  scope: z.enum(['fleet', 'local', 'unavailable']),
  plans: z.array(statsLivePlanSchema),
});
export type StatsLive = z.infer<typeof statsLiveSchema>;
