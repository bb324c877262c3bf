import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { bitcartModalScript } from './bitcart-modal-script.ts';
import { renderCheckoutPage } from './checkout-page.ts';
import { BoundedStore, isOwnOriginUrl, SANDBOX_MAX_BYTES, SANDBOX_MAX_INVOICES } from './sandbox-limits.ts';

export const BITCART_SANDBOX_TOKEN = 'sandbox-token';
export const BITCART_SANDBOX_STORE = 'sandbox-store';

interface SandboxInvoice {
  id: string;
  store_id: string;
  order_id: string;
  price: string;
  currency: string;
  status: string;
  exception_status: string;
  sent_amount: number;
  payment_id: string;
  notification_url: string;
  redirect_url: string;
  created: string;
  /** Minutes the invoice stays payable. */
  expiration: number;
}

export interface BitcartSandboxOptions {
  publicBaseUrl: () => string;
  /** Invoices kept in memory; the oldest are dropped beyond this. */
  maxInvoices?: number;
  /** Bytes of invoices kept in memory (their JSON size); the oldest are dropped beyond this too. */
  maxBytes?: number;
  /** The clock invoices expire by (tests move it). */
  now?: () => number;
}

/** The store's checkout expiration when the invoice sets none (Bitcart's default), in minutes. */
const DEFAULT_EXPIRATION_MIN = 15;

const PAYMENT_ID = 'sandbox-usdt';
const RATE = 1; // 1 USDT = 1 USD in the sandbox

const outcomes: Record<string, { label: string; apply: (invoice: SandboxInvoice) => void }> = {
  pay: {
    label: 'Pay',
    apply: (invoice) => {
      invoice.status = 'complete';
      invoice.sent_amount = Number(invoice.price) / RATE;
    },
  },
  overpay: {
    label: 'Pay 10% more',
    apply: (invoice) => {
      invoice.status = 'complete';
      invoice.exception_status = 'paid_over';
      invoice.sent_amount = (Number(invoice.price) * 1.1) / RATE;
    },
  },
  underpay: {
    label: 'Pay half, then let it expire',
    apply: (invoice) => {
      invoice.status = 'expired';
      invoice.exception_status = 'paid_partial';
      invoice.sent_amount = Number(invoice.price) / 2 / RATE;
    },
  },
  fail: {
    label: 'Fail the payment',
    apply: (invoice) => {
      invoice.status = 'invalid';
      invoice.exception_status = 'failed_confirm';
    },
  },
  expire: {
    label: 'Let it expire',
    apply: (invoice) => {
      invoice.status = 'expired';
    },
  },
};

const FINAL = new Set(['complete', 'expired', 'invalid', 'refunded']);

/**
 * A stand-in for a Bitcart server that speaks its Merchants API: `POST /api/invoices/order_id/{order_id}`
 * (bearer token), public `GET /api/invoices/{id}` answering a DisplayInvoice, the admin's checkout page
 * `/admin/i/{id}` and modal script `/admin/modal/bitcart.js`, and unsigned IPNs `{id, status}` to the
 * invoice's notification_url on every status change. Mounted under /sandbox/bitcart. State is in memory.
 */
export function bitcartSandbox(options: BitcartSandboxOptions): FastifyPluginAsync {
  const bounds = {
    maxCount: options.maxInvoices ?? SANDBOX_MAX_INVOICES,
    maxBytes: options.maxBytes ?? SANDBOX_MAX_BYTES,
  };
  const now = options.now ?? Date.now;
  return async (app: FastifyInstance) => {
    /** Our latest invoice per order id, for the idempotent create. */
    const byOrderId = new Map<string, string>();
    const invoices = new BoundedStore<SandboxInvoice>(bounds, (dropped) => {
      if (byOrderId.get(dropped.order_id) === dropped.id) {
        byOrderId.delete(dropped.order_id);
      }
    });

    /** An invoice by id; one still pending past its expiration has expired, as Bitcart's worker does. */
    function find(id: string | undefined): SandboxInvoice | undefined {
      const invoice = id === undefined ? undefined : invoices.get(id);
      if (invoice?.status === 'pending' && now() >= expiresAtMs(invoice)) {
        invoice.status = 'expired';
      }
      return invoice;
    }
    const adminBase = () => `${options.publicBaseUrl()}/sandbox/bitcart/admin`;
    // The checkout page's buttons are plain HTML forms.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    );

    function present(invoice: SandboxInvoice) {
      return {
        ...invoice,
        user_id: 'sandbox-user',
        paid_currency: invoice.sent_amount > 0 ? 'USDT' : null,
        paid_date: invoice.sent_amount > 0 ? new Date().toISOString() : null,
        tx_hashes: invoice.sent_amount > 0 ? [`sandbox-${invoice.id}`] : [],
        expiration_seconds: invoice.expiration * 60,
        time_left: Math.max(0, Math.round((expiresAtMs(invoice) - now()) / 1000)),
        payment_methods: [PAYMENT_ID],
        metadata: {},
        payments: [
          {
            id: PAYMENT_ID,
            currency: 'usdt',
            symbol: 'USDT',
            amount: (Number(invoice.price) / RATE).toFixed(6),
            rate: String(RATE),
            payment_address: 'TSandboxAddress000000000000000000',
            payment_url: `tron:TSandboxAddress000000000000000000?amount=${invoice.price}`,
            confirmations: invoice.status === 'complete' ? 1 : 0,
            lightning: false,
            is_used: invoice.sent_amount > 0,
            name: 'USDT (TRC20)',
          },
        ],
      };
    }

    app.post<{ Params: { orderId: string }; Body: Record<string, unknown> }>(
      '/api/invoices/order_id/:orderId',
      async (request, reply) => {
        if (request.headers.authorization !== `Bearer ${BITCART_SANDBOX_TOKEN}`) {
          return reply.status(401).send({ detail: 'Could not validate credentials' });
        }
        const body = request.body ?? {};
        const price = typeof body.price === 'string' ? body.price : String(body.price ?? '');
        if (body.store_id !== BITCART_SANDBOX_STORE || !/^\d+(\.\d{1,8})?$/.test(price)) {
          return reply
            .status(422)
            .send({ detail: [{ loc: ['body', 'price'], msg: 'invalid price or store' }] });
        }
        // Where the buyer is sent and where IPNs go: our own origin only (see isOwnOriginUrl).
        const badUrls = ['notification_url', 'redirect_url'].filter(
          (field) => !isOwnOriginUrl(body[field], options.publicBaseUrl()),
        );
        if (badUrls.length > 0) {
          return reply.status(422).send({
            detail: badUrls.map((field) => ({
              loc: ['body', field],
              msg: 'must be an http(s) URL on the store origin',
              type: 'value_error',
            })),
          });
        }
        const expiration = body.expiration === undefined ? DEFAULT_EXPIRATION_MIN : body.expiration;
        if (typeof expiration !== 'number' || !Number.isInteger(expiration) || expiration < 1) {
          return reply.status(422).send({
            detail: [
              {
                loc: ['body', 'expiration'],
                msg: 'must be a positive whole number of minutes',
                type: 'value_error',
              },
            ],
          });
        }
        // Bitcart answers the existing invoice for the same order, price and store unless it expired.
        const existing = find(byOrderId.get(request.params.orderId));
        if (existing && existing.price === Number(price).toFixed(2) && existing.status !== 'expired') {
          return present(existing);
        }
        const invoice: SandboxInvoice = {
          id: randomBytes(16).toString('base64url').slice(0, 22),
          store_id: BITCART_SANDBOX_STORE,
          order_id: request.params.orderId,
          price: Number(price).toFixed(2),
          currency: typeof body.currency === 'string' ? body.currency.toUpperCase() : 'USD',
          status: 'pending',
          exception_status: 'none',
          sent_amount: 0,
          payment_id: PAYMENT_ID,
          notification_url: typeof body.notification_url === 'string' ? body.notification_url : '',
          redirect_url: typeof body.redirect_url === 'string' ? body.redirect_url : '',
          created: new Date(now()).toISOString(),
          expiration,
        };
        invoices.set(invoice.id, invoice);
        byOrderId.set(invoice.order_id, invoice.id);
        return present(invoice);
      },
    );

    app.get<{ Params: { id: string } }>('/api/invoices/:id', async (request, reply) => {
      const invoice = find(request.params.id);
      if (!invoice) {
        return reply.status(404).send({ detail: 'Object not found' });
      }
      return present(invoice);
    });

    app.get('/admin/modal/bitcart.js', async (_request, reply) =>
      reply.type('application/javascript; charset=utf-8').send(bitcartModalScript),
    );

    app.get<{ Params: { id: string } }>('/admin/i/:id', async (request, reply) => {
      const invoice = find(request.params.id);
      if (!invoice) {
        return reply.status(404).type('text/plain').send('No such sandbox invoice');
      }
      const base = `${adminBase()}/i/${invoice.id}`;
      return reply.type('text/html; charset=utf-8').send(
        renderCheckoutPage({
          provider: 'Bitcart',
          invoiceId: invoice.id,
          amount: invoice.price,
          status: invoice.status,
          isFinal: FINAL.has(invoice.status),
          returnUrl: invoice.redirect_url || null,
          actions: Object.entries(outcomes).map(([key, outcome]) => ({
            label: key === 'pay' ? `Pay $${invoice.price}` : outcome.label,
            url: `${base}/${key}`,
            tone: key === 'pay' ? 'primary' : key === 'fail' || key === 'expire' ? 'danger' : 'neutral',
          })),
        }),
      );
    });

    app.post<{ Params: { id: string; outcome: string } }>('/admin/i/:id/:outcome', async (request, reply) => {
      const invoice = find(request.params.id);
      const outcome = Object.hasOwn(outcomes, request.params.outcome)
        ? outcomes[request.params.outcome]
        : undefined;
      if (!invoice || !outcome) {
        return reply.status(404).type('text/plain').send('No such sandbox invoice or outcome');
      }
      if (!FINAL.has(invoice.status)) {
        outcome.apply(invoice);
        await sendIpn(invoice);
      }
      return reply.redirect(`${adminBase()}/i/${invoice.id}`, 303);
    });

    /** Bitcart's IPN: an unsigned `{id, status}`, sent once, never retried. */
    async function sendIpn(invoice: SandboxInvoice): Promise<void> {
      if (!invoice.notification_url) {
        return;
      }
      try {
        await fetch(invoice.notification_url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: invoice.id, status: invoice.status }),
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        app.log.warn({ err: error }, 'sandbox IPN could not be delivered');
      }
    }
  };
}

function expiresAtMs(invoice: SandboxInvoice): number {
  return Date.parse(invoice.created) + invoice.expiration * 60_000;
}
