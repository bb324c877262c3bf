import { z } from 'zod';
import { purchaseQuantitySchema } from './billing.ts';
import { gbToBytes } from './proxy-users.ts';
import { text } from './text.ts';

// Notifications (issue 18): what a customer is told of, by email and by webhook. The `data` of each kind
// below is what the webhook sends (snake_case, like the public API); the email says the same in words.

/** The kinds a customer chooses among in User Settings. */
export const NOTIFICATION_KINDS = [
  'low_traffic',
  'low_balance',
  'topup_credited',
  'purchase_completed',
  'new_sign_in',
  'two_factor_changed',
  'auto_buy_completed',
  'auto_buy_failed',
] as const;
export type ChosenNotificationKind = (typeof NOTIFICATION_KINDS)[number];
/** `test`: only the webhook's "Send test" button makes one. */
export type NotificationKind = ChosenNotificationKind | 'test';

/** What changed in an account's two-factor authentication. */
export type TwoFactorChange = 'enabled' | 'disabled' | 'recovery_codes_regenerated' | 'reset_by_staff';

/** How a sign-in's first factor was given. */
export type SignInMethod = 'password' | 'google' | 'email_link';

/** Each kind's `data`. Money is in US dollars as numbers with cents (12.5), traffic in integer bytes. */
export interface NotificationData {
  low_traffic: {
    plan_id: string;
    pool_type: string;
    traffic_left_bytes: number;
    traffic_total_bytes: number;
    /** The alert's setting: GB left under `gb`, or `percent_used` of the traffic used. */
    threshold: { gb: number } | { percent_used: number };
  };
  low_balance: { balance_usd: number; threshold_usd: number };
  topup_credited: { order_id: string; credited_usd: number; balance_usd: number; provider: string };
  purchase_completed: {
    order_id: string;
    plan_id: string;
    pool_type: string;
    quantity_gb: number;
    amount_usd: number;
    balance_usd: number;
  };
  new_sign_in: { ip_address: string | null; user_agent: string | null; method: SignInMethod };
  two_factor_changed: { change: TwoFactorChange };
  auto_buy_completed: {
    order_id: string;
    plan_id: string;
    pool_type: string;
    quantity_gb: number;
    amount_usd: number;
    balance_usd: number;
  };
  auto_buy_failed: {
    plan_id: string;
    pool_type: string;
    quantity_gb: number;
    reason: 'insufficient_balance' | 'monthly_limit';
    amount_usd: number;
    balance_usd: number;
  };
  test: { message: string };
}

/** How User Settings names each kind, and when it fires. */
export const NOTIFICATION_KIND_LABELS: Record<
  ChosenNotificationKind,
  { title: string; description: string }
> = {
  low_traffic: {
    title: 'Low traffic',
    description: 'A plan falls under the traffic left (or the share used) set on its Proxy Setup page.',
  },
  low_balance: { title: 'Low balance', description: 'Your balance falls under the amount set below.' },
  topup_credited: { title: 'Top-up credited', description: 'A payment reached your balance.' },
  purchase_completed: { title: 'Purchase done', description: 'Traffic was bought from your balance.' },
  new_sign_in: {
    title: 'New sign-in',
    description: 'Someone signed in to your account from an address not seen before.',
  },
  two_factor_changed: {
    title: 'Two-factor changes',
    description: 'Two-factor authentication was turned on or off, or its recovery codes renewed.',
  },
  auto_buy_completed: { title: 'Auto-buy done', description: 'An auto-buy bought traffic for a plan.' },
  auto_buy_failed: {
    title: 'Auto-buy failed',
    description: 'An auto-buy could not buy: the balance was short or its monthly limit was reached.',
  },
};

// ---- Settings (dashboard API, camelCase like the other dashboard routes) ----

export const notificationKindSchema = z.enum(NOTIFICATION_KINDS, {
  error: `Kinds must be among ${NOTIFICATION_KINDS.join(', ')}.`,
});

/** A low-balance threshold: dollars and cents above 0, at most $1,000,000. */
export const MAX_LOW_BALANCE_THRESHOLD_USD = 1_000_000;
export const WEBHOOK_URL_MAX_LENGTH = 2048;

export const notificationMessages = {
  lowBalanceFormat: `The low-balance amount is a dollar figure above 0 and at most $${MAX_LOW_BALANCE_THRESHOLD_USD.toLocaleString('en-US')}, with up to 2 decimals.`,
  webhookUrlFormat: 'Enter the full address of your endpoint, starting with https:// (or http://).',
  webhookUrlTooLong: `The address must be at most ${WEBHOOK_URL_MAX_LENGTH} characters.`,
  webhookUrlCredentials:
    'Leave user names and passwords out of the address: every delivery is signed instead.',
  webhookUrlPrivate:
    'This address leads to a private, loopback or link-local network, which webhooks cannot reach.',
  webhookUrlUnresolvable: 'This host name cannot be resolved: check the address.',
  webhookMissing: 'Set a webhook URL first.',
  alertThresholdRequired: 'Set either the GB left or the share used at which to warn.',
  alertThresholdBoth: 'Set either the GB left or the share used, not both.',
  alertGbFormat: 'The GB left is a number above 0 and at most 100000, with up to 3 decimals.',
  alertPercentFormat: 'The share used is a whole percentage from 1 to 99.',
  autoBuyThresholdFormat:
    'Buy when the GB left falls under a number above 0 and at most 100000, with up to 3 decimals.',
  autoBuyMaxPerMonthFormat: 'Buy at most a whole number of times a month, from 1 to 100.',
  planNotFound: 'No such plan',
  planInactive: 'This plan is inactive.',
} as const;

const lowBalanceThresholdField = z
  .number({ error: notificationMessages.lowBalanceFormat })
  .refine(
    (value) =>
      value > 0 &&
      value <= MAX_LOW_BALANCE_THRESHOLD_USD &&
      Math.abs(Math.round(value * 100) - value * 100) < 1e-6,
    { message: notificationMessages.lowBalanceFormat },
  );

export const notificationSettingsSchema = z.object({
  emailKinds: z.array(notificationKindSchema),
  webhookKinds: z.array(notificationKindSchema),
  lowBalanceThresholdUsd: z.number().nullable(),
  /** The webhook's address and signing secret (`whsec_…`), or null when none is set. */
  webhook: z.object({ url: z.string(), secret: z.string() }).nullable(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

/** What a client changes: each field left out stays as it is. */
export const updateNotificationSettingsRequestSchema = z.object({
  emailKinds: z.array(notificationKindSchema).max(NOTIFICATION_KINDS.length).optional(),
  webhookKinds: z.array(notificationKindSchema).max(NOTIFICATION_KINDS.length).optional(),
  lowBalanceThresholdUsd: lowBalanceThresholdField.nullable().optional(),
});
export type UpdateNotificationSettingsRequest = z.input<typeof updateNotificationSettingsRequestSchema>;

const WEBHOOK_SCHEME = /^https?:\/\//i;
const WEBHOOK_CREDENTIALS = /^https?:\/\/[^/?#]*@/i;
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** http(s), a host (a name, an IPv4 address or a bracketed IPv6 one), an optional port and path. */
const WEBHOOK_URL = new RegExp(
  `^https?://(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]+\\])(?::\\d{1,5})?(?:[/?#]\\S*)?$`,
  'i',
);

/**
 * Why a webhook address is refused, or null when it is well formed: http(s), a host, no user or
 * password, not too long. A regular expression, not `URL`: the contracts assume no DOM or Node types.
 * (The server also resolves the host before each delivery and refuses private networks.)
 */
export function webhookUrlProblem(value: string): string | null {
  if (value.length > WEBHOOK_URL_MAX_LENGTH) {
    return notificationMessages.webhookUrlTooLong;
  }
  if (WEBHOOK_SCHEME.test(value) && WEBHOOK_CREDENTIALS.test(value)) {
    return notificationMessages.webhookUrlCredentials;
  }
  return WEBHOOK_URL.test(value) ? null : notificationMessages.webhookUrlFormat;
}

export const setWebhookRequestSchema = z.object({
  url: text('Webhook URL', { shouldTrim: true }).superRefine((value, ctx) => {
    const problem = webhookUrlProblem(value);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
    }
  }),
});
export type SetWebhookRequest = z.input<typeof setWebhookRequestSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One POST of a delivery, as the delivery log shows it. */
export const webhookAttemptSchema = z.object({
  attemptedAt: z.string(),
  /** The receiver's HTTP status, or null when no answer came (`error` says why). */
  statusCode: z.number().int().nullable(),
  /** The start of the receiver's answer (at most 2 KiB). */
  responseBody: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
});

export const webhookDeliverySchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  url: z.string(),
  createdAt: z.string(),
  /** When it will be tried again, while pending. */
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  /** The event as it was sent (the signed body). */
  payload: z.record(z.string(), z.unknown()),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveriesResponseSchema = z.object({
  deliveries: z.array(webhookDeliverySchema),
  /** Pass as `cursor` for the next (older) page; null on the last. */
  nextCursor: z.string().nullable(),
});
export type WebhookDeliveriesResponse = z.infer<typeof webhookDeliveriesResponseSchema>;

// ---- A plan's low-traffic alert and auto-buy ----

const gbThreshold = (message: string) =>
  z.number({ error: message }).refine((value) => gbToBytes(value) !== null, { message });

export const setLowTrafficAlertRequestSchema = z
  .object({
    thresholdGb: gbThreshold(notificationMessages.alertGbFormat).nullable().optional(),
    thresholdPercent: z
      .number({ error: notificationMessages.alertPercentFormat })
      .int(notificationMessages.alertPercentFormat)
      .min(1, notificationMessages.alertPercentFormat)
      .max(99, notificationMessages.alertPercentFormat)
      .nullable()
      .optional(),
  })
  .superRefine((body, ctx) => {
    const hasGb = body.thresholdGb != null;
    const hasPercent = body.thresholdPercent != null;
    if (!hasGb && !hasPercent) {
      ctx.addIssue({ code: 'custom', message: notificationMessages.alertThresholdRequired });
    } else if (hasGb && hasPercent) {
      ctx.addIssue({ code: 'custom', message: notificationMessages.alertThresholdBoth });
    }
  });
export type SetLowTrafficAlertRequest = z.input<typeof setLowTrafficAlertRequestSchema>;

export const setAutoBuyRequestSchema = z.object({
  thresholdGb: gbThreshold(notificationMessages.autoBuyThresholdFormat),
  quantityGb: purchaseQuantitySchema,
  maxPerMonth: z
    .number({ error: notificationMessages.autoBuyMaxPerMonthFormat })
    .int(notificationMessages.autoBuyMaxPerMonthFormat)
    .min(1, notificationMessages.autoBuyMaxPerMonthFormat)
    .max(100, notificationMessages.autoBuyMaxPerMonthFormat),
  isEnabled: z.boolean().optional(),
});
export type SetAutoBuyRequest = z.input<typeof setAutoBuyRequestSchema>;

export const AUTO_BUY_STATUSES = ['armed', 'bought', 'insufficient_balance', 'monthly_limit'] as const;

export const planAutomationSchema = z.object({
  subUserId: z.string(),
  lowTraffic: z
    .object({
      thresholdGb: z.number().nullable(),
      thresholdPercent: z.number().int().nullable(),
      /** Under the threshold now (it fired, or was already under when set): fires again after a purchase. */
      isTriggered: z.boolean(),
    })
    .nullable(),
  autoBuy: z
    .object({
      thresholdGb: z.number(),
      quantityGb: z.number().int(),
      maxPerMonth: z.number().int(),
      isEnabled: z.boolean(),
      status: z.enum(AUTO_BUY_STATUSES),
      /** Purchases it made this calendar month (UTC). */
      boughtThisMonth: z.number().int(),
      lastRun: z
        .object({
          outcome: z.enum(['bought', 'insufficient_balance', 'monthly_limit']),
          at: z.string(),
          orderId: z.string().nullable(),
        })
        .nullable(),
    })
    .nullable(),
});
export type PlanAutomation = z.infer<typeof planAutomationSchema>;
