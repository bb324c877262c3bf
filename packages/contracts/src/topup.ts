import { z } from 'zod';
import { MAX_TOPUP_CENTS, MIN_TOPUP_CENTS } from './constants.ts';
import { text } from './text.ts';

export const topupMessages = {
  invalidAmount: 'Please enter a valid amount',
  belowMinimum: 'Minimum top-up amount is $5.00',
  aboveMaximum: `Maximum top-up amount is $${(MAX_TOPUP_CENTS / 100).toLocaleString('en-US')}.00`,
  failed: 'Payment processing failed. Please try again.',
  success: 'Payment successful',
  failure: 'Payment failed',
  /** A provider this server does not run (docs/money.md, "Payments in production"). */
  providerUnavailable: (provider: string) =>
    `Payments with ${provider} are not available right now. Please use another payment method.`,
  /** A partial payment without a USD figure: support checks it by hand before anything is credited. */
  underReview:
    'Your payment arrived short and is under review. We credit it once it is checked; no need to pay again.',
  testMode: 'Test mode: payments are simulated',
  /** A payment that stopped short of the invoice, and what arrived was credited (docs/money.md, "Top-ups"). */
  partialCredited: 'Partial payment credited',
  partialCreditedDetail: (credited: string, invoiced: string) =>
    `${credited} of the ${invoiced} invoice reached us and was added to your balance. Start a new top-up for the rest.`,
} as const;

/** How the server runs a provider: its real API, the built-in sandbox, or not at all. */
export const paymentProviderModeSchema = z.enum(['live', 'sandbox', 'unavailable']);
export type PaymentProviderMode = z.infer<typeof paymentProviderModeSchema>;

/**
 * A top-up amount as typed: digits with an optional decimal point and at most two decimals
 * (SPEC section 5), at least $5.00. Answers integer cents.
 */
export const topupAmountSchema = z
  .union([text('Amount'), z.number()], { error: topupMessages.invalidAmount })
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim();
    const match = /^(\d{1,9})(?:\.(\d{0,2}))?$/.exec(text);
    if (!match?.[1] || (typeof value === 'number' && !Number.isFinite(value))) {
      ctx.addIssue({ code: 'custom', message: topupMessages.invalidAmount });
      return z.NEVER;
    }
    const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
    if (cents < MIN_TOPUP_CENTS) {
      ctx.addIssue({ code: 'custom', message: topupMessages.belowMinimum });
      return z.NEVER;
    }
    if (cents > MAX_TOPUP_CENTS) {
      ctx.addIssue({ code: 'custom', message: topupMessages.aboveMaximum });
      return z.NEVER;
    }
    return cents;
  });

export const createTopupRequestSchema = z.object({
  amount: topupAmountSchema,
  /** The coin the customer prefers, passed to the provider's checkout where it supports it. */
  paymentMethod: text('Payment method', { shouldTrim: true })
    .max(32, 'Payment method must be at most 32 characters')
    .optional(),
});
export type CreateTopupRequest = z.input<typeof createTopupRequestSchema>;

export const cryptomusInvoiceResponseSchema = z.object({
  invoiceUrl: z.string(),
  url: z.string(),
  orderId: z.string(),
  order_id: z.string(),
  status: z.string(),
});
export type CryptomusInvoiceResponse = z.infer<typeof cryptomusInvoiceResponseSchema>;

export const topupStatusResponseSchema = z.object({
  orderId: z.string(),
  /** The provider's own status word: lower-case for Cryptomus, upper-case for Bitcart (SPEC section 4). */
  status: z.string(),
  /** Our order state: completed, pending, failed, or review (a partial payment checked by hand). */
  orderStatus: z.enum(['completed', 'pending', 'failed', 'review']),
  balance: z.number(),
  /** Dollars the invoice asked for. */
  amount: z.number(),
  /** Dollars credited: 0 until completed, then the amount, or less when the payer stopped short. */
  credited: z.number(),
});
export type TopupStatusResponse = z.infer<typeof topupStatusResponseSchema>;

export const bitcartInvoiceResponseSchema = z.object({
  id: z.string(),
  /** Bitcart's checkout modal script; `window.bitcart.showInvoice(id)` opens the checkout. */
  modal_script_url: z.string(),
  invoiceUrl: z.string(),
  url: z.string(),
  orderId: z.string(),
  order_id: z.string(),
  status: z.string(),
});
export type BitcartInvoiceResponse = z.infer<typeof bitcartInvoiceResponseSchema>;
