import {
  CATALOG_IMPORT_MAX_BYTES,
  catalogImportRefusedSchema,
  catalogResponseSchema,
  importCatalogRequestSchema,
  importCatalogResponseSchema,
} from '@bytegate/contracts/admin-catalog';
import { sourceParamsSchema } from '@bytegate/contracts/admin-supply';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffActorOf } from '../../../services/back-office/staff-actor.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { checkMayChangeInventory } from '../../../services/inventory/inventory-access.ts';
import { getCatalog } from '../../../services/supply/get-catalog.ts';
import { importCatalog } from '../../../services/supply/import-catalog.ts';
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
 * A wholesale network's catalog of places on the Supply page: staff read it country by country; an admin
 * imports the vendor's list (what `bytegate sources catalog import` does, audited the same way).
 */
export const catalogRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  const actorOf = (request: Parameters<typeof getAuth>[0]) => staffActorOf(getAuth(request).user);

  app.get(
    '/sources/:sourceId/catalog',
    {
      schema: {
        tags: ['admin'],
        summary: "A source's catalog of places, country by country, with what was imported and learned",
        security,
        params: sourceParamsSchema,
        response: { 200: catalogResponseSchema, ...refusals },
      },
    },
    async (request) => getCatalog(ctx, { source: { id: request.params.sourceId } }),
  );

  app.post(
    '/sources/:sourceId/catalog',
    {
      // Refused before the file is read (the use case checks it too).
      onRequest: async (request) => checkMayChangeInventory(actorOf(request), 'sources'),
      // A vendor's file: more than the API's usual 64 KiB (JSON escapes can double it).
      bodyLimit: CATALOG_IMPORT_MAX_BYTES * 2,
      schema: {
        tags: ['admin'],
        summary:
          "Import a network's list of places from CSV or JSON (admins), merged or replacing the last import; all or nothing, audited",
        security,
        params: sourceParamsSchema,
        body: importCatalogRequestSchema,
        response: { 200: importCatalogResponseSchema, ...refusals, 400: catalogImportRefusedSchema },
      },
    },
    async (request) => {
      const { reason, ...file } = request.body;
      return importCatalog(ctx, {
        source: { id: request.params.sourceId },
        ...file,
        reason,
        actor: actorOf(request),
      });
    },
  );
};
