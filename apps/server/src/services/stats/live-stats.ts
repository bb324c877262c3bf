import { type StatsLive, statsMessages } from '@bytegate/contracts/stats';
import { listStatsPlans } from '@bytegate/db/queries';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { DomainError } from '../domain-error.ts';
import { unavailableLiveSource } from './live-source.ts';
import type { LiveStatsHub } from './live-stats-hub.ts';

/** How long one stream lasts before the browser reconnects. */
const STREAM_MAX_MS = 10 * 60 * 1000;

/** One reading of the live view for a customer: their plans with a connection open or bytes moving. */
export async function readLiveStats(ctx: ServiceContext, params: { userId: string }): Promise<StatsLive> {
  const source = ctx.liveStats?.() ?? unavailableLiveSource;
  const [plans, live] = await Promise.all([listStatsPlans(ctx.db, params), source.plans()]);
  return {
    at: new Date().toISOString(),
    scope: source.scope,
    plans: plans.flatMap((plan) => {
      const now = live.get(plan.planId);
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
}

/**
 * The live view as Server-Sent Events: a `live` event at once and every 2 s, until the client goes, the
 * session it was opened with is revoked or expires (checked every second), or ten minutes pass
 * (EventSource reconnects by itself). The account's streams share one read per tick (LiveStatsHub); a
 * stream past the account's LIVE_STREAMS_PER_ACCOUNT is refused with 429 before it starts.
 */
export async function streamLiveStats(
  hub: LiveStatsHub,
  params: { userId: string; sessionId: string; request: FastifyRequest; reply: FastifyReply },
): Promise<void> {
  const { request, reply } = params;
  let isClosed = false;
  let isStarted = false;
  const pending: StatsLive[] = [];
  const raw = reply.raw;
  const send = (live: StatsLive) => {
    if (!isStarted) {
      pending.push(live);
    } else if (!isClosed) {
      raw.write(`event: live\ndata: ${JSON.stringify(live)}\n\n`);
    }
  };
  const end = () => {
    if (!isClosed) {
      isClosed = true;
      clearTimeout(limit);
      subscription?.leave();
      if (isStarted) {
        raw.end();
      }
    }
  };
  const subscription = hub.subscribe(params.userId, { sessionId: params.sessionId, send, end });
  if (!subscription) {
    throw new DomainError('RATE_LIMITED', statsMessages.liveStreamsLimit);
  }
  const limit = setTimeout(end, STREAM_MAX_MS);
  request.raw.on('close', end);
  let first: StatsLive;
  try {
    first = await subscription.first;
  } catch (error) {
    end();
    throw error;
  }
  if (isClosed) {
    return;
  }
  reply.hijack();
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  isStarted = true;
  send(first);
  for (const live of pending.splice(0)) {
    send(live);
  }
}
