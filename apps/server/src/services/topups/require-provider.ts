import { topupMessages } from '@bytegate/contracts/topup';
import { AppError } from '../../http/app-error.ts';
import type { PaymentProviders, ProviderName } from '../../payments/providers.ts';

const labels: Record<ProviderName, string> = { cryptomus: 'Cryptomus', bitcart: 'Bitcart' };

/**
 * The provider a top-up route serves, or the coded refusal when this server does not run it: no
 * credentials, and no sandbox may stand in for it beside a real provider (README, "Payments in
 * production"). Nothing is stored for a refused call.
 */
export function requireProvider<Name extends ProviderName>(
  payments: PaymentProviders,
  name: Name,
): NonNullable<PaymentProviders[Name]> {
  const provider = payments[name];
  if (!provider) {
    throw new AppError('PAYMENT_PROVIDER_UNAVAILABLE', topupMessages.providerUnavailable(labels[name]));
  }
  return provider as NonNullable<PaymentProviders[Name]>;
}
