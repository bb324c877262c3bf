import {
  statsCredentialsResponseSchema,
  statsErrorsResponseSchema,
  statsHostsQuerySchema,
  statsHostsResponseSchema,
  statsQuerySchema,
  statsSeriesResponseSchema,
} from '@bytegate/contracts/stats';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../../../services/context.ts';
import { getStatsErrors, getStatsHostsPage, getStatsSeries } from '../../../services/stats/get-stats.ts';
import { streamLiveStats } from '../../../services/stats/live-stats.ts';
import { LiveStatsHub } from '../../../services/stats/live-stats-hub.ts';
import { errorsCsv, hostsCsv, seriesCsv } from '../../../services/stats/stats-csv.ts';
import { listStatsCredentials, resolveStatsScope } from '../../../services/stats/stats-scope.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const security = [{ bearer: [] }];
const formatField = z.enum(['json', 'csv'], { error: 'format must be json or csv.' }).default('json');
/** Every host of a range in one CSV, up to this many (the biggest first). */
export const HOSTS_CSV_LIMIT = 10_000;

const responses = (ok: z.ZodType) => ({
  200: ok,
  400: errorResponseSchema,
  401: errorResponseSchema,
  404: errorResponseSchema,
});

/** Sends a CSV export as a download named after the view and its range. */
export function sendCsv(reply: FastifyReply, name: string, range: { from: Date; to: Date }, body: string) {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header(
      'content-disposition',
      `attachment; filename="bytegate-${name}-${day(range.from)}-${day(range.to)}.csv"`,
    )
    .send(body);
}

/**
 * Statistics (issue 19) for the signed-in customer: a series by hour or day with its totals, errors by
 * code, target hosts, and the credentials to narrow a view to; each as JSON or (`format=csv`) a CSV
 * download; and the live view as Server-Sent Events.
 */
export const statsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.requireAuth);
  const liveHub = new LiveStatsHub(ctx);
  app.addHook('onClose', async () => liveHub.close());
  const userIdOf = (request: Parameters<typeof getAuth>[0]) => getAuth(request).user.id;

  app.get(
    '/stats/credentials',
    {
      schema: {
        tags: ['statistics'],
        summary: "The credentials a view can be narrowed to: each plan's own login and its proxy users",
        security,
        response: { 200: statsCredentialsResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request) => ({ credentials: await listStatsCredentials(ctx.db, { userId: userIdOf(request) }) }),
  );

  app.get(
    '/stats/series',
    {
      schema: {
        tags: ['statistics'],
        summary:
          'Traffic carried and billed, requests, succeeded, failed and refused by policy, per hour or UTC day of [from, to), with totals and the success rate',
        security,
        querystring: statsQuerySchema.extend({ format: formatField }),
        response: responses(statsSeriesResponseSchema),
      },
    },
    async (request, reply) => {
      const scope = await resolveStatsScope(ctx.db, { userId: userIdOf(request), request: request.query });
      const series = await getStatsSeries(ctx.db, scope);
      return request.query.format === 'csv' ? sendCsv(reply, 'traffic', scope, seriesCsv(series)) : series;
    },
  );

  app.get(
    '/stats/errors',
    {
      schema: {
        tags: ['statistics'],
        summary: 'Refused and failed requests by error code, what each means and what to do, and per point',
        security,
        querystring: statsQuerySchema.extend({ format: formatField }),
        response: responses(statsErrorsResponseSchema),
      },
    },
    async (request, reply) => {
      const scope = await resolveStatsScope(ctx.db, { userId: userIdOf(request), request: request.query });
      const errors = await getStatsErrors(ctx.db, scope);
      return request.query.format === 'csv' ? sendCsv(reply, 'errors', scope, errorsCsv(errors)) : errors;
    },
  );

  app.get(
    '/stats/hosts',
    {
      schema: {
        tags: ['statistics'],
        summary:
          'Target hosts of the range (UTC days), most bytes first, 50 a page (`cursor`), optionally matching `search`; as CSV, every host up to 10,000',
        security,
        querystring: statsHostsQuerySchema.extend({ format: formatField }),
        response: responses(statsHostsResponseSchema),
      },
    },
    async (request, reply) => {
      const { search, cursor, format, ...view } = request.query;
      const scope = await resolveStatsScope(ctx.db, {
        userId: userIdOf(request),
        request: { ...view, resolution: 'day' },
      });
      if (format === 'csv') {
        const all = await getStatsHostsPage(ctx.db, scope, { search, limit: HOSTS_CSV_LIMIT });
        return sendCsv(reply, 'hosts', scope, hostsCsv(all.hosts));
      }
      return getStatsHostsPage(ctx.db, scope, { search, cursor });
    },
  );

  app.get(
    '/stats/live',
    {
      schema: {
        tags: ['statistics'],
        summary:
          'Live: open connections and throughput per plan, as Server-Sent Events (`event: live`, a JSON `StatsLive`) every 2 s; at most 5 streams per account (429 past them), each ended within a second or two of its session being revoked',
        security,
        produces: ['text/event-stream'],
        response: { 401: errorResponseSchema, 429: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const { user, session } = getAuth(request);
      await streamLiveStats(liveHub, { userId: user.id, sessionId: session.id, request, reply });
    },
  );
};
