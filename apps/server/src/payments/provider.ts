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

export interface PaymentProvider {
  readonly name: 'cryptomus' | 'bitcart';
  readonly isSandbox: boolean;
  createInvoice(input: CreateInvoiceInput): Promise<InvoiceSnapshot>;
  getInvoice(ref: { invoiceId: string; orderId: string }): Promise<InvoiceSnapshot>;
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

/** '25.00' (a decimal string) to 2500 cents, rounding down; null when it is not a decimal amount. */
export function decimalToCents(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match?.[1]) {
    return null;
  }
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').slice(0, 2).padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

export function centsToDecimal(cents: number): string {
  return (cents / 100).toFixed(2);
}
