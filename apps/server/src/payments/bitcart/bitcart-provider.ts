import { centsToDecimal, decimalToCents } from '@bytegate/contracts/money';
import { z } from 'zod';
import {
  type CreateInvoiceInput,
  ForeignInvoiceError,
  type InvoiceOutcome,
  type InvoiceSnapshot,
  type PaymentProvider,
  PaymentProviderError,
  PROVIDER_TRAITS,
  type WebhookReading,
} from '../provider.ts';

export interface BitcartSettings {
  /** The Merchants API, e.g. https://pay.example.com/api. */
  apiUrl: () => string;
  /** The admin panel, which serves the checkout pages and the modal script. */
  adminUrl: () => string;
  token: string;
  storeId: string;
  isSandbox: boolean;
}

// Bitcart's DisplayInvoice; only the fields we use. `sent_amount` and payment rates may be numbers or strings.
const decimalLike = z.union([z.string(), z.number()]);
const invoiceSchema = z.object({
  id: z.string(),
  store_id: z.string().nullish(),
  order_id: z.string().nullish(),
  price: decimalLike,
  currency: z.string(),
  status: z.string(),
  exception_status: z.string().nullish(),
  sent_amount: decimalLike.nullish(),
  payment_id: z.string().nullish(),
  /** The invoice's whole lifetime; `time_left` is what remains of it. */
  expiration_seconds: z.number().nullish(),
  time_left: z.number().nullish(),
  created: z.string().nullish(),
  payments: z
    .array(
      z
        .object({ id: z.string().nullish(), currency: z.string().nullish(), rate: decimalLike.nullish() })
        .passthrough(),
    )
    .nullish(),
});
type BitcartInvoice = z.infer<typeof invoiceSchema>;

/** Bitcart's statuses (api/invoices.py) and what each means for a top-up. */
export function bitcartOutcome(status: string, exceptionStatus: string | null | undefined): InvoiceOutcome {
  switch (status) {
    case 'complete':
      return 'success';
    case 'expired':
      return exceptionStatus === 'paid_partial' ? 'partial' : 'failed';
    case 'invalid':
      return 'failed';
    default:
      // pending, paid (seen, unconfirmed), confirmed (below the store's transaction speed), refunded
      return 'pending';
  }
}

/**
 * The payment method the payer used: the one `payment_id` names. Null when it names none of the
 * invoice's methods (or is missing): then nobody can say which coin the sent amount is in, and taking
 * another method's rate could price 1 LTC at a BTC rate, so the payment goes to a person instead.
 */
function usedMethod(invoice: BitcartInvoice) {
  if (!invoice.payment_id) {
    return null;
  }
  return invoice.payments?.find((payment) => payment.id === invoice.payment_id) ?? null;
}

/** USD cents that actually arrived: sent coins times the used method's rate, rounded down; null when unknown. */
function paidCents(invoice: BitcartInvoice): number | null {
  const sent = Number(invoice.sent_amount ?? 0);
  const rate = Number(usedMethod(invoice)?.rate ?? 0);
  if (!(sent > 0) || !(rate > 0)) {
    return null;
  }
  return Math.floor(sent * rate * 100 + 1e-6);
}

/** What the payer sent, in their coin, for the person reviewing a payment nobody could price. */
function payerPaid(invoice: BitcartInvoice): InvoiceSnapshot['payerPaid'] {
  const sent = invoice.sent_amount ?? null;
  if (sent === null || !(Number(sent) > 0)) {
    return null;
  }
  const method = usedMethod(invoice);
  const currency = method?.currency
    ? method.currency.toUpperCase()
    : `unknown coin (payment_id ${invoice.payment_id ?? 'missing'})`;
  return { currency, amount: String(sent) };
}

function expiresAt(invoice: BitcartInvoice): Date | null {
  const created = invoice.created ? Date.parse(invoice.created) : Number.NaN;
  if (invoice.expiration_seconds && Number.isFinite(created)) {
    return new Date(created + invoice.expiration_seconds * 1000);
  }
  return typeof invoice.time_left === 'number' ? new Date(Date.now() + invoice.time_left * 1000) : null;
}

export interface BitcartProvider extends PaymentProvider {
  /** Bitcart's checkout modal script, which the top-up dialog loads. */
  modalScriptUrl(): string;
}

/** Provider B: Bitcart's Merchants API (bearer token; invoice reads are public). */
export function createBitcartProvider(settings: BitcartSettings): BitcartProvider {
  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<BitcartInvoice> {
    let response: Response;
    try {
      response = await fetch(`${settings.apiUrl()}${path}`, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${settings.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new PaymentProviderError(`Bitcart could not be reached: ${(error as Error).message}`);
    }
    const json: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      throw new PaymentProviderError(
        `Bitcart ${method} ${path} failed (${response.status})`,
        response.status,
      );
    }
    const invoice = invoiceSchema.safeParse(json);
    if (!invoice.success) {
      throw new PaymentProviderError(`Bitcart ${method} ${path} answered an unexpected invoice`);
    }
    return invoice.data;
  }

  function snapshot(invoice: BitcartInvoice): InvoiceSnapshot {
    const amountCents = decimalToCents(invoice.price);
    if (amountCents === null) {
      throw new PaymentProviderError(`Bitcart sent a price that is not a decimal: ${invoice.price}`);
    }
    if (invoice.store_id !== settings.storeId) {
      throw new ForeignInvoiceError(
        `Bitcart answered invoice ${invoice.id} of store ${invoice.store_id ?? '(none)'}, not of ours (${settings.storeId})`,
      );
    }
    return {
      invoiceId: invoice.id,
      orderId: invoice.order_id ?? '',
      rawStatus: invoice.status,
      outcome: bitcartOutcome(invoice.status, invoice.exception_status),
      currency: invoice.currency,
      amountCents,
      paidCents: paidCents(invoice),
      payerPaid: payerPaid(invoice),
      checkoutUrl: `${settings.adminUrl()}/i/${invoice.id}`,
      expiresAt: expiresAt(invoice),
    };
  }

  return {
    name: 'bitcart',
    ...PROVIDER_TRAITS.bitcart,
    isSandbox: settings.isSandbox,
    readWebhook: readBitcartWebhook,
    modalScriptUrl: () => `${settings.adminUrl()}/modal/bitcart.js`,
    async createInvoice(input: CreateInvoiceInput) {
      // The order_id route is idempotent: a retry returns the same unexpired invoice.
      const invoice = await call('POST', `/invoices/order_id/${encodeURIComponent(input.orderId)}`, {
        store_id: settings.storeId,
        price: centsToDecimal(input.amountCents),
        currency: 'USD',
        order_id: input.orderId,
        notification_url: input.callbackUrl,
        redirect_url: input.returnUrl,
        metadata: { source: 'bytegate', paymentMethod: input.paymentMethod ?? null },
      });
      return snapshot(invoice);
    },
    async getInvoice(ref) {
      return snapshot(await call('GET', `/invoices/${encodeURIComponent(ref.invoiceId)}`));
    },
  };
}

/** Bitcart's IPN is unsigned and only names an invoice to re-read: `{ id, status }`. */
export function readBitcartWebhook(body: unknown): WebhookReading {
  const fields = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  return {
    rawBody: JSON.stringify(body ?? null),
    isSignatureValid: null,
    claimedInvoiceId: typeof fields.id === 'string' ? fields.id.slice(0, 64) : null,
    claimedOrderId: null,
    claimedStatus: typeof fields.status === 'string' ? fields.status.slice(0, 32) : null,
  };
}
