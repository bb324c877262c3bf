import type { Config } from '../config.ts';
import { createCryptomusProvider } from './cryptomus/cryptomus-provider.ts';
import type { PaymentProvider } from './provider.ts';
import { CRYPTOMUS_SANDBOX_KEY, CRYPTOMUS_SANDBOX_MERCHANT } from './sandbox/cryptomus-sandbox.ts';

export interface PaymentProviders {
  cryptomus: PaymentProvider;
  /** Key that verifies Cryptomus webhooks (the payment API key, or the sandbox's). */
  cryptomusWebhookKey: string;
  /** True when at least one provider runs its built-in sandbox (the UI shows a test-mode notice). */
  hasSandbox: boolean;
}

/**
 * The configured providers: real ones where credentials are set, else the built-in sandboxes that this
 * same server mounts under /sandbox, reached over loopback at `selfUrl`.
 */
export function createPaymentProviders(config: Config, selfUrl: () => string): PaymentProviders {
  const cryptomus = config.cryptomus
    ? createCryptomusProvider({
        ...config.cryptomus,
        apiUrl: () => config.cryptomus?.apiUrl ?? '',
        isSandbox: false,
      })
    : createCryptomusProvider({
        merchantId: CRYPTOMUS_SANDBOX_MERCHANT,
        apiKey: CRYPTOMUS_SANDBOX_KEY,
        apiUrl: () => `${selfUrl()}/sandbox/cryptomus`,
        isSandbox: true,
      });
  return {
    cryptomus,
    cryptomusWebhookKey: config.cryptomus?.apiKey ?? CRYPTOMUS_SANDBOX_KEY,
    hasSandbox: cryptomus.isSandbox,
  };
}
