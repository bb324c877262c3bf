import { POOL_NAMES } from '@bytegate/contracts/constants';
import {
  checkProxySettings,
  geoOptionsRequestSchema,
  geoOptionsResponseSchema,
  type ProxySettingsResponse,
  proxySettingsQuerySchema,
  proxySettingsSchema,
  saveProxySettingsRequestSchema,
} from '@bytegate/contracts/proxy-settings';
import {
  getActivePlanForPool,
  getProxySettings,
  type ProxySettingsRow,
  saveProxySettings,
} from '@bytegate/db/queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ServiceContext } from '../../../services/context.ts';
import {
  asnOptions,
  countryOptions,
  findUnknownTargeting,
  geoFilter,
  stateOptions,
  zipcodeOptions,
} from '../../../services/proxy-settings/geo-options.ts';
import { AppError } from '../../app-error.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const security = [{ bearer: [] }];

function present(poolType: ProxySettingsResponse['pool_type'], row: ProxySettingsRow): ProxySettingsResponse {
  return {
    pool_type: poolType,
    countries: row.countries,
    states: row.states,
    cities: row.cities,
    zipcodes: row.zipcodes,
    asns: row.asns,
    exclude_countries: row.excludeCountries,
    exclude_asn: row.excludeAsns,
    anonymous_filter: row.anonymousFilter,
    rotation_interval: row.rotationMinutes,
    updated_at: row.updatedAt.toISOString(),
  };
}

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
    async (request) => {
      const poolType = request.query.pool_type;
      const plan = await getActivePlanForPool(ctx.db, { userId: getAuth(request).user.id, poolType });
      const row = plan ? await getProxySettings(ctx.db, { planId: plan.id }) : undefined;
      if (!row) {
        throw new AppError('NOT_FOUND', 'No saved settings: the defaults apply');
      }
      return present(poolType, row);
    },
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
      const checked = checkProxySettings(input);
      if (!checked.ok) {
        throw new AppError('VALIDATION_FAILED', checked.message, { field: checked.field });
      }
      const plan = await getActivePlanForPool(ctx.db, { userId: getAuth(request).user.id, poolType });
      if (!plan) {
        throw new AppError('NOT_FOUND', `No active ${POOL_NAMES[poolType]} plan: buy one in Plans first`);
      }
      const { settings } = checked;
      const unknown = await findUnknownTargeting(
        ctx.db,
        poolType,
        settings,
        POOL_NAMES[poolType].toLowerCase(),
      );
      if (unknown) {
        throw new AppError('VALIDATION_FAILED', unknown.message, { field: unknown.field });
      }
      const row = await ctx.db.transaction((tx) =>
        saveProxySettings(tx, {
          planId: plan.id,
          settings: {
            countries: settings.countries,
            states: settings.states,
            cities: settings.cities,
            zipcodes: settings.zipcodes,
            asns: settings.asns,
            excludeCountries: settings.exclude_countries,
            excludeAsns: settings.exclude_asn,
            anonymousFilter: settings.anonymous_filter,
            rotationMinutes: settings.rotation_interval,
          },
        }),
      );
      return present(poolType, row);
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
