import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { cryptomusSign, phpJson } from '../cryptomus/sign.ts';
import { renderCheckoutPage } from './checkout-page.ts';

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
  payment_amount: string | null;
  created_at: string;
  updated_at: string;
}

/** How each checkout button ends the invoice, and what it says was paid. */
const outcomes: Record<string, { status: string; paid: (amount: number) => number | null; label: string }> = {
  pay: { status: 'paid', paid: (amount) => amount, label: 'Pay' },
  overpay: { status: 'paid_over', paid: (amount) => amount * 1.1, label: 'Pay 10% more' },
  underpay: { status: 'wrong_amount', paid: (amount) => amount / 2, label: 'Pay half and stop' },
  fail: { status: 'fail', paid: () => null, label: 'Fail the payment' },
  expire: { status: 'cancel', paid: () => null, label: 'Let it expire' },
};

/**
 * A stand-in for Cryptomus that speaks its wire protocol: signed POST /v1/payment and /v1/payment/info
 * with the `{state, result}` envelope, a checkout page, and signed webhooks to `url_callback`.
 * Mounted under /sandbox/cryptomus when no Cryptomus credentials are configured. State is in memory.
 */
export function cryptomusSandbox(options: { publicBaseUrl: () => string }): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const payments = new Map<string, SandboxPayment>();
    const byOrderId = new Map<string, string>();

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
        payer_amount: payment.payment_amount,
        discount_percent: null,
        discount: '0.00000000',
        payer_currency: payment.payment_amount ? 'USDT' : null,
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
      const body = JSON.parse(raw) as Record<string, unknown>;
      const orderId = typeof body.order_id === 'string' ? body.order_id : '';
      const amount = typeof body.amount === 'string' ? body.amount : '';
      if (!/^[A-Za-z0-9_-]{1,128}$/.test(orderId) || !/^\d+(\.\d{1,8})?$/.test(amount)) {
        return reply.status(422).send({
          state: 1,
          errors: { order_id: ['validation.alpha_dash'], amount: ['validation.numeric'] },
        });
      }
      const existing = byOrderId.get(orderId);
      if (existing) {
        const payment = payments.get(existing);
        return { state: 0, result: payment ? present(payment) : null };
      }
      const uuid = randomUUID();
      const now = new Date().toISOString();
      const lifetimeS = typeof body.lifetime === 'number' ? body.lifetime : 3600;
      const payment: SandboxPayment = {
        uuid,
        order_id: orderId,
        amount,
        currency: typeof body.currency === 'string' ? body.currency : 'USD',
        status: 'check',
        is_final: false,
        url: `${options.publicBaseUrl()}/sandbox/cryptomus/pay/${uuid}`,
        url_callback: typeof body.url_callback === 'string' ? body.url_callback : null,
        url_return: typeof body.url_return === 'string' ? body.url_return : null,
        expired_at: Math.floor(Date.now() / 1000) + lifetimeS,
        payment_amount: null,
        created_at: now,
        updated_at: now,
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
      const body = JSON.parse(raw) as Record<string, unknown>;
      const uuid =
        typeof body.order_id === 'string' ? byOrderId.get(body.order_id) : (body.uuid as string | undefined);
      const payment = uuid ? payments.get(uuid) : undefined;
      if (!payment) {
        return reply.status(404).send({ state: 1, message: 'Payment not found' });
      }
      return { state: 0, result: present(payment) };
    });

    app.get<{ Params: { uuid: string } }>('/pay/:uuid', async (request, reply) => {
      const payment = payments.get(request.params.uuid);
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
      const payment = payments.get(request.params.uuid);
      const outcome = outcomes[request.params.outcome];
      if (!payment || !outcome) {
        return reply.status(404).type('text/plain').send('No such sandbox invoice or outcome');
      }
      if (!payment.is_final) {
        const paid = outcome.paid(Number(payment.amount));
        payment.status = outcome.status;
        payment.is_final = true;
        payment.payment_amount = paid === null ? null : paid.toFixed(2);
        payment.updated_at = new Date().toISOString();
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
        payment_amount_usd: payment.payment_amount ?? '0.00',
        merchant_amount: payment.payment_amount,
        commission: '0.00000000',
        is_final: payment.is_final,
        status: payment.status,
        from: null,
        wallet_address_uuid: null,
        network: 'tron',
        currency: payment.currency,
        payer_currency: 'USDT',
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
