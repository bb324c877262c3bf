import { topupMessages } from '@bytegate/contracts/topup';
import { PROVIDER_TRAITS } from '../../payments/provider.ts';
import type { PaymentProviders, ProviderByName, ProviderName } from '../../payments/providers.ts';
import { DomainError } from '../domain-error.ts';

/**
 * The provider a top-up route serves, or the coded refusal when this server does not run it: no
 * credentials, and no sandbox may stand in for it beside a real provider (docs/money.md, "Payments in
 * production"). Nothing is stored for a refused call.
 */
export function requireProvider<Name extends ProviderName>(
  payments: PaymentProviders,
  name: Name,
): ProviderByName[Name] {
  const provider = payments.get(name);
  if (!provider) {
    throw new DomainError(
      'PAYMENT_PROVIDER_UNAVAILABLE',
      topupMessages.providerUnavailable(PROVIDER_TRAITS[name].displayName),
    );
  }
  return provider;
}
