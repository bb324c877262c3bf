import {
  addAllowlistRequestSchema,
  allowlistEntrySchema,
  allowlistMessages,
  allowlistResponseSchema,
  canonicalIpAddress,
  MAX_ALLOWLIST_ADDRESSES,
  removeAllowlistQuerySchema,
} from '@bytegate/contracts/allowlist';
import { okResponseSchema } from '@bytegate/contracts/auth';
import type { Executor } from '@bytegate/db';
import {
  addPlanAllowlistAddress,
  countPlanAllowlist,
  getPlanById,
  listPlanAllowlist,
  lockPlanForPool,
  removePlanAllowlistAddress,
} from '@bytegate/db/queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../../../services/context.ts';
import { AppError } from '../../app-error.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const security = [{ bearer: [] }];

/**
 * A plan's IP allowlist: client addresses that may use the plan without credentials. The gateway
 * reads it within a second of a change.
 */
export const allowlistRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.requireAuth);

  const ownPlan = async (userId: string, planId: string, db: Executor = ctx.db) => {
    const plan = await getPlanById(db, { userId, planId });
    if (!plan) {
      throw new AppError('NOT_FOUND', 'No plan found');
    }
    return plan;
  };
  const present = (row: { address: string; createdAt: Date }) => ({
    address: row.address,
    createdAt: row.createdAt.toISOString(),
  });

  app.get(
    '/subuser/allowlist',
    {
      schema: {
        tags: ['plans'],
        summary: "A plan's allowlisted client addresses",
        security,
        querystring: z.object({ subuser_id: z.string().max(64) }),
        response: { 200: allowlistResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const plan = await ownPlan(getAuth(request).user.id, request.query.subuser_id);
      const rows = await listPlanAllowlist(ctx.db, { planId: plan.id });
      return {
        addresses: rows.map(present),
        max: MAX_ALLOWLIST_ADDRESSES,
        clientAddress: canonicalIpAddress(request.ip),
      };
    },
  );

  app.post(
    '/subuser/allowlist',
    {
      schema: {
        tags: ['plans'],
        summary: "Adds an IPv4 or IPv6 client address to a plan's allowlist",
        security,
        body: addAllowlistRequestSchema,
        response: {
          201: allowlistEntrySchema,
          400: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const userId = getAuth(request).user.id;
      const { subuser_id: planId, address } = request.body;
      const added = await ctx.db.transaction(async (tx) => {
        const plan = await ownPlan(userId, planId, tx);
        // The plan row lock serialises adds to one plan, so the limit holds under concurrent requests.
        await lockPlanForPool(tx, { userId, poolType: plan.poolType });
        if ((await countPlanAllowlist(tx, { planId: plan.id })) >= MAX_ALLOWLIST_ADDRESSES) {
          throw new AppError('ALLOWLIST_FULL', allowlistMessages.listFull);
        }
        const row = await addPlanAllowlistAddress(tx, { planId: plan.id, address });
        if (!row) {
          throw new AppError('ALLOWLIST_ADDRESS_TAKEN', allowlistMessages.addressTaken);
        }
        return row;
      });
      return reply.status(201).send(present(added));
    },
  );

  app.delete(
    '/subuser/allowlist',
    {
      schema: {
        tags: ['plans'],
        summary: "Removes an address from a plan's allowlist",
        security,
        querystring: removeAllowlistQuerySchema,
        response: { 200: okResponseSchema, 400: errorResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const plan = await ownPlan(getAuth(request).user.id, request.query.subuser_id);
      if (!(await removePlanAllowlistAddress(ctx.db, { planId: plan.id, address: request.query.address }))) {
        throw new AppError('NOT_FOUND', allowlistMessages.notListed);
      }
      return { success: true as const };
    },
  );
};
