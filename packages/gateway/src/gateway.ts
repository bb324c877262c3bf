import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpProxyServer } from './listeners/http-proxy.ts';
import { DEFAULT_OPEN_PORTS } from './policy/target-policy.ts';
import { StickySessions } from './routing/sticky-sessions.ts';
import type { GatewayStore } from './store.ts';
import { ThreadLimits } from './tunnel/thread-limits.ts';
import { UsageMeter } from './tunnel/usage-meter.ts';

/**
 * How often open connections are metered and checked against the plan's traffic. A plan that runs out
 * mid-connection is cut within this interval: its overdraft is at most what its open connections carry
 * in 250 ms, and that overdraft is billed.
 */
export const SAMPLE_EVERY_MS = 250;

export interface GatewaySettings {
  host: string;
  httpPort: number;
  allowPrivateTargets: boolean;
  openPorts?: ReadonlySet<number>;
  /** Sticky window in minutes when the username has no sessttl (default 30, SPEC section 9). */
  defaultSessionTtlMinutes?: number;
}

export interface Gateway {
  meter: UsageMeter;
  threads: ThreadLimits;
  /** Starts the listeners; answers the ports they really got (0 in settings means any free port). */
  listen(): Promise<{ httpPort: number }>;
  close(): Promise<void>;
}

/** The proxy engine: listeners over one store, one meter and one set of thread limits. */
export function createGateway(store: GatewayStore, settings: GatewaySettings): Gateway {
  const meter = new UsageMeter();
  const threads = new ThreadLimits();
  const policy = {
    allowPrivateTargets: settings.allowPrivateTargets,
    openPorts: settings.openPorts ?? DEFAULT_OPEN_PORTS,
  };
  const sessions = new StickySessions();
  const http: Server = createHttpProxyServer({
    store,
    threads,
    meter,
    policy,
    sessions,
    defaultSessionTtlMinutes: settings.defaultSessionTtlMinutes ?? 30,
  });
  // Long tunnels are billed as they go, not only when they close, and are cut when the traffic runs out.
  let sampler: NodeJS.Timeout | undefined;
  return {
    meter,
    threads,
    async listen() {
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(settings.httpPort, settings.host, () => resolve());
      });
      sampler = setInterval(() => {
        meter.sampleOpen();
        meter.enforceTraffic((planId) => store.getPlanById(planId)?.trafficLeftBytes);
      }, SAMPLE_EVERY_MS);
      sampler.unref();
      return { httpPort: (http.address() as AddressInfo).port };
    },
    async close() {
      clearInterval(sampler);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
