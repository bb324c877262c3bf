import { POOL_TYPES } from '@bytegate/contracts/pools';
import {
  STATS_RESOLUTIONS,
  type StatsTotals,
  statsHostsQuerySchema,
  statsQuerySchema,
} from '@bytegate/contracts/stats';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../../../services/context.ts';
import { getStatsErrors, getStatsHostsPage, getStatsSeries } from '../../../services/stats/get-stats.ts';
import { readLiveStats } from '../../../services/stats/live-stats.ts';
import { errorsCsv, hostsCsv, seriesCsv } from '../../../services/stats/stats-csv.ts';
import { listStatsCredentials, resolveStatsScope } from '../../../services/stats/stats-scope.ts';
import { HOSTS_CSV_LIMIT, sendCsv } from '../stats/stats.routes.ts';
import { getApiKey } from './api-key-auth.ts';
import { V1_ERRORS, V1_SECURITY } from './v1-shapes.ts';

// The Statistics section's data through the public API (issue 19): the same views, queries and CSV files
// as the dashboard's /api/stats, in the public API's snake_case.

const formatField = z.enum(['json', 'csv'], { error: 'format must be json or csv.' }).default('json');
const errors = { 400: V1_ERRORS[401], 404: V1_ERRORS[401], ...V1_ERRORS };

const totalsShape = {
  bytes: z.number().int(),
  billed_bytes: z.number().int(),
  requests: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  refused_by_policy: z.number().int(),
};
const toV1Counts = (row: Omit<StatsTotals, 'successRate'>) => ({
  bytes: row.bytes,
  billed_bytes: row.billedBytes,
  requests: row.requests,
  succeeded: row.succeeded,
  failed: row.failed,
  refused_by_policy: row.refusedByPolicy,
});

const QUERY_HELP =
  '`from` and `to` are ISO 8601, the range [from, to) in whole hours or UTC days; `resolution` hour (at most 90 ' +
  'days, kept 90 days) or day (kept 13 months); `pool` and `credential` (`plan:<plan id>` or `user:<proxy user ' +
  "id>`, from /stats/credentials) narrow it. `format=csv` answers the dashboard's CSV download.";

export const v1StatsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  const userIdOf = (request: Parameters<typeof getApiKey>[0]) => getApiKey(request).user.id;

  app.get(
    '/stats/credentials',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['public API v1'],
        summary: "The credentials a view can be narrowed to: each plan's own login and its proxy users",
        description: 'Scope `read`.',
        security: V1_SECURITY,
        response: {
          200: z.object({
            credentials: z.array(
              z.object({
                id: z.string(),
                label: z.string(),
                login: z.string(),
                pool: z.enum(POOL_TYPES),
                kind: z.enum(['plan', 'proxy_user']),
              }),
            ),
          }),
          ...V1_ERRORS,
        },
      },
    },
    async (request) => ({ credentials: await listStatsCredentials(ctx.db, { userId: userIdOf(request) }) }),
  );

  app.get(
    '/stats/series',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['public API v1'],
        summary:
          'Traffic carried and billed, requests, succeeded, failed and refused by policy, per hour or day',
        description: `Scope \`read\`. ${QUERY_HELP} \`success_rate\` is succeeded / (requests - refused_by_policy) in percent, one decimal; null without requests.`,
        security: V1_SECURITY,
        querystring: statsQuerySchema.extend({ format: formatField }),
        response: {
          200: z.object({
            from: z.string(),
            to: z.string(),
            resolution: z.enum(STATS_RESOLUTIONS),
            totals: z.object({ ...totalsShape, success_rate: z.number().nullable() }),
            points: z.array(z.object({ start: z.string(), ...totalsShape })),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const scope = await resolveStatsScope(ctx.db, { userId: userIdOf(request), request: request.query });
      const series = await getStatsSeries(ctx.db, scope);
      if (request.query.format === 'csv') {
        return sendCsv(reply, 'traffic', scope, seriesCsv(series));
      }
      return {
        from: series.from,
        to: series.to,
        resolution: series.resolution,
        totals: { ...toV1Counts(series.totals), success_rate: series.totals.successRate },
        points: series.points.map((point) => ({ start: point.at, ...toV1Counts(point) })),
      };
    },
  );

  app.get(
    '/stats/errors',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['public API v1'],
        summary: 'Refused and failed requests by error code, what each means and what to do, and per point',
        description: `Scope \`read\`. ${QUERY_HELP}`,
        security: V1_SECURITY,
        querystring: statsQuerySchema.extend({ format: formatField }),
        response: {
          200: z.object({
            errors: z.array(
              z.object({
                code: z.string(),
                count: z.number().int(),
                refused_by_policy: z.boolean(),
                meaning: z.string(),
                what_to_do: z.string(),
              }),
            ),
            points: z.array(z.object({ start: z.string(), counts: z.record(z.string(), z.number().int()) })),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const scope = await resolveStatsScope(ctx.db, { userId: userIdOf(request), request: request.query });
      const found = await getStatsErrors(ctx.db, scope);
      if (request.query.format === 'csv') {
        return sendCsv(reply, 'errors', scope, errorsCsv(found));
      }
      return {
        errors: found.errors.map((row) => ({
          code: row.code,
          count: row.count,
          refused_by_policy: row.isPolicyRefusal,
          meaning: row.meaning,
          what_to_do: row.action,
        })),
        points: found.points.map((point) => ({ start: point.at, counts: point.counts })),
      };
    },
  );

  app.get(
    '/stats/hosts',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['public API v1'],
        summary:
          'Target hosts of the range (UTC days), most bytes first, 50 a page, optionally matching `search`',
        description: `Scope \`read\`. ${QUERY_HELP} Pages follow \`next_cursor\` (null on the last); as CSV, every host up to 10,000.`,
        security: V1_SECURITY,
        querystring: statsHostsQuerySchema.extend({ format: formatField }),
        response: {
          200: z.object({
            hosts: z.array(
              z.object({
                host: z.string(),
                bytes: z.number().int(),
                requests: z.number().int(),
                errors: z.number().int(),
              }),
            ),
            next_cursor: z.string().nullable(),
          }),
          ...errors,
        },
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
      const page = await getStatsHostsPage(ctx.db, scope, { search, cursor });
      return { hosts: page.hosts, next_cursor: page.nextCursor };
    },
  );

  app.get(
    '/stats/live',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['public API v1'],
        summary: 'What is open and moving now: open connections and bytes a second per plan',
        description:
          'Scope `read`. A snapshot (the dashboard streams it every 2 s). `scope` is fleet (every gateway, through ' +
          'Redis), local (the gateway in the API process) or unavailable.',
        security: V1_SECURITY,
        response: {
          200: z.object({
            at: z.string(),
            scope: z.enum(['fleet', 'local', 'unavailable']),
            plans: z.array(
              z.object({
                plan_id: z.string(),
                pool: z.enum(POOL_TYPES),
                open_connections: z.number().int(),
                bytes_per_second: z.number(),
              }),
            ),
          }),
          ...V1_ERRORS,
        },
      },
    },
    async (request) => {
      const live = await readLiveStats(ctx, { userId: userIdOf(request) });
      return {
        at: live.at,
        scope: live.scope,
        plans: live.plans.map((plan) => ({
          plan_id: plan.subUserId,
          pool: plan.pool,
          open_connections: plan.openConnections,
          bytes_per_second: plan.bytesPerSecond,
        })),
      };
    },
  );
};
