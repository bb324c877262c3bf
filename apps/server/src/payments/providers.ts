import type { Config } from '../config.ts';
import { type BitcartProvider, createBitcartProvider } from './bitcart/bitcart-provider.ts';
import { createCryptomusProvider } from './cryptomus/cryptomus-provider.ts';
import { type PaymentProvider, PROVIDER_NAMES, type ProviderName } from './provider.ts';
import { BITCART_SANDBOX_STORE, BITCART_SANDBOX_TOKEN } from './sandbox/bitcart-sandbox.ts';
import { CRYPTOMUS_SANDBOX_KEY, CRYPTOMUS_SANDBOX_MERCHANT } from './sandbox/cryptomus-sandbox.ts';

export type { ProviderName } from './provider.ts';

/** How a provider runs: its real API, the built-in sandbox, or not at all (its button is disabled). */
export type ProviderMode = 'live' | 'sandbox' | 'unavailable';

/** Each provider's adapter type: Bitcart's also names its checkout modal script. */
export interface ProviderByName {
  cryptomus: PaymentProvider;
  bitcart: BitcartProvider;
}

/**
 * The registry of payment providers this server runs, built once by the composition root and passed
 * to the HTTP app and the jobs.
 */
export interface PaymentProviders {
  modes: Record<ProviderName, ProviderMode>;
  /** True when at least one provider runs its built-in sandbox (the UI shows a test-mode banner). */
  hasSandbox: boolean;
  /** The provider by name; null when it does not run here (no credentials, and no sandbox may stand in). */
  get<Name extends ProviderName>(name: Name): ProviderByName[Name] | null;
  /** The provider of an order's payment method; null for the balance or a provider that does not run. */
  find(paymentMethod: string): PaymentProvider | null;
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
 * How this server reaches its own sandboxes: over loopback on the port it listens on (the sandboxes'
 * API calls never leave the host, whatever PUBLIC_URL says).
 */
export function getLoopbackUrl(config: Pick<Config, 'host' | 'port'>): string {
  const host = ['0.0.0.0', '::', '127.0.0.1', 'localhost'].includes(config.host) ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/**
 * The configured providers: real ones where credentials are set, the built-in sandboxes that this
 * same server mounts under /sandbox/<name> where allowed, else none.
 */
export function createPaymentProviders(config: Config): PaymentProviders {
  const modes = providerModes(config);
  const selfUrl = getLoopbackUrl(config);
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
          apiUrl: () => `${selfUrl}/sandbox/cryptomus`,
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
          apiUrl: () => `${selfUrl}/sandbox/bitcart/api`,
          // The checkout page and modal script are loaded by the customer's browser: the public URL.
          adminUrl: () => `${config.publicUrl}/sandbox/bitcart/admin`,
          token: BITCART_SANDBOX_TOKEN,
          storeId: BITCART_SANDBOX_STORE,
          isSandbox: true,
        })
      : null;
  return createProviderRegistry(modes, { cryptomus, bitcart });
}

/** A registry over adapters already built (tests build one over fakes). */
export function createProviderRegistry(
  modes: Record<ProviderName, ProviderMode>,
  providers: { [Name in ProviderName]: ProviderByName[Name] | null },
): PaymentProviders {
  return {
    modes,
    hasSandbox: PROVIDER_NAMES.some((name) => modes[name] === 'sandbox'),
    get: (name) => providers[name],
    find: (paymentMethod) =>
      (PROVIDER_NAMES as readonly string[]).includes(paymentMethod)
        ? providers[paymentMethod as ProviderName]
        : null,
  };
}
