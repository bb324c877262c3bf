/**
 * Settings that reopen what the defaults close. Each is refused at start-up (a ConfigError naming the
 * settings and the override) unless `I_KNOW_THIS_IS_UNSAFE` lists it; an overridden one is logged as a
 * warning at every start (see cli/start.ts).
 */

/** The names `I_KNOW_THIS_IS_UNSAFE` takes, comma-separated. */
export const UNSAFE_SETTING_NAMES = ['public-metrics', 'sandbox-beside-live', 'private-targets'] as const;
export type UnsafeSettingName = (typeof UNSAFE_SETTING_NAMES)[number];

/** One dangerous combination found in the settings. */
export interface UnsafeSetting {
  name: UnsafeSettingName;
  /** What it opens, naming the settings (the start-up error and the warning). */
  danger: string;
}

/** The settings these rules read, as validated by config.ts. */
export interface UnsafeSettingsInput {
  publicUrl: string;
  metricsPort: number | undefined;
  metricsHost: string;
  hasMetricsToken: boolean;
  paymentsSandbox: 'auto' | 'on' | 'off';
  /** Providers with credentials (they take real money). */
  liveProviders: string[];
  gatewayAllowsPrivateTargets: boolean;
  webhooksAllowPrivateTargets: boolean;
}

/** Whether a host name or address reaches this machine only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(?:\.\d{1,3}){3}$/.test(bare);
}

/** Every dangerous combination in the settings, overridden or not. */
export function findUnsafeSettings(input: UnsafeSettingsInput): UnsafeSetting[] {
  const found: UnsafeSetting[] = [];
  const isPublicSite = input.publicUrl.startsWith('https:');
  if (input.metricsPort !== undefined && !input.hasMetricsToken && !isLoopbackHost(input.metricsHost)) {
    found.push({
      name: 'public-metrics',
      danger: `METRICS_HOST=${input.metricsHost} serves /metrics on METRICS_PORT beyond this machine without METRICS_TOKEN (anyone reaching the port reads the fleet's figures); set METRICS_TOKEN or a loopback METRICS_HOST`,
    });
  }
  if (input.paymentsSandbox === 'on' && input.liveProviders.length > 0 && isPublicSite) {
    found.push({
      name: 'sandbox-beside-live',
      danger: `PAYMENTS_SANDBOX=on beside the live ${input.liveProviders.join(' and ')} on an https PUBLIC_URL lets any customer top up with simulated payments; set PAYMENTS_SANDBOX=auto or off`,
    });
  }
  const privateSettings = [
    input.gatewayAllowsPrivateTargets && 'GATEWAY_ALLOW_PRIVATE_TARGETS',
    input.webhooksAllowPrivateTargets && 'WEBHOOKS_ALLOW_PRIVATE_TARGETS',
  ].filter((name): name is string => typeof name === 'string');
  if (privateSettings.length > 0 && isPublicSite) {
    found.push({
      name: 'private-targets',
      danger: `${privateSettings.join(' and ')} on an https PUBLIC_URL ${privateSettings.length === 1 ? 'lets' : 'let'} customers reach this network's private, loopback and link-local addresses (tests and local development only); leave ${privateSettings.length === 1 ? 'it' : 'them'} unset`,
    });
  }
  return found;
}

/**
 * The overridden dangers (warned about at every start), or throws the refusal naming each dangerous
 * combination that `overrides` does not list.
 */
export function checkUnsafeSettings(
  found: readonly UnsafeSetting[],
  overrides: readonly UnsafeSettingName[],
  refuse: (lines: string[]) => never,
): UnsafeSetting[] {
  const refused = found.filter((unsafe) => !overrides.includes(unsafe.name));
  if (refused.length > 0) {
    refuse(
      refused.map(
        (unsafe) => `  ${unsafe.danger} (to run so knowingly, add ${unsafe.name} to I_KNOW_THIS_IS_UNSAFE)`,
      ),
    );
  }
  return [...found];
}
