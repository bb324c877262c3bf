import type { StatsLive } from '@bytegate/contracts/stats';
import { readLiveViewAccount } from '@bytegate/db/queries';
import type { ServiceContext } from '../context.ts';
import { unavailableLiveSource } from './live-source.ts';

/** How often the live view sends a reading. */
export const LIVE_EVERY_MS = 2000;
/** How often each account's streams are checked against their sessions (a revoked one ends by then). */
export const LIVE_CHECK_EVERY_MS = 1000;
/** Live streams one account may hold open at once, across its sessions and this process. */
export const LIVE_STREAMS_PER_ACCOUNT = 5;

/** One open stream: the session it was opened with, and where its readings go. */
export interface LiveSubscriber {
  sessionId: string;
  send: (live: StatsLive) => void;
  /** Ends the stream: its session is no longer live, or the server is closing. */
  end: () => void;
}

/**
 * The live view of one account, shared by all its open streams: one timer, and per tick ONE database
 * read (which of the streams' sessions are still live, and every other tick the account's plans) and
 * one read of the gateway's counters, however many streams there are. A stream whose session was
 * revoked, expired, or whose account was disabled or deleted is ended at the next check (1 s).
 */
class AccountFeed {
  readonly subscribers = new Set<LiveSubscriber>();
  private timer: NodeJS.Timeout | null = null;
  private ticks = 0;
  private isReading = false;
  latest: StatsLive | null = null;

  constructor(
    private readonly hub: LiveStatsHub,
    private readonly userId: string,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.tick(), LIVE_CHECK_EVERY_MS);
  }

  stop(): void {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private firstRead: Promise<StatsLive> | null = null;

  /** The first reading of a stream: the latest one, or (for the feed's first streams) one read for all. */
  first(): Promise<StatsLive> {
    if (this.latest) {
      return Promise.resolve(this.latest);
    }
    this.firstRead ??= this.hub.read(this.userId, [], true).then(({ live }) => {
      this.latest ??= live;
      return this.latest as StatsLive;
    });
    return this.firstRead;
  }

  private tick(): void {
    if (this.isReading || this.subscribers.size === 0) {
      return;
    }
    this.ticks += 1;
    const withPlans = this.ticks % (LIVE_EVERY_MS / LIVE_CHECK_EVERY_MS) === 0;
    const sessionIds = [...new Set([...this.subscribers].map((one) => one.sessionId))];
    this.isReading = true;
    this.hub
      .read(this.userId, sessionIds, withPlans)
      .then(
        ({ live, liveSessionIds }) => {
          for (const subscriber of this.subscribers) {
            if (!liveSessionIds.has(subscriber.sessionId)) {
              subscriber.end();
            } else if (live) {
              subscriber.send(live);
            }
          }
          if (live) {
            this.latest = live;
          }
        },
        (error: unknown) => this.hub.ctx.log?.warn({ err: error }, 'live statistics could not be read'),
      )
      .finally(() => {
        this.isReading = false;
      });
  }
}

/**
 * The live view's streams in this process, by account: at most LIVE_STREAMS_PER_ACCOUNT each, fed by
 * one AccountFeed per account, started with its first stream and stopped with its last.
 */
export class LiveStatsHub {
  private readonly feeds = new Map<string, AccountFeed>();
  /** Reads made so far (database and gateway counters together), for tests. */
  reads = 0;

  constructor(readonly ctx: ServiceContext) {}

  /** Adds a stream; null when the account already holds the most it may. */
  subscribe(
    userId: string,
    subscriber: LiveSubscriber,
  ): { first: Promise<StatsLive>; leave: () => void } | null {
    let feed = this.feeds.get(userId);
    if (feed && feed.subscribers.size >= LIVE_STREAMS_PER_ACCOUNT) {
      return null;
    }
    if (!feed) {
      feed = new AccountFeed(this, userId);
      this.feeds.set(userId, feed);
      feed.start();
    }
    const joined = feed;
    joined.subscribers.add(subscriber);
    return {
      first: joined.first(),
      leave: () => {
        joined.subscribers.delete(subscriber);
        if (joined.subscribers.size === 0 && this.feeds.get(userId) === joined) {
          joined.stop();
          this.feeds.delete(userId);
        }
      },
    };
  }

  /** Open streams of an account (for tests). */
  streamsOf(userId: string): number {
    return this.feeds.get(userId)?.subscribers.size ?? 0;
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    for (const feed of this.feeds.values()) {
      feed.stop();
      for (const subscriber of feed.subscribers) {
        subscriber.end();
      }
    }
    this.feeds.clear();
  }

  /** One read for an account: its live sessions among `sessionIds`, and with `withPlans` a reading. */
  async read(
    userId: string,
    sessionIds: readonly string[],
    withPlans: boolean,
  ): Promise<{ live: StatsLive | null; liveSessionIds: Set<string> }> {
    this.reads += 1;
    const source = this.ctx.liveStats?.() ?? unavailableLiveSource;
    const [account, counters] = await Promise.all([
      readLiveViewAccount(this.ctx.db, { userId, sessionIds, now: new Date(), withPlans }),
      withPlans ? source.plans() : null,
    ]);
    if (!counters) {
      return { live: null, liveSessionIds: account.liveSessionIds };
    }
    const live: StatsLive = {
      at: new Date().toISOString(),
      scope: source.scope,
      plans: account.plans.flatMap((plan) => {
        const now = counters.get(plan.planId);
        return now
          ? [
              {
                subUserId: plan.planId,
                pool: plan.poolType,
                openConnections: now.openConnections,
                bytesPerSecond: now.bytesPerSecond,
              },
            ]
          : [];
      }),
    };
    return { live, liveSessionIds: account.liveSessionIds };
  }
}
