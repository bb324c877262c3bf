import type { Config } from '../config.ts';
import { createBitcartProvider } from './bitcart/bitcart-provider.ts';
import { createCryptomusProvider } from './cryptomus/cryptomus-provider.ts';
import type { PaymentProvider } from './provider.ts';
import { BITCART_SANDBOX_STORE, BITCART_SANDBOX_TOKEN } from './sandbox/bitcart-sandbox.ts';
import { CRYPTOMUS_SANDBOX_KEY, CRYPTOMUS_SANDBOX_MERCHANT } from './sandbox/cryptomus-sandbox.ts';

export interface PaymentProviders {
  cryptomus: PaymentProvider;
  bitcart: ReturnType<typeof createBitcartProvider>;
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
  const bitcart = config.bitcart
    ? createBitcartProvider({
        apiUrl: () => config.bitcart?.apiUrl ?? '',
        adminUrl: () => config.bitcart?.adminUrl ?? '',
        token: config.bitcart.token,
        storeId: config.bitcart.storeId,
        isSandbox: false,
      })
    : createBitcartProvider({
        apiUrl: () => `${selfUrl()}/sandbox/bitcart/api`,
        // The checkout page and modal script are loaded by the customer's browser: the public URL.
        adminUrl: () => `${config.publicUrl}/sandbox/bitcart/admin`,
        token: BITCART_SANDBOX_TOKEN,
        storeId: BITCART_SANDBOX_STORE,
        isSandbox: true,
      });
  return {
    cryptomus,
    bitcart,
    cryptomusWebhookKey: config.cryptomus?.apiKey ?? CRYPTOMUS_SANDBOX_KEY,
    hasSandbox: cryptomus.isSandbox || bitcart.isSandbox,
  };
}
