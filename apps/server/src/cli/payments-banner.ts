import { PROVIDER_TRAITS } from '../payments/provider.ts';
import type { ProviderMode, ProviderName } from '../payments/providers.ts';

/** The start-up banner's payments line: says loudly when payments are simulated (a sandbox is mounted). */
export function paymentsBannerLine(modes: Record<ProviderName, ProviderMode>): string {
  const names = Object.keys(modes) as ProviderName[];
  const list = (mode: ProviderMode) =>
    names
      .filter((name) => modes[name] === mode)
      .map((name) => PROVIDER_TRAITS[name].displayName)
      .join(' and ');
  const parts = [
    list('live') && `${list('live')} live`,
    list('sandbox') && `TEST MODE: payments are simulated (${list('sandbox')} sandbox)`,
    list('unavailable') && `${list('unavailable')} unavailable (no credentials)`,
  ].filter(Boolean);
  return `Payments: ${parts.join('; ')}`;
}
