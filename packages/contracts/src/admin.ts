import { z } from 'zod';
import { orderSchema, poolTypeSchema } from './billing.ts';
import { parseDollarsToCents } from './money.ts';
import { pageQueryField, paginationSchema } from './orders.ts';
import { proxySettingsSchema } from './proxy-settings.ts';
import { text } from './text.ts';

// The back office (issue 15): what /api/admin/* takes and answers. Every route needs a staff role,
// checked on the server; money is in dollars as numbers, like GET /api/account/balance.

/**
 * Who a user is to Bytegate: every signup is a customer; staff roles are granted by `bytegate staff`; a
 * partner is a customer who also runs exit agents (`bytegate agents token --partner`), never staff.
 */
export const USER_ROLES = ['customer', 'support', 'admin', 'partner'] as const;
export const userRoleSchema = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof userRoleSchema>;

/** The roles that open the console, the lower first. */
export const STAFF_ROLES = ['support', 'admin'] as const;
export const staffRoleSchema = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof staffRoleSchema>;

/** Whether a role opens the console (and the web app shows its link). */
export function isStaffRole(role: UserRole): role is StaffRole {
  return role === 'support' || role === 'admin';
}

/**
 * What support may move (absolute cents of balance adjustments, refunds and top-up approvals together)
 * in SUPPORT_LIMIT_WINDOW_HOURS: per support member, and on one customer by all support; beyond it, an admin.
 */
export const SUPPORT_BALANCE_LIMIT_CENTS = 100_00;
/** The rolling window of support's balance allowance, in hours. */
export const SUPPORT_LIMIT_WINDOW_HOURS = 24;
/** The thread limit staff may set on a plan. */
export const MIN_THREAD_LIMIT = 1;
export const MAX_THREAD_LIMIT = 10_000;
/** Rows the customer search answers at most. */
export const CUSTOMER_SEARCH_LIMIT = 50;
/** Audit entries per page of GET /api/admin/audit. */
export const AUDIT_PAGE_SIZE = 50;
/** How long after its completion a purchase's unused traffic may be refunded (Terms: 7-day money back). */
export const REFUND_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
export const REASON_MIN_LENGTH = 3;
export const REASON_MAX_LENGTH = 500;

/** What the audit log records, one name per staff action. */
export const AUDIT_ACTIONS = [
  'staff.grant',
  'staff.revoke',
  'customer.balance.adjust',
  'customer.disable',
  'customer.enable',
  'customer.sessions.revoke',
  'customer.two_factor.reset',
  'customer.password_reset.send',
  'plan.threads.change',
  'thread_request.approve',
  'thread_request.decline',
  'plan.password.regenerate',
  'customer.unblocks.change',
  'order.refund',
  'topup.approve',
  'topup.reject',
  'topup.check',
  'exit.add',
  'exit.import',
  'exit.disable',
  'exit.enable',
  'exit.remove',
  'exit.rotation.out',
  'exit.rotation.restore',
  'source.add',
  'source.change',
  'source.reconcile',
  'contact.status',
  'contact.assign',
  'contact.note',
  'contact.reply',
  'outbox.read',
  'agent.token',
  'agent.revoke',
  'agent.ban',
  'agent.quarantine',
  'agent.release',
  'partner.rate',
] as const;
export const auditActionSchema = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof auditActionSchema>;

/** What an audit entry is about. */
export const AUDIT_TARGET_TYPES = [
  'user',
  'plan',
  'exit',
  'inventory',
  'source',
  'contact_message',
  'outbox_message',
  'agent',
  'partner_rate',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** Why staff act: required on every action that moves money or traffic (and on the others alike). */
export const reasonField = text('Reason', {
  isMultiline: true,
  shouldTrim: true,
  error: 'Reason is required',
})
  .min(REASON_MIN_LENGTH, `Reason must be at least ${REASON_MIN_LENGTH} characters`)
  .max(REASON_MAX_LENGTH, `Reason must be at most ${REASON_MAX_LENGTH} characters`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const uuidField = (label: string) =>
  text(label)
    .max(64)
    .refine((value) => UUID.test(value), { message: `${label} must be a UUID` });

/** A user's id (uuid) as a path names it; an unknown one is a 404. */
export const adminUserParamsSchema = z.object({ userId: uuidField('User id') });
/** A plan's id (uuid) as a path names it; an unknown one is a 404. */
export const adminPlanParamsSchema = z.object({ planId: uuidField('Plan id') });

export const customerStatusSchema = z.enum(['active', 'disabled']);
export type CustomerStatus = z.infer<typeof customerStatusSchema>;

/** Which field the search text matched. */
export const customerMatchSchema = z.enum(['email', 'name', 'proxy_login', 'ip', 'order', 'invoice']);
export type CustomerMatch = z.infer<typeof customerMatchSchema>;

/** `GET /api/admin/customers?q=`: by email, name, proxy login, allowlisted IP, order number or invoice id. */
export const customerSearchQuerySchema = z.object({
  q: text('Search', { shouldTrim: true }).max(200, 'Search must be at most 200 characters').default(''),
});
export type CustomerSearchQuery = z.input<typeof customerSearchQuerySchema>;

export const customerSummarySchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: userRoleSchema,
  status: customerStatusSchema,
  /** Dollars. */
  balance: z.number(),
  createdAt: z.string(),
  /** Which field matched `q`; with an empty `q` (the most recent customers), 'email'. */
  matchedBy: customerMatchSchema,
});
export type CustomerSummary = z.infer<typeof customerSummarySchema>;

export const customerSearchResponseSchema = z.object({ customers: z.array(customerSummarySchema) });
export type CustomerSearchResponse = z.infer<typeof customerSearchResponseSchema>;

export const adminLedgerEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  /** Signed dollars: a credit is positive. */
  amount: z.number(),
  /** The balance this entry left, in dollars: the entry before's plus `amount`, in the list's order. */
  balanceAfter: z.number(),
  kind: z.enum(['topup', 'purchase', 'refund', 'adjustment']),
  note: z.string().nullable(),
});
export type AdminLedgerEntry = z.infer<typeof adminLedgerEntrySchema>;

export const adminPlanSchema = z.object({
  id: z.string(),
  poolType: poolTypeSchema,
  login: z.string(),
  trafficTotalBytes: z.number().int(),
  trafficUsedBytes: z.number().int(),
  threadLimit: z.number().int(),
  isActive: z.boolean(),
  /** The plan's saved targeting as GET /api/proxy-settings answers it, or null when never saved. */
  savedTargeting: proxySettingsSchema.nullable(),
  /** Allowlisted IPs or CIDR ranges. */
  allowlist: z.array(z.string()),
});
export type AdminPlan = z.infer<typeof adminPlanSchema>;

export const adminSessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  /** Always false here: staff never look at their own session through a customer's page. */
  current: z.boolean(),
});
export type AdminSession = z.infer<typeof adminSessionSchema>;

/** One staff action. `actorEmail` is 'cli' for the `bytegate` command; before/after are the changed values. */
export const auditEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  actorEmail: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  reason: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const customerDetailSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  company: z.string().nullable(),
  role: userRoleSchema,
  status: customerStatusSchema,
  /** When the customer turned two-factor authentication on; null while it is off. */
  twoFactorEnabledAt: z.string().nullable(),
  /** Dollars. */
  balance: z.number(),
  createdAt: z.string(),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** An order as staff see it: the customer's view plus what a refund needs. */
export const adminOrderSchema = orderSchema.extend({
  kind: z.enum(['topup', 'purchase']),
  /** Dollars a top-up credited (0 for a purchase or an unpaid top-up). */
  credited: z.number(),
  /** Dollars refunded (0 when not refunded), and when. */
  refunded: z.number(),
  refundedAt: z.string().nullable(),
  /** A purchase's refund window ends here (7 days after completion); null for a top-up. */
  refundableUntil: z.string().nullable(),
  /** Whether a refund may be asked for now (GET …/refund says exactly what it would move). */
  canRefund: z.boolean(),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

/** `GET /api/admin/customers/:userId`, and the answer of every action on that customer. */
export const customerDetailResponseSchema = z.object({
  customer: customerDetailSchema,
  /** Latest 100, newest first: in the order the balance moved, each balanceAfter the next older one plus amount. */
  ledger: z.array(adminLedgerEntrySchema),
  plans: z.array(adminPlanSchema),
  unblocks: z.object({ ports: z.array(z.number().int()), hosts: z.array(z.string()) }),
  /** Latest 50, newest first. */
  orders: z.array(adminOrderSchema),
  /** Open dashboard sessions (not expired, not revoked), newest first. */
  sessions: z.array(adminSessionSchema),
  /** Latest 50 entries about this customer or their plans, newest first. */
  audit: z.array(auditEntrySchema),
});
export type CustomerDetailResponse = z.infer<typeof customerDetailResponseSchema>;

/** `POST /api/admin/customers/:userId/balance`: a signed dollar amount ('12.50', '-3'), never zero. */
export const adjustBalanceRequestSchema = z.object({
  amount: text('Amount', { shouldTrim: true, error: 'Amount is required' })
    .max(20)
    .refine((value) => parseDollarsToCents(value) !== null, {
      message: "Amount must be dollars like '12.50' or '-3'",
    })
    .refine((value) => parseDollarsToCents(value) !== 0, { message: 'Amount must not be zero' }),
  reason: reasonField,
});
export type AdjustBalanceRequest = z.input<typeof adjustBalanceRequestSchema>;

/** disable, enable, sessions/revoke: only the reason. */
export const reasonRequestSchema = z.object({ reason: reasonField });
export type ReasonRequest = z.input<typeof reasonRequestSchema>;

/** `POST /api/admin/plans/:planId/threads`. */
export const changeThreadLimitRequestSchema = z.object({
  threadLimit: z
    .number({ error: 'Thread limit must be a whole number' })
    .int('Thread limit must be a whole number')
    .min(MIN_THREAD_LIMIT, `Thread limit must be at least ${MIN_THREAD_LIMIT}`)
    .max(MAX_THREAD_LIMIT, `Thread limit must be at most ${MAX_THREAD_LIMIT.toLocaleString('en-US')}`),
  reason: reasonField,
});
export type ChangeThreadLimitRequest = z.input<typeof changeThreadLimitRequestSchema>;

export const adminPlanResponseSchema = z.object({ plan: adminPlanSchema });
export type AdminPlanResponse = z.infer<typeof adminPlanResponseSchema>;

/** `GET /api/admin/audit`: filters are exact (actor by email, action by name, target by id). */
export const auditQuerySchema = z.object({
  actor: text('Actor', { shouldTrim: true }).max(254).optional(),
  action: text('Action', { shouldTrim: true }).max(64).optional(),
  targetId: text('Target id', { shouldTrim: true }).max(64).optional(),
  page: pageQueryField,
});
export type AuditQuery = z.input<typeof auditQuerySchema>;

export const auditResponseSchema = z.object({
  entries: z.array(auditEntrySchema),
  pagination: paginationSchema,
});
export type AuditResponse = z.infer<typeof auditResponseSchema>;
