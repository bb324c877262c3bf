/** What every payment provider adapter offers; the billing services see only this. */

export type InvoiceOutcome = 'success' | 'partial' | 'pending' | 'failed';

/** An invoice as the provider reports it, normalized. Amounts are USD cents. */
export interface InvoiceSnapshot {
  invoiceId: string;
  /** Our order id, as the provider echoes it back. */
  orderId: string;
  /** The provider's own status word. */
  rawStatus: string;
  outcome: InvoiceOutcome;
  currency: string;
  amountCents: number;
  /**
   * What the payer actually sent, in USD cents, from a USD figure the provider reports (partial
   * payments); null when it reports none, which holds a partial payment for manual review.
   */
  paidCents: number | null;
  /** What the payer sent in their own coin, as the provider says: for the person reviewing a payment. */
  payerPaid?: { currency: string; amount: string } | null;
  checkoutUrl: string;
  expiresAt: Date | null;
}

export interface CreateInvoiceInput {
  orderId: string;
  amountCents: number;
  /** Where the provider sends its webhooks (IPN). */
  callbackUrl: string;
  /** Where the payer returns to after paying. */
  returnUrl: string;
  paymentMethod?: string | undefined;
}

export const PROVIDER_NAMES = ['cryptomus', 'bitcart'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** What is known of a provider whether or not this server runs it (its routes exist either way). */
export interface ProviderTraits {
  /** How people call it; a refusal names it. */
  readonly displayName: string;
  /**
   * How its webhook's body reaches `readWebhook`: `text` is the exact bytes (a signature is checked
   * over them), `json` is parsed as any API body.
   */
  readonly webhookBody: 'text' | 'json';
}

export const PROVIDER_TRAITS: Record<ProviderName, ProviderTraits> = {
  cryptomus: { displayName: 'Cryptomus', webhookBody: 'text' },
  bitcart: { displayName: 'Bitcart', webhookBody: 'json' },
};

/**
 * A webhook as its provider's adapter reads it. Only a hint for finding the order: the invoice is
 * re-read from the provider before any money moves.
 */
export interface WebhookReading {
  /** What is stored in payment_events. */
  rawBody: string;
  /** Null when the provider does not sign its webhooks (Bitcart). */
  isSignatureValid: boolean | null;
  claimedInvoiceId: string | null;
  claimedOrderId: string | null;
  claimedStatus: string | null;
}

export interface PaymentProvider extends ProviderTraits {
  readonly name: ProviderName;
  readonly isSandbox: boolean;
  createInvoice(input: CreateInvoiceInput): Promise<InvoiceSnapshot>;
  getInvoice(ref: { invoiceId: string; orderId: string }): Promise<InvoiceSnapshot>;
  /** Checks a webhook's signature, if the provider signs, and reads what it claims. */
  readWebhook(body: unknown): WebhookReading;
}

export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

/**
 * The provider answered with an invoice that is not ours (Bitcart: of another store, or of none): it is
 * never settled, and the operator is told (a payment server shared with another shop, or tampering).
 */
export class ForeignInvoiceError extends PaymentProviderError {
  constructor(message: string) {
    super(message);
    this.name = 'ForeignInvoiceError';
  }
}
