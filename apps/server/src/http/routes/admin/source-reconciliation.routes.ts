import { sourceParamsSchema } from '@bytegate/contracts/admin-supply';
import {
  importVendorUsageRequestSchema,
  importVendorUsageResponseSchema,
  reconciliationQuerySchema,
  reconciliationResponseSchema,
  VENDOR_USAGE_MAX_BYTES,
  vendorUsageRefusedSchema,
} from '@bytegate/contracts/admin-supply-reconciliation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffActorOf } from '../../../services/back-office/staff-actor.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { checkMayChangeInventory } from '../../../services/inventory/inventory-access.ts';
import { getReconciliation, importVendorUsage } from '../../../services/supply/reconcile-source.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const refusals = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};
const security = [{ bearer: [] }];

/**
 * A source's reconciliation on the Supply page: its days against the vendor's usage export (staff
 * read), and the export's import (admins), audited by `importVendorUsage` as `bytegate sources
 * reconcile` is.
 */
export const sourceReconciliationRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (
  app,
  { ctx },
) => {
  const actorOf = (request: Parameters<typeof getAuth>[0]) => staffActorOf(getAuth(request).user);

  app.get(
    '/sources/:sourceId/reconciliation',
    {
      schema: {
        tags: ['admin'],
        summary:
          "One source's last N UTC days (30 by default) against its vendor's imported usage, flagged above the tolerance",
        security,
        params: sourceParamsSchema,
        querystring: reconciliationQuerySchema,
        response: { 200: reconciliationResponseSchema, ...refusals },
      },
    },
    async (request) =>
      getReconciliation(ctx, { source: { id: request.params.sourceId }, days: request.query.days }),
  );

  app.post(
    '/sources/:sourceId/reconciliation',
    {
      // Refused before the body is read (the use case checks it too).
      onRequest: async (request) => checkMayChangeInventory(actorOf(request), 'sources'),
      // A file's text: more than the API's usual 64 KiB.
      bodyLimit: VENDOR_USAGE_MAX_BYTES * 2,
      schema: {
        tags: ['admin'],
        summary:
          "Import a vendor's usage export (CSV, a day a row) for a source (admins), with a reason: all or nothing, every problem by line; a day imported again is replaced; audited",
        security,
        params: sourceParamsSchema,
        body: importVendorUsageRequestSchema,
        response: { 201: importVendorUsageResponseSchema, ...refusals, 400: vendorUsageRefusedSchema },
      },
    },
    async (request, reply) => {
      const answer = await importVendorUsage(ctx, {
        source: { id: request.params.sourceId },
        ...request.body,
        actor: actorOf(request),
      });
      return reply.status(201).send(answer);
    },
  );
};
