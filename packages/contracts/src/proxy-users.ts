import { z } from 'zod';
import { MAX_ALLOWLIST_ADDRESSES } from './allowlist.ts';
import { BYTES_PER_GB } from './constants.ts';
import { proxySettingsSchema, saveProxySettingsRequestSchema } from './proxy-settings.ts';
import { text } from './text.ts';

// Proxy users (issue 17): more credentials under one plan, each with its own caps, targeting and
// allowlist. Traffic is the plan's; a cap bounds one user's share. The public API's shapes (snake_case,
// bytes as integers), used by the dashboard's tab as well.

export const TRAFFIC_CAP_PERIODS = ['day', 'month', 'lifetime'] as const;
export type TrafficCapPeriod = (typeof TRAFFIC_CAP_PERIODS)[number];
export const MAX_PROXY_USERS_PER_PLAN = 1000;
export const MAX_CAP_GB = 100_000;
export const PROXY_USER_LABEL_MAX_LENGTH = 64;
/** 8 to 32 lowercase letters and digits; `bg` starts only plans' logins, so the two never meet. */
export const PROXY_USER_LOGIN = /^(?!bg)[a-z0-9]{8,32}$/;

export const proxyUserMessages = {
  loginFormat: 'A login is 8 to 32 lowercase letters and digits, and cannot start with "bg".',
  loginTaken: 'This login is taken: choose another.',
  labelTooLong: `The label must be at most ${PROXY_USER_LABEL_MAX_LENGTH} characters.`,
  capFormat: `A traffic cap is a number of GB above 0 and at most ${MAX_CAP_GB}, with up to 3 decimals.`,
  capPeriodRequired: 'Choose the period of the traffic cap: day, month or lifetime.',
  capPeriodWithoutCap: 'A cap period needs a traffic cap.',
  threadsFormat: 'Threads must be a whole number from 1 up to the plan’s threads, or none.',
  threadsOverPlan: (threads: number) => `A proxy user can have at most the plan’s ${threads} threads.`,
  full: `A plan can have at most ${MAX_PROXY_USERS_PER_PLAN} proxy users: delete one to add another.`,
  notFound: 'No such proxy user',
  planNotFound: 'No such plan',
  planInactive: 'This plan is inactive: it cannot have proxy users.',
  moveNotLifetime: 'Traffic moves only to and from proxy users with a lifetime cap.',
  moveFormat: `Move a number of GB above 0 and at most ${MAX_CAP_GB}, with up to 3 decimals.`,
  notEnoughOnPlan: (gb: string) =>
    `The plan has ${gb} GB that is not set aside for proxy users: move or cap less.`,
  notEnoughOnUser: (gb: string) => `This proxy user has ${gb} GB of its cap unused: move back less.`,
  allowlistTooMany: `A proxy user can allowlist at most ${MAX_ALLOWLIST_ADDRESSES} addresses.`,
} as const;

/**
 * GB (1024^3 bytes) with up to three decimals into bytes, rounded to the byte (0.001 GB is 1,073,742
 * bytes); null when it is not such a number in range.
 */
export function gbToBytes(gb: number): number | null {
  if (!Number.isFinite(gb) || gb <= 0 || gb > MAX_CAP_GB) {
    return null;
  }
  const thousandths = Math.round(gb * 1000);
  if (Math.abs(thousandths - gb * 1000) > 1e-6) {
    return null;
  }
  // thousandths × 2^30 / 1000 = thousandths × 2^27 / 125, in integers (the product passes 2^53), to
  // the nearest byte (125 is odd: never a tie).
  return Number((BigInt(thousandths) * BigInt(BYTES_PER_GB / 8) + 62n) / 125n);
}

/** Bytes as GB with up to three decimals, for messages ("1.5"). */
export function bytesToGbText(bytes: number): string {
  return String(Number((bytes / BYTES_PER_GB).toFixed(3)));
}

const targetingInput = saveProxySettingsRequestSchema.omit({ pool_type: true });

/** Fields of a proxy user a client sets; on an update, an absent field is unchanged and null clears it. */
export const proxyUserFieldsSchema = z.object({
  label: text('Label', { shouldTrim: true })
    .max(PROXY_USER_LABEL_MAX_LENGTH, proxyUserMessages.labelTooLong)
    .optional(),
  enabled: z.boolean().optional(),
  traffic_cap_gb: z.number({ error: proxyUserMessages.capFormat }).nullable().optional(),
  cap_period: z
    .enum(TRAFFIC_CAP_PERIODS, { error: proxyUserMessages.capPeriodRequired })
    .nullable()
    .optional(),
  threads: z
    .number({ error: proxyUserMessages.threadsFormat })
    .int(proxyUserMessages.threadsFormat)
    .nullable()
    .optional(),
  /** Its own saved targeting (the Proxy Settings fields); null: the plan's. */
  targeting: targetingInput.nullable().optional(),
  allowlist: z
    .array(text('Address').max(64, 'Each address must be at most 64 characters'))
    .max(MAX_ALLOWLIST_ADDRESSES, proxyUserMessages.allowlistTooMany)
    .optional(),
});
export type ProxyUserFields = z.infer<typeof proxyUserFieldsSchema>;

export const createProxyUserBodySchema = proxyUserFieldsSchema.extend({
  /** Chosen by the client, or generated when absent. */
  login: text('Login').max(64, proxyUserMessages.loginFormat).optional(),
});
export type CreateProxyUserBody = z.infer<typeof createProxyUserBodySchema>;

export const moveTrafficBodySchema = z.object({
  direction: z.enum(['to_proxy_user', 'to_plan']),
  gb: z.number({ error: proxyUserMessages.moveFormat }),
});

const targetingSchema = proxySettingsSchema.omit({ pool_type: true, updated_at: true });

export const proxyUserSchema = z.object({
  id: z.string(),
  plan_id: z.string(),
  login: z.string(),
  password: z.string(),
  label: z.string(),
  enabled: z.boolean(),
  traffic_cap: z
    .object({ bytes: z.number().int(), gb: z.number(), period: z.enum(TRAFFIC_CAP_PERIODS) })
    .nullable(),
  threads: z.number().int().nullable(),
  usage: z.object({
    /** Used in the cap's current period (the UTC day or month), or in its lifetime. */
    period_used_bytes: z.number().int(),
    period_start: z.string().nullable(),
    /** What is left of the cap in its period; null without a cap. */
    cap_left_bytes: z.number().int().nullable(),
    lifetime_used_bytes: z.number().int(),
  }),
  targeting: targetingSchema.nullable(),
  allowlist: z.array(z.string()),
  /**
   * The addresses of `allowlist` proved by a request from that very address: only these let traffic in
   * without credentials.
   */
  allowlist_verified: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProxyUser = z.infer<typeof proxyUserSchema>;

export const proxyUserListSchema = z.object({
  proxy_users: z.array(proxyUserSchema),
  next_cursor: z.string().nullable(),
});
