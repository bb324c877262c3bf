import {
  addSourceRequestSchema,
  changeSourceRequestSchema,
  sourceDaysResponseSchema,
  sourceParamsSchema,
  sourceResponseSchema,
  supplyQuerySchema,
  supplyResponseSchema,
} from '@bytegate/contracts/admin-supply';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { staffActorOf } from '../../../services/back-office/staff-actor.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { checkMayChangeInventory } from '../../../services/inventory/inventory-access.ts';
import { addSource, changeSource } from '../../../services/supply/sources.ts';
import {
  listSourceDays,
  listSupply,
  presentSourceOf,
  supplyCsv,
} from '../../../services/supply/supply-report.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';
import { sendCsv } from '../stats/stats.routes.ts';

const refusals = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};
/** A source's name is taken, or its pool's own exits are a source already. */
const CONFLICT = { 409: errorResponseSchema };
const security = [{ bearer: [] }];
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The sources of supply in the console (the Supply page): what each carried, earned and cost over the
 * last 7 or 30 UTC days, day by day, as a CSV, and an admin's additions and changes (weight, state, cost,
 * clearing the alarm), audited by `addSource` and `changeSource` as `bytegate sources add` and `set` are.
 * Support reads; a network's password never leaves the server (every answer goes through `presentSource`).
 */
export const sourcesRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  const actorOf = (request: Parameters<typeof getAuth>[0]) => staffActorOf(getAuth(request).user);

  app.get(
    '/sources',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Every source with what it carried, earned, cost and its dials over the last 7 or 30 UTC days',
        security,
        querystring: supplyQuerySchema,
        response: { 200: supplyResponseSchema, ...refusals },
      },
    },
    async (request) => listSupply(ctx, { days: request.query.days }),
  );

  app.get(
    '/sources.csv',
    {
      schema: {
        tags: ['admin'],
        summary: 'The same figures as a CSV: one row per UTC day and source, zeros included',
        security,
        querystring: supplyQuerySchema,
        response: { 200: z.string(), ...refusals },
      },
    },
    async (request, reply) => {
      const { window, csv } = await supplyCsv(ctx, { days: request.query.days });
      return sendCsv(reply, 'supply', { from: window.from, to: new Date(window.to.getTime() - DAY_MS) }, csv);
    },
  );

  app.get(
    '/sources/:sourceId/days',
    {
      schema: {
        tags: ['admin'],
        summary: "One source's figures for each UTC day of the last 7 or 30, oldest first",
        security,
        params: sourceParamsSchema,
        querystring: supplyQuerySchema,
        response: { 200: sourceDaysResponseSchema, ...refusals },
      },
    },
    async (request) => listSourceDays(ctx, { sourceId: request.params.sourceId, days: request.query.days }),
  );

  app.post(
    '/sources',
    {
      // Refused before the body is read (the use case checks it too).
      onRequest: async (request) => checkMayChangeInventory(actorOf(request), 'sources'),
      schema: {
        tags: ['admin'],
        summary:
          'Add a source (admins): a wholesale network, or a pool’s own exits, as `bytegate sources add` does; audited',
        security,
        body: addSourceRequestSchema,
        response: { 201: sourceResponseSchema, ...refusals, ...CONFLICT },
      },
    },
    async (request, reply) => {
      const { reason, ...input } = request.body;
      const row = await addSource(ctx, { input, reason, actor: actorOf(request) });
      reply.code(201);
      return { source: await presentSourceOf(ctx, row) };
    },
  );

  app.patch(
    '/sources/:sourceId',
    {
      // Refused before the body is read (the use case checks it too).
      onRequest: async (request) => checkMayChangeInventory(actorOf(request), 'sources'),
      schema: {
        tags: ['admin'],
        summary:
          "Change a source's weight, state or cost per GB, or clear its alarm (admins), with a reason; audited",
        security,
        params: sourceParamsSchema,
        body: changeSourceRequestSchema,
        response: { 200: sourceResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const { reason, ...settings } = request.body;
      const row = await changeSource(ctx, {
        source: { id: request.params.sourceId },
        settings,
        reason,
        actor: actorOf(request),
      });
      return { source: await presentSourceOf(ctx, row) };
    },
  );
};
