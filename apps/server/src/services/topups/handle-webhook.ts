import { hasControlCharacters } from '@bytegate/contracts/text';
import {
  getOrderById,
  getOrderByProviderInvoice,
  insertPaymentEvent,
  setPaymentEventOutcome,
} from '@bytegate/db/queries';
import type { PaymentProvider, WebhookReading } from '../../payments/provider.ts';
import type { ServiceContext } from '../context.ts';
import { readInvoice } from './recheck-topup.ts';
import { settleTopup } from './settle-topup.ts';

/** A webhook as its provider read it, with where it came from. */
export interface InboundWebhook extends WebhookReading {
  headers: Record<string, unknown>;
  sourceIp: string | null;
}

/**
 * A webhook is a hint, never the truth: store it raw, refuse a bad signature, then re-read the invoice
 * from the provider and settle on that answer only. Answers the outcome recorded with the event.
 */
export async function handleWebhook(
  ctx: ServiceContext,
  provider: PaymentProvider,
  inbound: InboundWebhook,
): Promise<string> {
  const webhook = withStorableText(inbound);
  const event = await insertPaymentEvent(ctx.db, {
    provider: provider.name,
    sourceIp: webhook.sourceIp,
    headers: webhook.headers,
    rawBody: webhook.rawBody,
    isSignatureValid: webhook.isSignatureValid,
    providerInvoiceId: webhook.claimedInvoiceId,
    claimedStatus: webhook.claimedStatus,
  });
  const outcome = await settleFromWebhook(ctx, provider, webhook);
  await setPaymentEventOutcome(ctx.db, { eventId: event.id, outcome });
  return outcome;
}

async function settleFromWebhook(ctx: ServiceContext, provider: PaymentProvider, webhook: InboundWebhook) {
  if (webhook.isSignatureValid === false) {
    return 'rejected: bad signature';
  }
  const order =
    (webhook.claimedInvoiceId
      ? await getOrderByProviderInvoice(ctx.db, {
          paymentMethod: provider.name,
          providerInvoiceId: webhook.claimedInvoiceId,
        })
      : null) ??
    (webhook.claimedOrderId ? await getOrderById(ctx.db, { orderId: webhook.claimedOrderId }) : null);
  if (!order || order.paymentMethod !== provider.name || !order.providerInvoiceId) {
    return 'ignored: unknown invoice';
  }
  try {
    const snapshot = await readInvoice(ctx, provider, {
      id: order.id,
      providerInvoiceId: order.providerInvoiceId,
    });
    return await settleTopup(ctx, order.id, snapshot);
  } catch (error) {
    return `error: ${(error as Error).message}`.slice(0, 500);
  }
}

/** A claim with control characters names no real invoice or status: dropped rather than stored. */
function claim(value: string | null): string | null {
  return value !== null && hasControlCharacters(value) ? null : value;
}

/**
 * PostgreSQL text refuses NUL, so a webhook carrying one (raw, or in a claimed field) would fail to be
 * stored and answer 500: its claims are dropped and a raw NUL is kept as the escape `\u0000`.
 */
function withStorableText(webhook: InboundWebhook): InboundWebhook {
  return {
    ...webhook,
    rawBody: webhook.rawBody.replaceAll('\u0000', '\\u0000'),
    claimedInvoiceId: claim(webhook.claimedInvoiceId),
    claimedOrderId: claim(webhook.claimedOrderId),
    claimedStatus: claim(webhook.claimedStatus),
  };
}
