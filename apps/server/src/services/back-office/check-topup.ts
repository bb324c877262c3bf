import type { CheckTopupResponse } from '@bytegate/contracts/admin-payments';
import { centsToDollars } from '@bytegate/contracts/money';
import { insertAuditEntry } from '@bytegate/db/queries';
import { PaymentProviderError, PROVIDER_TRAITS, type ProviderName } from '../../payments/provider.ts';
import type { PaymentProviders } from '../../payments/providers.ts';
import { orderNumberLabel } from '../billing/present-order.ts';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { recheckTopup } from '../topups/recheck-topup.ts';
import { requireProvider } from '../topups/require-provider.ts';
import { findOrderForStaff, getPayment } from './list-payments.ts';
import type { StaffActor } from './staff-actor.ts';

/**
 * "Check with provider": asks the provider for the top-up's invoice now and applies its answer as the
 * reconcile job does (a pending top-up paid meanwhile is credited, once). Answers what the provider
 * said and what that did. When it changed the order, the audit entry is written in the settling
 * transaction; a check that changed nothing records nothing.
 */
export async function checkTopup(
  ctx: ServiceContext,
  payments: PaymentProviders,
  props: { orderLabel: string; actor: StaffActor },
): Promise<CheckTopupResponse> {
  const order = await findOrderForStaff(ctx, props.orderLabel);
  const label = orderNumberLabel(order.number);
  if (order.kind !== 'topup' || order.paymentMethod === 'balance') {
    throw new DomainError('CONFLICT', `${label} was paid from the balance: there is no provider to ask`);
  }
  if (!order.providerInvoiceId) {
    throw new DomainError('CONFLICT', `${label} has no invoice at the provider`);
  }
  const name: ProviderName = order.paymentMethod;
  const provider = requireProvider(payments, name);
  const checked = await recheckTopup(
    ctx,
    provider,
    { id: order.id, providerInvoiceId: order.providerInvoiceId },
    {
      onChange: async (tx, { before, result, snapshot }) => {
        await insertAuditEntry(tx, {
          actorUserId: props.actor.userId,
          actorEmail: props.actor.email,
          action: 'topup.check',
          targetType: 'user',
          targetId: before.userId,
          before: { status: before.status, providerStatus: before.providerStatus },
          after: {
            order: label,
            status: result === 'credited' ? 'completed' : result,
            providerStatus: snapshot.rawStatus,
            orderId: before.id,
          },
          reason: null,
        });
      },
    },
  ).catch((error: unknown) => {
    if (error instanceof PaymentProviderError) {
      throw new DomainError(
        'UPSTREAM_UNAVAILABLE',
        `The check with ${PROVIDER_TRAITS[name].displayName} failed: ${error.message}`,
      );
    }
    throw error;
  });
  const { snapshot, result } = checked;
  return {
    provider: {
      status: snapshot.rawStatus,
      outcome: snapshot.outcome,
      amount: centsToDollars(snapshot.amountCents),
      paid: snapshot.paidCents === null ? null : centsToDollars(snapshot.paidCents),
      payerPaid: snapshot.payerPaid ?? null,
    },
    result,
    payment: (await getPayment(ctx, { orderLabel: label })).payment,
  };
}
