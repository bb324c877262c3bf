import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * One gateway process as a member of the fleet in Redis: its id, the key that says it is alive (a lease
 * renewed every HEARTBEAT_MS, gone LEASE_MS after the last renewal), and whether Redis answers. Whatever
 * a gateway holds in Redis (thread slots, traffic drawn) is stored under its id, so another gateway that
 * finds the id's lease gone takes it back: a SIGKILLed gateway's slots are free within LEASE_MS.
 *
 * Redis away: every shared part falls back to this process's own limits, says so once in the log and in
 * the metrics, and the next heartbeat that gets through writes this process's whole state again
 * (absolute values, so nothing is counted twice): that is the reconciliation.
 */
export const LEASE_MS = 12_000;
const HEARTBEAT_MS = 4_000;
/** While Redis is away, how often it is tried again. */
const RETRY_MS = 1_000;

export interface FleetLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** A part of this process's state that the heartbeat writes to Redis whole. */
export type StateWriter = (pipeline: ReturnType<Redis['pipeline']>) => void;

export class FleetMember {
  readonly id = randomUUID();
  /** True while Redis does not answer: limits are this process's own. */
  isDegraded = false;
  /** Times a decision fell back to local limits because Redis did not answer (metrics). */
  fallbacks = 0;
  private readonly writers: StateWriter[] = [];
  private readonly rejoinListeners: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;
  private isClosed = false;

  constructor(
    readonly redis: Redis,
    readonly prefix: string,
    private readonly log: FleetLog,
  ) {}

  /** The key whose presence says gateway `id` is alive (the scripts look other members up by it). */
  get alivePrefix(): string {
    return `${this.prefix}gw:`;
  }

  key(name: string): string {
    return `${this.prefix}${name}`;
  }

  /** Registers a part whose state each heartbeat writes whole. */
  addWriter(writer: StateWriter): void {
    this.writers.push(writer);
  }

  /** Registers what to do once Redis answers again after being away (what was not told meanwhile). */
  onRejoin(listener: () => void): void {
    this.rejoinListeners.push(listener);
  }

  /** A Redis call failed: from here limits are local, until a heartbeat gets through. */
  failed(error: unknown): void {
    this.fallbacks += 1;
    if (!this.isDegraded) {
      this.isDegraded = true;
      this.log.warn(
        { err: error },
        'Redis does not answer: the gateway serves with its own thread and traffic limits until it is back',
      );
      this.schedule(RETRY_MS);
    }
  }

  /** Joins the fleet: the lease and this process's state, then a heartbeat that renews both. */
  async start(): Promise<void> {
    await this.beat();
  }

  /** Renews the lease and writes every part's state; answers whether Redis took it. */
  async beat(): Promise<boolean> {
    const pipeline = this.redis.pipeline();
    pipeline.set(`${this.alivePrefix}${this.id}`, '1', 'PX', LEASE_MS);
    for (const write of this.writers) {
      write(pipeline);
    }
    let isWritten = false;
    try {
      const results = (await pipeline.exec()) ?? [];
      const error = results.find(([failure]) => failure)?.[0];
      if (error) {
        throw error;
      }
      isWritten = true;
    } catch (error) {
      this.failed(error);
    }
    if (isWritten && this.isDegraded) {
      this.isDegraded = false;
      this.log.info({}, 'Redis answers again: the gateway state is written back and shared limits apply');
      for (const listener of this.rejoinListeners) {
        listener();
      }
    }
    this.schedule(this.isDegraded ? RETRY_MS : HEARTBEAT_MS);
    return isWritten;
  }

  private schedule(ms: number): void {
    if (this.isClosed) {
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.beat(), ms);
    this.timer.unref();
  }

  /** Leaves the fleet: the lease goes at once, so what this process held is free for the others. */
  async leave(): Promise<void> {
    this.isClosed = true;
    clearTimeout(this.timer);
    await this.redis.del(`${this.alivePrefix}${this.id}`).catch(() => undefined);
  }
}
