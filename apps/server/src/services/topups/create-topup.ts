import { topupMessages } from '@bytegate/contracts/topup';
import { createOrder, updateOrder } from '@bytegate/db/queries';
import type { PaymentProvider } from '../../payments/provider.ts';
import { requireVerifiedEmail } from '../account-links/require-verified-email.ts';
import { recordActivity } from '../activity/record-activity.ts';
import { orderNumberLabel } from '../billing/present-order.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';

export interface CreateTopupProps {
  userId: string;
  amountCents: number;
  paymentMethod?: string | undefined;
  /** The API key's name, for a top-up opened through the public API (the activity feed names it). */
  apiKeyName?: string | undefined;
}

export interface CreatedTopup {
  orderId: string;
  checkoutUrl: string;
  invoiceId: string;
  rawStatus: string;
}

/**
 * Opens a top-up (once the account's email is verified, where that is required): a pending order, then an invoice at the provider for exactly that order. A provider
 * failure marks the order failed and answers the spec's message; nothing is credited until the
 * provider itself confirms payment (see settle-topup).
 */
export async function createTopup(
  ctx: ServiceContext,
  provider: PaymentProvider,
  props: CreateTopupProps,
): Promise<CreatedTopup> {
  await requireVerifiedEmail(ctx, { userId: props.userId });
  const order = await createOrder(ctx.db, {
    userId: props.userId,
    kind: 'topup',
    description: `Balance top-up via ${provider.name === 'cryptomus' ? 'Cryptomus' : 'Bitcart'}${provider.isSandbox ? ' (sandbox)' : ''}`,
    amountCents: props.amountCents,
    paymentMethod: provider.name,
    status: 'pending',
    details: { paymentMethod: props.paymentMethod ?? null, sandbox: provider.isSandbox },
  });
  try {
    const invoice = await provider.createInvoice({
      orderId: order.id,
      amountCents: props.amountCents,
      callbackUrl: `${ctx.config.publicUrl}/api/topup/${provider.name}/webhook`,
      returnUrl: `${ctx.config.publicUrl}/dashboard?section=topup`,
      paymentMethod: props.paymentMethod,
    });
    if (invoice.orderId !== order.id || invoice.amountCents !== props.amountCents) {
      throw new Error(`${provider.name} answered an invoice for another order or amount`);
    }
    await updateOrder(ctx.db, {
      orderId: order.id,
      set: {
        providerInvoiceId: invoice.invoiceId,
        checkoutUrl: invoice.checkoutUrl,
        providerStatus: invoice.rawStatus,
        expiresAt: invoice.expiresAt,
      },
    });
    await recordActivity(ctx.db, {
      userId: props.userId,
      kind: 'topup_created',
      details: {
        orderId: orderNumberLabel(order.number),
        amountCents: props.amountCents,
        provider: provider.name,
        isSandbox: provider.isSandbox,
        via: props.apiKeyName === undefined ? 'dashboard' : 'api',
        apiKeyName: props.apiKeyName,
      },
    });
    return {
      orderId: orderNumberLabel(order.number),
      checkoutUrl: invoice.checkoutUrl,
      invoiceId: invoice.invoiceId,
      rawStatus: invoice.rawStatus,
    };
  } catch (error) {
    await updateOrder(ctx.db, {
      orderId: order.id,
      set: { status: 'failed', details: { error: String(error) } },
    });
    await recordActivity(ctx.db, {
      userId: props.userId,
      kind: 'topup_failed',
      details: {
        orderId: orderNumberLabel(order.number),
        amountCents: props.amountCents,
        provider: provider.name,
        outcome: 'unopened',
      },
    });
    throw new DomainError('UPSTREAM_UNAVAILABLE', topupMessages.failed);
  }
}
