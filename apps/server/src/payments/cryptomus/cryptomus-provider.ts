import { centsToDecimal, decimalToCents } from '@bytegate/contracts/money';
import { z } from 'zod';
import {
  type CreateInvoiceInput,
  type InvoiceOutcome,
  type InvoiceSnapshot,
  type PaymentProvider,
  PaymentProviderError,
  PROVIDER_TRAITS,
  type WebhookReading,
} from '../provider.ts';
import { cryptomusSign, phpJson, verifyCryptomusWebhook } from './sign.ts';

export interface CryptomusSettings {
  merchantId: string;
  apiKey: string;
  /** e.g. https://api.cryptomus.com (the sandbox's URL when no credentials are configured). */
  apiUrl: () => string;
  isSandbox: boolean;
}

// The payment object of /v1/payment and /v1/payment/info; only the fields we use.
const paymentSchema = z.object({
  uuid: z.string(),
  order_id: z.string(),
  amount: z.string(),
  payment_amount: z.string().nullish(),
  payment_amount_usd: z.string().nullish(),
  payer_currency: z.string().nullish(),
  payer_amount: z.string().nullish(),
  currency: z.string(),
  url: z.string(),
  status: z.string(),
  is_final: z.boolean().optional(),
  expired_at: z.number().nullish(),
});
const envelopeSchema = z.object({
  state: z.number(),
  result: z.unknown().optional(),
  message: z.string().optional(),
  errors: z.unknown().optional(),
});

/** Cryptomus' statuses (doc "Payment statuses") and what each means for a top-up. */
export function cryptomusOutcome(status: string): InvoiceOutcome {
  switch (status) {
    case 'paid':
    case 'paid_over':
      return 'success';
    case 'wrong_amount':
      return 'partial';
    case 'cancel':
    case 'fail':
    case 'system_fail':
      return 'failed';
    default:
      // check, process, confirm_check, wrong_amount_waiting, locked (AML review), refund_*: not final for us.
      return 'pending';
  }
}

/**
 * What the payer sent, in USD cents, from the one USD figure Cryptomus reports: `payment_amount_usd`.
 * Never `payment_amount`: that is in the payer's coin (0.0002 BTC is not $0.02). Nor a rate: Cryptomus
 * does not document which way `payer_amount_exchange_rate` points, and a misread rate credits money
 * nobody paid. A zero figure counts as none (Cryptomus sends "0.00" where it has not converted, seen on
 * P2P payments). Null sends a partial payment to manual review.
 */
export function paidUsdCents(payment: { payment_amount_usd?: string | null | undefined }): number | null {
  const cents = decimalToCents(payment.payment_amount_usd ?? null);
  return cents !== null && cents > 0 ? cents : null;
}

/** Provider A: Cryptomus' real HTTP API, with its md5 request signature. */
export function createCryptomusProvider(settings: CryptomusSettings): PaymentProvider {
  async function call(
    path: string,
    payload: Record<string, unknown>,
  ): Promise<z.infer<typeof paymentSchema>> {
    const body = phpJson(payload);
    let response: Response;
    try {
      response = await fetch(`${settings.apiUrl()}/${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          merchant: settings.merchantId,
          sign: cryptomusSign(body, settings.apiKey),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new PaymentProviderError(`Cryptomus could not be reached: ${(error as Error).message}`);
    }
    const json: unknown = await response.json().catch(() => null);
    const envelope = envelopeSchema.safeParse(json);
    if (response.status !== 200 || !envelope.success || envelope.data.state !== 0) {
      const detail = envelope.success
        ? (envelope.data.message ?? JSON.stringify(envelope.data.errors))
        : 'bad answer';
      throw new PaymentProviderError(
        `Cryptomus ${path} failed (${response.status}): ${detail}`,
        response.status,
      );
    }
    const payment = paymentSchema.safeParse(envelope.data.result);
    if (!payment.success) {
      throw new PaymentProviderError(`Cryptomus ${path} answered an unexpected payment object`);
    }
    return payment.data;
  }

  function snapshot(payment: z.infer<typeof paymentSchema>): InvoiceSnapshot {
    const amountCents = decimalToCents(payment.amount);
    if (amountCents === null) {
      throw new PaymentProviderError(`Cryptomus sent an amount that is not a decimal: ${payment.amount}`);
    }
    return {
      invoiceId: payment.uuid,
      orderId: payment.order_id,
      rawStatus: payment.status,
      outcome: cryptomusOutcome(payment.status),
      currency: payment.currency,
      amountCents,
      paidCents: paidUsdCents(payment),
      payerPaid:
        payment.payer_currency && payment.payment_amount
          ? { currency: payment.payer_currency, amount: payment.payment_amount }
          : null,
      checkoutUrl: payment.url,
      expiresAt: payment.expired_at ? new Date(payment.expired_at * 1000) : null,
    };
  }

  return {
    name: 'cryptomus',
    ...PROVIDER_TRAITS.cryptomus,
    isSandbox: settings.isSandbox,
    // Signed with the payment API key (the sandbox's own key when it stands in).
    readWebhook: (body) => readCryptomusWebhook(typeof body === 'string' ? body : '', settings.apiKey),
    async createInvoice(input: CreateInvoiceInput) {
      const payment = await call('v1/payment', {
        amount: centsToDecimal(input.amountCents),
        currency: 'USD',
        order_id: input.orderId,
        url_callback: input.callbackUrl,
        url_return: input.returnUrl,
        url_success: input.returnUrl,
        lifetime: 3600,
        ...(input.paymentMethod ? { to_currency: input.paymentMethod.toUpperCase() } : {}),
      });
      return snapshot(payment);
    },
    async getInvoice(ref) {
      // order_id wins over uuid at Cryptomus; send ours, which we know is unique.
      return snapshot(await call('v1/payment/info', { order_id: ref.orderId }));
    },
  };
}

/** A Cryptomus webhook: its signature checked over the exact bytes; an unsigned one is still read (and stored). */
export function readCryptomusWebhook(rawBody: string, apiKey: string): WebhookReading {
  const verified = verifyCryptomusWebhook(rawBody, apiKey);
  const claimed = (verified ?? parseJsonObject(rawBody)) as Record<string, unknown>;
  return {
    rawBody,
    isSignatureValid: verified !== null,
    claimedInvoiceId: typeof claimed.uuid === 'string' ? claimed.uuid : null,
    claimedOrderId: typeof claimed.order_id === 'string' ? claimed.order_id : null,
    claimedStatus: typeof claimed.status === 'string' ? claimed.status : null,
  };
}

function parseJsonObject(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}
