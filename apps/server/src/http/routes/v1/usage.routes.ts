import { text } from '@bytegate/contracts/text';
import { listActivePlans, usageByErrorCode, usageByHost, usageSeries } from '@bytegate/db/queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../../../services/context.ts';
import { DomainError } from '../../../services/domain-error.ts';
import { errorResponseSchema } from '../errors.ts';
import { getApiKey } from './api-key-auth.ts';
import { idField, knownId, V1_ERRORS, V1_SECURITY } from './v1-shapes.ts';

const DAY_MS = 86_400_000;
/** The longest period each grouping answers: every answer is bounded. */
const MAX_PERIOD_DAYS = { hour: 7, day: 90, host: 90, error: 90 } as const;
const HOSTS_PAGE_MAX = 1000;

/** An ISO 8601 date-time with its offset; text first, so a NUL gets the control-character answer. */
const dateTimeField = (label: string, message: string) =>
  text(label).refine((value) => z.iso.datetime({ offset: true }).safeParse(value).success, message);

const usageQuerySchema = z.object({
  group_by: z.enum(['hour', 'day', 'host', 'error'], { error: 'group_by must be hour, day, host or error.' }),
  from: dateTimeField('from', 'from must be an ISO 8601 date-time, such as 2026-11-01T00:00:00Z.'),
  to: dateTimeField('to', 'to must be an ISO 8601 date-time, such as 2026-11-08T00:00:00Z.').optional(),
  plan_id: idField('plan_id').optional(),
  limit: z.coerce.number().int().min(1).max(HOSTS_PAGE_MAX).default(100),
  cursor: text('cursor').max(600).optional(),
});

const seriesPoint = z.object({
  start: z.string(),
  bytes: z.number().int(),
  extra_bytes: z.number().int(),
  billed_bytes: z.number().int(),
  requests: z.number().int(),
  errors: z.number().int(),
});

/** A page's end, opaque to clients: the last host's bytes and name. */
function encodeCursor(row: { bytes: number; host: string }): string {
  return Buffer.from(JSON.stringify([row.bytes, row.host])).toString('base64url');
}

function decodeCursor(cursor: string): { bytes: number; host: string } {
  try {
    const [bytes, host] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof bytes === 'number' && Number.isSafeInteger(bytes) && typeof host === 'string') {
      return { bytes, host };
    }
  } catch {
    // answered below
  }
  throw new DomainError('VALIDATION_FAILED', 'cursor is not one this API gave out.');
}

/** Usage of a period: a series by hour or day, or totals by target host or by error code. */
export const v1UsageRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/usage',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['public API v1'],
        summary: 'Usage of a period by hour, day, target host or error code',
        description:
          'Scope `read`. `from` and `to` (default now) are ISO 8601; hours and days are UTC. All plans, or one ' +
          '(`plan_id`). Periods: at most 7 days by hour, 90 days otherwise. `billed_bytes` = `bytes` + `extra_bytes` ' +
          '(target filters bill 2x). By host, the biggest first, `limit` a page (at most 1000) and `next_cursor` for ' +
          'the next one (null on the last page); hosts are counted per UTC day.',
        security: V1_SECURITY,
        querystring: usageQuerySchema,
        response: {
          200: z.object({
            group_by: z.enum(['hour', 'day', 'host', 'error']),
            from: z.string(),
            to: z.string(),
            series: z.array(seriesPoint).optional(),
            hosts: z.array(z.object({ host: z.string(), bytes: z.number().int() })).optional(),
            errors: z.array(z.object({ code: z.string(), count: z.number().int() })).optional(),
            next_cursor: z.string().nullable().optional(),
          }),
          400: errorResponseSchema,
          404: errorResponseSchema,
          ...V1_ERRORS,
        },
      },
    },
    async (request) => {
      const { user } = getApiKey(request);
      const query = request.query;
      const from = new Date(query.from);
      const to = query.to ? new Date(query.to) : new Date();
      if (to.getTime() <= from.getTime()) {
        throw new DomainError('VALIDATION_FAILED', 'to must be after from.');
      }
      const maxDays = MAX_PERIOD_DAYS[query.group_by];
      if (to.getTime() - from.getTime() > maxDays * DAY_MS) {
        throw new DomainError(
          'VALIDATION_FAILED',
          `The period may be at most ${maxDays} days by ${query.group_by}.`,
        );
      }
      const plans = await listActivePlans(ctx.db, { userId: user.id });
      const planIds = query.plan_id
        ? plans
            .filter((plan) => plan.id === knownId(query.plan_id as string, 'No such plan'))
            .map((plan) => plan.id)
        : plans.map((plan) => plan.id);
      if (query.plan_id && planIds.length === 0) {
        throw new DomainError('NOT_FOUND', 'No such plan');
      }
      const base = { group_by: query.group_by, from: from.toISOString(), to: to.toISOString() };
      if (planIds.length === 0) {
        return {
          ...base,
          ...(query.group_by === 'host'
            ? { hosts: [], next_cursor: null }
            : query.group_by === 'error'
              ? { errors: [] }
              : { series: [] }),
        };
      }
      const period = { planIds, from, to };
      if (query.group_by === 'host') {
        const rows = await usageByHost(ctx.db, {
          ...period,
          limit: query.limit + 1,
          after: query.cursor ? decodeCursor(query.cursor) : undefined,
        });
        const page = rows.slice(0, query.limit);
        const last = page.at(-1);
        return {
          ...base,
          hosts: page,
          next_cursor: rows.length > query.limit && last ? encodeCursor(last) : null,
        };
      }
      if (query.group_by === 'error') {
        return { ...base, errors: await usageByErrorCode(ctx.db, period) };
      }
      const series = await usageSeries(ctx.db, { ...period, unit: query.group_by });
      return {
        ...base,
        series: series.map((point) => ({
          start: new Date(point.start).toISOString(),
          bytes: point.bytes,
          extra_bytes: point.extraBytes,
          billed_bytes: point.bytes + point.extraBytes,
          requests: point.requests,
          errors: point.errors,
        })),
      };
    },
  );
};
