import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { cryptomusSign, phpJson } from '../cryptomus/sign.ts';
import { renderCheckoutPage } from './checkout-page.ts';
import { BoundedStore, isOwnOriginUrl, SANDBOX_MAX_BYTES, SANDBOX_MAX_INVOICES } from './sandbox-limits.ts';

export const CRYPTOMUS_SANDBOX_MERCHANT = 'sandbox-merchant';
export const CRYPTOMUS_SANDBOX_KEY = 'sandbox-payment-key';

interface SandboxPayment {
  uuid: string;
  order_id: string;
  amount: string;
  currency: string;
  status: string;
  is_final: boolean;
  url: string;
  url_callback: string | null;
  url_return: string | null;
  expired_at: number;
  /** What arrived, in the payer's coin (`payer_currency`), as Cryptomus reports it. */
  payment_amount: string | null;
  /** What arrived in USD; null where Cryptomus gives no USD figure. */
  payment_amount_usd: string | null;
  payer_currency: string | null;
  /** What the payer was asked for, in their coin. */
  payer_amount: string | null;
  created_at: string;
  updated_at: string;
}

/** The sandbox's price of one BTC in USD, for payments made in a coin that is not a dollar. */
const BTC_USD = 60_000;

interface Paid {
  payer_currency: string;
  payer_amount: string;
  payment_amount: string;
  payment_amount_usd: string | null;
}

/** A payment of `share` of the invoice in USDT (1 USDT = 1 USD here): Cryptomus reports the USD figure. */
const inUsdt =
  (share: number) =>
  (amount: number): Paid => ({
    payer_currency: 'USDT',
    payer_amount: amount.toFixed(8),
    payment_amount: (amount * share).toFixed(8),
    payment_amount_usd: (amount * share).toFixed(2),
  });

/** Half the invoice in BTC with no USD figure, as Cryptomus may report a partial payment in a coin. */
const halfInBtcWithoutUsd = (amount: number): Paid => ({
  payer_currency: 'BTC',
  payer_amount: (amount / BTC_USD).toFixed(8),
  payment_amount: (amount / BTC_USD / 2).toFixed(8),
  payment_amount_usd: null,
});

/** How each checkout button ends the invoice, and what it says was paid. */
const outcomes: Record<string, { status: string; paid: ((amount: number) => Paid) | null; label: string }> = {
  pay: { status: 'paid', paid: inUsdt(1), label: 'Pay' },
  overpay: { status: 'paid_over', paid: inUsdt(1.1), label: 'Pay 10% more' },
  underpay: { status: 'wrong_amount', paid: inUsdt(0.5), label: 'Pay half and stop' },
  'underpay-coin': {
    status: 'wrong_amount',
    paid: halfInBtcWithoutUsd,
    label: 'Pay half in BTC and stop (no USD amount reported)',
  },
  fail: { status: 'fail', paid: null, label: 'Fail the payment' },
  expire: { status: 'cancel', paid: null, label: 'Let it expire' },
};

/** Cryptomus' `lifetime` bounds, in seconds (doc "Creating an invoice"). */
const LIFETIME_S = { min: 300, max: 43_200, default: 3600 };

export interface CryptomusSandboxOptions {
  publicBaseUrl: () => string;
  /** Invoices kept in memory; the oldest are dropped beyond this. */
  maxInvoices?: number;
  /** Bytes of invoices kept in memory (their JSON size); the oldest are dropped beyond this too. */
  maxBytes?: number;
  /** The clock invoices expire by (tests move it). */
  now?: () => number;
}

/**
 * A stand-in for Cryptomus that speaks its wire protocol: signed POST /v1/payment and /v1/payment/info
 * with the `{state, result}` envelope, a checkout page, and signed webhooks to `url_callback`.
 * Mounted under /sandbox/cryptomus when no Cryptomus credentials are configured. State is in memory.
 */
export function cryptomusSandbox(options: CryptomusSandboxOptions): FastifyPluginAsync {
  const bounds = {
    maxCount: options.maxInvoices ?? SANDBOX_MAX_INVOICES,
    maxBytes: options.maxBytes ?? SANDBOX_MAX_BYTES,
  };
  const now = options.now ?? Date.now;
  return async (app: FastifyInstance) => {
    const byOrderId = new Map<string, string>();
    const payments = new BoundedStore<SandboxPayment>(bounds, (dropped) =>
      byOrderId.delete(dropped.order_id),
    );

    /** A payment by uuid or order id; one whose lifetime ran out unpaid is cancelled, as Cryptomus does. */
    function find(ref: {
      uuid?: string | undefined;
      orderId?: string | undefined;
    }): SandboxPayment | undefined {
      const uuid = ref.orderId === undefined ? ref.uuid : byOrderId.get(ref.orderId);
      const payment = uuid ? payments.get(uuid) : undefined;
      if (payment && !payment.is_final && now() >= payment.expired_at * 1000) {
        payment.status = 'cancel';
        payment.is_final = true;
        payment.updated_at = new Date(now()).toISOString();
      }
      return payment;
    }

    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    // The checkout page's buttons are plain HTML forms.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    );

    function authenticate(raw: string, headers: Record<string, unknown>): boolean {
      return (
        headers.merchant === CRYPTOMUS_SANDBOX_MERCHANT &&
        headers.sign === cryptomusSign(raw, CRYPTOMUS_SANDBOX_KEY)
      );
    }

    function present(payment: SandboxPayment) {
      return {
        uuid: payment.uuid,
        order_id: payment.order_id,
        amount: payment.amount,
        payment_amount: payment.payment_amount,
        payment_amount_usd: payment.payment_amount_usd,
        payer_amount: payment.payer_amount,
        payer_amount_exchange_rate: null,
        discount_percent: null,
        discount: '0.00000000',
        payer_currency: payment.payer_currency,
        currency: payment.currency,
        merchant_amount: null,
        network: null,
        address: null,
        from: null,
        txid: null,
        payment_status: payment.status,
        url: payment.url,
        expired_at: payment.expired_at,
        status: payment.status,
        is_final: payment.is_final,
        additional_data: null,
        created_at: payment.created_at,
        updated_at: payment.updated_at,
      };
    }

    app.post('/v1/payment', async (request, reply) => {
      const raw = String(request.body ?? '');
      if (!authenticate(raw, request.headers)) {
        return reply.status(401).send({ state: 1, message: 'You are forbidden' });
      }
      const body = parseObject(raw);
      const orderId = typeof body.order_id === 'string' ? body.order_id : '';
      const amount = typeof body.amount === 'string' ? body.amount : '';
      if (!/^[A-Za-z0-9_-]{1,128}$/.test(orderId) || !/^\d+(\.\d{1,8})?$/.test(amount)) {
        return reply.status(422).send({
          state: 1,
          errors: { order_id: ['validation.alpha_dash'], amount: ['validation.numeric'] },
        });
      }
      // Return and callback URLs: ours only (see isOwnOriginUrl); Laravel's validation error shape.
      const badUrls = ['url_return', 'url_success', 'url_callback'].filter(
        (field) => !isOwnOriginUrl(body[field], options.publicBaseUrl()),
      );
      if (badUrls.length > 0) {
        return reply.status(422).send({
          state: 1,
          errors: Object.fromEntries(badUrls.map((field) => [field, ['validation.url']])),
        });
      }
      const lifetimeS = body.lifetime === undefined ? LIFETIME_S.default : body.lifetime;
      if (
        typeof lifetimeS !== 'number' ||
        !Number.isInteger(lifetimeS) ||
        lifetimeS < LIFETIME_S.min ||
        lifetimeS > LIFETIME_S.max
      ) {
        return reply.status(422).send({ state: 1, errors: { lifetime: ['validation.between.numeric'] } });
      }
      const existing = find({ orderId });
      if (existing) {
        return { state: 0, result: present(existing) };
      }
      const uuid = randomUUID();
      const createdAt = new Date(now()).toISOString();
      const payment: SandboxPayment = {
        uuid,
        order_id: orderId,
        amount,
        currency: typeof body.currency === 'string' ? body.currency : 'USD',
        status: 'check',
        is_final: false,
        url: `${options.publicBaseUrl()}/sandbox/cryptomus/pay/${uuid}`,
        url_callback: typeof body.url_callback === 'string' && body.url_callback ? body.url_callback : null,
        url_return: typeof body.url_return === 'string' && body.url_return ? body.url_return : null,
        expired_at: Math.floor(now() / 1000) + lifetimeS,
        payment_amount: null,
        payment_amount_usd: null,
        payer_currency: null,
        payer_amount: null,
        created_at: createdAt,
        updated_at: createdAt,
      };
      payments.set(uuid, payment);
      byOrderId.set(orderId, uuid);
      return { state: 0, result: present(payment) };
    });

    app.post('/v1/payment/info', async (request, reply) => {
      const raw = String(request.body ?? '');
      if (!authenticate(raw, request.headers)) {
        return reply.status(401).send({ state: 1, message: 'You are forbidden' });
      }
      const body = parseObject(raw);
      // order_id wins over uuid, as at Cryptomus.
      const payment =
        typeof body.order_id === 'string'
          ? find({ orderId: body.order_id })
          : find({ uuid: typeof body.uuid === 'string' ? body.uuid : undefined });
      if (!payment) {
        return reply.status(404).send({ state: 1, message: 'Payment not found' });
      }
      return { state: 0, result: present(payment) };
    });

    app.get<{ Params: { uuid: string } }>('/pay/:uuid', async (request, reply) => {
      const payment = find({ uuid: request.params.uuid });
      if (!payment) {
        return reply.status(404).type('text/plain').send('No such sandbox invoice');
      }
      const base = `${options.publicBaseUrl()}/sandbox/cryptomus/pay/${payment.uuid}`;
      return reply.type('text/html; charset=utf-8').send(
        renderCheckoutPage({
          provider: 'Cryptomus',
          invoiceId: payment.uuid,
          amount: payment.amount,
          status: payment.status,
          isFinal: payment.is_final,
          returnUrl: payment.url_return,
          actions: Object.entries(outcomes).map(([key, outcome]) => ({
            label: key === 'pay' ? `Pay $${payment.amount}` : outcome.label,
            url: `${base}/${key}`,
            tone: key === 'pay' ? 'primary' : key === 'fail' || key === 'expire' ? 'danger' : 'neutral',
          })),
        }),
      );
    });

    app.post<{ Params: { uuid: string; outcome: string } }>('/pay/:uuid/:outcome', async (request, reply) => {
      const payment = find({ uuid: request.params.uuid });
      const outcome = Object.hasOwn(outcomes, request.params.outcome)
        ? outcomes[request.params.outcome]
        : undefined;
      if (!payment || !outcome) {
        return reply.status(404).type('text/plain').send('No such sandbox invoice or outcome');
      }
      if (!payment.is_final) {
        Object.assign(payment, outcome.paid?.(Number(payment.amount)) ?? {});
        payment.status = outcome.status;
        payment.is_final = true;
        payment.updated_at = new Date(now()).toISOString();
        await sendWebhook(payment);
      }
      return reply.redirect(`${options.publicBaseUrl()}/sandbox/cryptomus/pay/${payment.uuid}`, 303);
    });

    /** A webhook as Cryptomus sends it: the payment fields plus `sign` in the body. */
    async function sendWebhook(payment: SandboxPayment): Promise<void> {
      if (!payment.url_callback) {
        return;
      }
      const payload = {
        type: 'payment',
        uuid: payment.uuid,
        order_id: payment.order_id,
        amount: payment.amount,
        payment_amount: payment.payment_amount ?? '0.00000000',
        // Cryptomus sends "0.00" where it has no USD figure.
        payment_amount_usd: payment.payment_amount_usd ?? '0.00',
        merchant_amount: payment.payment_amount,
        commission: '0.00000000',
        is_final: payment.is_final,
        status: payment.status,
        from: null,
        wallet_address_uuid: null,
        network: 'tron',
        currency: payment.currency,
        payer_currency: payment.payer_currency,
        payer_amount: payment.payer_amount,
        additional_data: null,
        txid: payment.payment_amount ? `sandbox-${payment.uuid}` : null,
      };
      const sign = cryptomusSign(phpJson(payload), CRYPTOMUS_SANDBOX_KEY);
      try {
        await fetch(payment.url_callback, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...payload, sign }),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        app.log.warn({ err: error }, 'sandbox webhook could not be delivered');
      }
    }
  };
}

/** A signed body as an object; anything else reads as an empty one, which then fails validation. */
function parseObject(raw: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
