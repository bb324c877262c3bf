import {
  geoOptionsRequestSchema,
  geoOptionsResponseSchema,
  proxySettingsQuerySchema,
  proxySettingsSchema,
  saveProxySettingsRequestSchema,
} from '@bytegate/contracts/proxy-settings';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ServiceContext } from '../../../services/context.ts';
import {
  asnOptions,
  countryOptions,
  geoFilter,
  stateOptions,
  zipcodeOptions,
} from '../../../services/proxy-settings/geo-options.ts';
import { getProxySettingsForPool } from '../../../services/proxy-settings/get-proxy-settings.ts';
import { saveProxySettingsForPool } from '../../../services/proxy-settings/save-proxy-settings.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const security = [{ bearer: [] }];

/**
 * A plan's saved targeting (Proxy Settings) and the option lists its form offers, computed from the live
 * exit inventory of the pool. The gateway applies a save within a second (it follows the plan's
 * `updated_at`).
 */
export const proxySettingsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.requireAuth);

  app.get(
    '/proxy-settings',
    {
      schema: {
        tags: ['proxy settings'],
        summary: "The saved targeting of the user's plan in a pool; 404 means the defaults apply",
        security,
        querystring: proxySettingsQuerySchema,
        response: { 200: proxySettingsSchema, 404: errorResponseSchema },
      },
    },
    async (request) =>
      getProxySettingsForPool(ctx, {
        userId: getAuth(request).user.id,
        poolType: request.query.pool_type,
      }),
  );

  app.put(
    '/proxy-settings',
    {
      schema: {
        tags: ['proxy settings'],
        summary: "Saves the targeting of the user's plan in a pool (SPEC section 5 rules)",
        security,
        body: saveProxySettingsRequestSchema,
        response: { 200: proxySettingsSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const { pool_type: poolType, ...input } = request.body;
      return saveProxySettingsForPool(ctx, { userId: getAuth(request).user.id, poolType, input });
    },
  );

  const lists = {
    countries: countryOptions,
    states: stateOptions,
    asns: asnOptions,
    zipcodes: zipcodeOptions,
  } as const;
  for (const [list, load] of Object.entries(lists)) {
    app.post(
      `/proxy-settings/${list}`,
      {
        schema: {
          tags: ['proxy settings'],
          summary: `The ${list} the pool's exits offer, narrowed by the other fields given`,
          security,
          body: geoOptionsRequestSchema,
          response: { 200: geoOptionsResponseSchema },
        },
      },
      async (request) => load(ctx.db, geoFilter(request.body.pool_type, request.body)),
    );
  }
};
