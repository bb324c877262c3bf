import type { StatsLive } from '@bytegate/contracts/stats';
import { listStatsPlans } from '@bytegate/db/queries';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context.ts';
import { unavailableLiveSource } from './live-source.ts';

/** How often the live view sends, and how long one stream lasts before the browser reconnects. */
export const LIVE_EVERY_MS = 2000;
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
 * The live view as Server-Sent Events: a `live` event at once and every 2 s, until the client goes (or
 * ten minutes pass: EventSource reconnects by itself, and the session is checked again then).
 */
export async function streamLiveStats(
  ctx: ServiceContext,
  params: { userId: string; request: FastifyRequest; reply: FastifyReply },
): Promise<void> {
  const { request, reply } = params;
  const first = await readLiveStats(ctx, params);
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  const send = (live: StatsLive) => raw.write(`event: live\ndata: ${JSON.stringify(live)}\n\n`);
  send(first);
  let isClosed = false;
  const timer = setInterval(() => {
    readLiveStats(ctx, params).then(
      (live) => {
        if (!isClosed) {
          send(live);
        }
      },
      (error: unknown) => ctx.log?.warn({ err: error }, 'live statistics could not be read'),
    );
  }, LIVE_EVERY_MS);
  const end = () => {
    if (!isClosed) {
      isClosed = true;
      clearInterval(timer);
      clearTimeout(limit);
      raw.end();
    }
  };
  const limit = setTimeout(end, STREAM_MAX_MS);
  request.raw.on('close', end);
}
