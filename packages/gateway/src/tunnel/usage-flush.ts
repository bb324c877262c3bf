import { randomUUID } from 'node:crypto';
import type { GatewayStore, UsageFlush } from '../store.ts';
import type { UsageMeter } from './usage-meter.ts';

/** Where the engine reports what it cannot do itself (pino's and Fastify's loggers fit). */
export interface GatewayLog {
  warn(details: { err: unknown }, message: string): void;
  error(details: { err: unknown }, message: string): void;
  /** Each refused or cut request, with why (the server's logger at debug). */
  debug?(details: Record<string, unknown>, message: string): void;
}

/**
 * Moves metered usage from the meter to the store, one drain at a time, so that nothing is lost and
 * nothing is billed twice. A failed flush puts its usage back into the meter (where it still counts
 * against each plan's traffic); because a failure can hide a flush that was stored but whose answer was
 * lost, the next flush first asks the store whether that one was stored after all (by its id) and, if
 * so, takes its usage back out. While the store cannot tell, usage keeps piling up in the meter.
 */
export class UsageFlusher {
  private isFlushing = false;
  /** The flush under way, for the last one to wait for. */
  private current: Promise<void> = Promise.resolve();
  /** The last flush that failed: its usage is back in the meter, its fate in the store unknown. */
  private unsettled: UsageFlush | null = null;

  constructor(
    private readonly meter: UsageMeter,
    private readonly store: Pick<GatewayStore, 'flushUsage' | 'wasUsageFlushed' | 'noteUsageStored'>,
    private readonly log: GatewayLog,
  ) {}

  /** One flush; a flush still under way makes this one a no-op. Never rejects. */
  flush(): Promise<void> {
    if (this.isFlushing) {
      return Promise.resolve();
    }
    this.isFlushing = true;
    this.current = this.flushOnce();
    return this.current;
  }

  /**
   * The last flush before the process stops: after the one under way (which would make a plain flush
   * a no-op, leaving the last bytes unstored). Answers whether everything metered is stored.
   */
  async flushLast(): Promise<boolean> {
    await this.current;
    await this.flush();
    return this.unsettled === null;
  }

  private async flushOnce(): Promise<void> {
    try {
      if (this.unsettled) {
        const { flushId, usage } = this.unsettled;
        if (await this.store.wasUsageFlushed(flushId)) {
          this.meter.forget(usage);
          this.store.noteUsageStored(usage);
        }
        this.unsettled = null;
      }
    } catch (error) {
      this.isFlushing = false;
      this.log.warn({ err: error }, 'gateway metering waits for the database; usage is kept in memory');
      return;
    }
    const flush: UsageFlush = { flushId: randomUUID(), usage: this.meter.drain() };
    try {
      await this.store.flushUsage(flush);
    } catch (error) {
      this.meter.restore(flush.usage);
      this.unsettled = flush;
      this.log.error({ err: error }, 'gateway metering flush failed; retrying next second');
    } finally {
      this.isFlushing = false;
    }
  }
}
