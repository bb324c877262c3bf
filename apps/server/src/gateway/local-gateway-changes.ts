import type { FastifyInstance } from 'fastify';

/**
 * The gateway in this process, as the API's writes reach it: before a write's answer leaves, every
 * gateway registered here has re-read the database once from a start after the write committed. So a
 * new proxy password, a deleted or disabled proxy user or plan, or an allowlist change is in force on
 * this process's gateway by the time the client reads the answer ("refused at once"). Other gateways of
 * a fleet hear of it through Redis (gateway-changes.ts), and at worst at their next periodic refresh.
 */
export class LocalGatewayChanges {
  private readonly refreshers = new Set<() => Promise<void>>();

  /**
   * Registers a gateway's refresh; answers a function that unregisters it. `refresh` must start a read
   * after it was called (DbGatewayStore.refresh does, even while another read is on its way).
   */
  register(refresh: () => Promise<void>): () => void {
    this.refreshers.add(refresh);
    return () => {
      this.refreshers.delete(refresh);
    };
  }

  /** Whether a gateway runs in this process. */
  get hasGateways(): boolean {
    return this.refreshers.size > 0;
  }

  /** Every registered gateway re-reads the database; a failed read is left to the periodic refresh. */
  async changed(): Promise<void> {
    await Promise.all([...this.refreshers].map((refresh) => refresh().catch(() => undefined)));
  }
}

/** Writes that never change what a gateway caches: sign-in, contact, top-ups and their webhooks. */
export const NOT_FOR_GATEWAYS = /^\/api\/(auth|contact|topup|config)(\/|$|\?)/;

/** Whether a request that was answered `statusCode` may have changed what gateways cache. */
export function isGatewayWrite(method: string, url: string, statusCode: number): boolean {
  return (
    method !== 'GET' &&
    method !== 'HEAD' &&
    method !== 'OPTIONS' &&
    statusCode < 400 &&
    url.startsWith('/api/') &&
    !NOT_FOR_GATEWAYS.test(url)
  );
}

/**
 * Holds every successful API write's answer until the gateway in this process has read what it wrote
 * (onSend runs after the handler's transaction committed, before a byte of the answer is sent).
 */
export function refreshLocalGatewayBeforeAnswering(app: FastifyInstance, changes: LocalGatewayChanges): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (changes.hasGateways && isGatewayWrite(request.method, request.url, reply.statusCode)) {
      await changes.changed();
    }
    return payload;
  });
}
