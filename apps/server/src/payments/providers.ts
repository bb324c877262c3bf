import type { Config } from '../config.ts';
import { createBitcartProvider } from './bitcart/bitcart-provider.ts';
import { createCryptomusProvider } from './cryptomus/cryptomus-provider.ts';
import type { PaymentProvider } from './provider.ts';
import { BITCART_SANDBOX_STORE, BITCART_SANDBOX_TOKEN } from './sandbox/bitcart-sandbox.ts';
import { CRYPTOMUS_SANDBOX_KEY, CRYPTOMUS_SANDBOX_MERCHANT } from './sandbox/cryptomus-sandbox.ts';

export type ProviderName = 'cryptomus' | 'bitcart';

/** How a provider runs: its real API, the built-in sandbox, or not at all (its button is disabled). */
export type ProviderMode = 'live' | 'sandbox' | 'unavailable';

export interface PaymentProviders {
  /** Null when unavailable: no credentials, and no sandbox may stand in for it. */
  cryptomus: PaymentProvider | null;
  bitcart: ReturnType<typeof createBitcartProvider> | null;
  modes: Record<ProviderName, ProviderMode>;
  /** Key that verifies Cryptomus webhooks (the payment API key, or the sandbox's); null when unavailable. */
  cryptomusWebhookKey: string | null;
  /** True when at least one provider runs its built-in sandbox (the UI shows a test-mode banner). */
  hasSandbox: boolean;
}

/**
 * Which providers run and how. A provider with credentials is live. One without them gets its sandbox
 * only when PAYMENTS_SANDBOX allows: `on` always, `auto` only when no provider at all is configured
 * (a fresh clone), `off` never. A sandbox beside a real provider would let anyone top up for free.
 */
export function providerModes(config: Config): Record<ProviderName, ProviderMode> {
  const hasAnyLive = config.cryptomus !== null || config.bitcart !== null;
  const isSandboxAllowed =
    config.paymentsSandbox === 'on' || (config.paymentsSandbox === 'auto' && !hasAnyLive);
  const modeOf = (isConfigured: boolean): ProviderMode =>
    isConfigured ? 'live' : isSandboxAllowed ? 'sandbox' : 'unavailable';
  return { cryptomus: modeOf(config.cryptomus !== null), bitcart: modeOf(config.bitcart !== null) };
}

/**
 * The configured providers: real ones where credentials are set, the built-in sandboxes that this
 * same server mounts under /sandbox (reached over loopback at `selfUrl`) where allowed, else none.
 */
export function createPaymentProviders(config: Config, selfUrl: () => string): PaymentProviders {
  const modes = providerModes(config);
  const cryptomus = config.cryptomus
    ? createCryptomusProvider({
        ...config.cryptomus,
        apiUrl: () => config.cryptomus?.apiUrl ?? '',
        isSandbox: false,
      })
    : modes.cryptomus === 'sandbox'
      ? createCryptomusProvider({
          merchantId: CRYPTOMUS_SANDBOX_MERCHANT,
          apiKey: CRYPTOMUS_SANDBOX_KEY,
          apiUrl: () => `${selfUrl()}/sandbox/cryptomus`,
          isSandbox: true,
        })
      : null;
  const bitcart = config.bitcart
    ? createBitcartProvider({
        apiUrl: () => config.bitcart?.apiUrl ?? '',
        adminUrl: () => config.bitcart?.adminUrl ?? '',
        token: config.bitcart.token,
        storeId: config.bitcart.storeId,
        isSandbox: false,
      })
    : modes.bitcart === 'sandbox'
      ? createBitcartProvider({
          apiUrl: () => `${selfUrl()}/sandbox/bitcart/api`,
          // The checkout page and modal script are loaded by the customer's browser: the public URL.
          adminUrl: () => `${config.publicUrl}/sandbox/bitcart/admin`,
          token: BITCART_SANDBOX_TOKEN,
          storeId: BITCART_SANDBOX_STORE,
          isSandbox: true,
        })
      : null;
  return {
    cryptomus,
    bitcart,
    modes,
    cryptomusWebhookKey:
      config.cryptomus?.apiKey ?? (modes.cryptomus === 'sandbox' ? CRYPTOMUS_SANDBOX_KEY : null),
    hasSandbox: modes.cryptomus === 'sandbox' || modes.bitcart === 'sandbox',
  };
}
