import { z } from 'zod';
import { customerDetailResponseSchema, reasonField } from './admin.ts';
import { orderStatusSchema } from './billing.ts';
import { parseDollarsToCents } from './money.ts';
import { pageQueryField, paginationSchema } from './orders.ts';
import { text } from './text.ts';

// The back office's money (issue 15): refunds of orders, and the payments page (every top-up and
// purchase with its provider's word, the orders held for review, "check with provider"). Money in
// answers is dollars as numbers, like the rest of /api/admin; money in requests is dollar text.

/** Payments listed per page of GET /api/admin/payments. */
export const PAYMENTS_PAGE_SIZE = 25;
/** Provider events shown with one payment, newest first. */
export const PAYMENT_EVENTS_LIMIT = 50;

/** An order as staff name it in a path: its number, BG-100001. */
export const adminOrderParamsSchema = z.object({
  orderId: text('Order')
    .max(32)
    .regex(/^BG-\d{6,15}$/, 'Order must be an order number like BG-100001'),
});
export type AdminOrderParams = z.infer<typeof adminOrderParamsSchema>;

/** Why a refund cannot be made now, in the error catalogue's words. */
export const refundRefusalSchema = z.object({ code: z.string(), message: z.string() });

/**
 * `GET /api/admin/orders/:orderId/refund`: exactly what a refund would move, computed by the server
 * (docs/money.md, "Refunds"). A purchase credits its unused part back and takes those bytes off its plan; a
 * top-up refunded outside the product takes its credited dollars off the balance.
 */
export const refundPreviewSchema = z.object({
  orderId: z.string(),
  kind: z.enum(['purchase', 'topup']),
  /** Dollars: credited back for a purchase, taken off for a top-up. */
  amount: z.number(),
  /** Purchases only (else null): bytes the order bought, and the unused part refunded with them. */
  boughtBytes: z.number().int().nullable(),
  refundBytes: z.number().int().nullable(),
  /** The plan the bytes come off (purchases), with its traffic total before and after. */
  planId: z.string().nullable(),
  planTotalBytes: z.number().int().nullable(),
  planTotalAfterBytes: z.number().int().nullable(),
  planUsedBytes: z.number().int().nullable(),
  /** The customer's balance now and after the refund, in dollars. */
  balance: z.number(),
  balanceAfter: z.number(),
  /** When a purchase's 7-day window ends (null for a top-up). */
  refundableUntil: z.string().nullable(),
  /**
   * Beyond support's limit (for support asking: beyond what they and support on this customer may still
   * move in the 24-hour window): only an admin may make this refund.
   */
  needsAdmin: z.boolean(),
  /** Why it cannot be made now (already refunded, past the window, nothing unused, balance too low). */
  refusal: refundRefusalSchema.nullable(),
});
export type RefundPreview = z.infer<typeof refundPreviewSchema>;

/** `POST /api/admin/orders/:orderId/refund`: only the reason; the amounts are the server's. */
export const refundRequestSchema = z.object({ reason: reasonField });
export type RefundRequest = z.input<typeof refundRequestSchema>;

export const refundResponseSchema = z.object({
  refund: refundPreviewSchema.omit({ refusal: true, needsAdmin: true }),
  /** The customer's page as it now is. */
  detail: customerDetailResponseSchema,
});
export type RefundResponse = z.infer<typeof refundResponseSchema>;

export const PAYMENT_METHODS = ['cryptomus', 'bitcart', 'balance'] as const;
export const paymentMethodSchema = z.enum(PAYMENT_METHODS);
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

/** `GET /api/admin/payments`: filters are exact except `q` (order number, invoice id, or email contains). */
export const paymentsQuerySchema = z.object({
  status: orderStatusSchema.optional(),
  provider: paymentMethodSchema.optional(),
  kind: z.enum(['topup', 'purchase']).optional(),
  q: text('Search', { shouldTrim: true }).max(200, 'Search must be at most 200 characters').optional(),
  page: pageQueryField,
});
export type PaymentsQuery = z.input<typeof paymentsQuerySchema>;

/** What a payer sent in their own coin, as the provider said (a partial payment held for review). */
export const payerPaidSchema = z.object({ currency: z.string(), amount: z.string() });

export const paymentSchema = z.object({
  orderId: z.string(),
  kind: z.enum(['topup', 'purchase']),
  userId: z.string(),
  email: z.string(),
  description: z.string(),
  provider: paymentMethodSchema,
  status: orderStatusSchema,
  /** The provider's own last word on the invoice ('paid', 'wrong_amount', 'complete'), if any. */
  providerStatus: z.string().nullable(),
  invoiceId: z.string().nullable(),
  /** Dollars: asked for, credited (top-ups), refunded. */
  amount: z.number(),
  credited: z.number(),
  refunded: z.number(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  refundedAt: z.string().nullable(),
  /** Webhooks stored for this invoice. */
  eventCount: z.number().int(),
  /** Held for review: why, and what the payer sent in their coin. */
  review: z.object({ reason: z.string(), payerPaid: payerPaidSchema.nullable() }).nullable(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const paymentsResponseSchema = z.object({
  payments: z.array(paymentSchema),
  pagination: paginationSchema,
});
export type PaymentsResponse = z.infer<typeof paymentsResponseSchema>;

/** A webhook as it arrived (payment_events), with what was done with it. */
export const paymentEventSchema = z.object({
  id: z.number().int(),
  receivedAt: z.string(),
  sourceIp: z.string().nullable(),
  /** Null where the provider does not sign (Bitcart). */
  isSignatureValid: z.boolean().nullable(),
  claimedStatus: z.string().nullable(),
  outcome: z.string().nullable(),
  rawBody: z.string(),
});
export type PaymentEvent = z.infer<typeof paymentEventSchema>;

/** `GET /api/admin/payments/:orderId`, and the answer of every decision on it. */
export const paymentDetailResponseSchema = z.object({
  payment: paymentSchema,
  /** Latest 50, newest first. */
  events: z.array(paymentEventSchema),
});
export type PaymentDetailResponse = z.infer<typeof paymentDetailResponseSchema>;

/** `POST /api/admin/payments/:orderId/approve`: credit what arrived (dollars), never more than asked. */
export const approveTopupRequestSchema = z.object({
  amount: text('Amount', { shouldTrim: true, error: 'Amount is required' })
    .max(20)
    .refine((value) => (parseDollarsToCents(value) ?? 0) > 0, {
      message: "Amount must be dollars like '12.50', more than zero",
    }),
  reason: reasonField,
});
export type ApproveTopupRequest = z.input<typeof approveTopupRequestSchema>;

/** `POST /api/admin/payments/:orderId/reject`: the order fails, nothing is credited. */
export const rejectTopupRequestSchema = z.object({ reason: reasonField });
export type RejectTopupRequest = z.input<typeof rejectTopupRequestSchema>;

/** What applying the provider's answer did, as settling a top-up says it. */
export const settleResultSchema = z.enum([
  'credited',
  'failed',
  'pending',
  'review',
  'already-settled',
  'mismatch',
]);

/** `POST /api/admin/payments/:orderId/check`: what the provider said now, and what it did. */
export const checkTopupResponseSchema = z.object({
  provider: z.object({
    /** Its own status word. */
    status: z.string(),
    outcome: z.enum(['success', 'partial', 'pending', 'failed']),
    /** Dollars the invoice asks for, and what arrived in USD when the provider says (else null). */
    amount: z.number(),
    paid: z.number().nullable(),
    payerPaid: payerPaidSchema.nullable(),
  }),
  result: settleResultSchema,
  payment: paymentSchema,
});
export type CheckTopupResponse = z.infer<typeof checkTopupResponseSchema>;
