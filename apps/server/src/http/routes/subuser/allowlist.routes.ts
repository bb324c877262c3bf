import {
  addAllowlistRequestSchema,
  allowlistEntrySchema,
  allowlistMessages,
  allowlistResponseSchema,
  canonicalIpAddress,
  isPublicAddress,
  MAX_ALLOWLIST_ADDRESSES,
  removeAllowlistQuerySchema,
} from '@bytegate/contracts/allowlist';
import { okResponseSchema } from '@bytegate/contracts/auth';
import { planIdSchema } from '@bytegate/contracts/billing';
import { POOL_NAMES } from '@bytegate/contracts/constants';
import type { Executor } from '@bytegate/db';
import {
  addPlanAllowlistAddress,
  countPlanAllowlist,
  findUserAllowlistEntry,
  getPlanById,
  listPlanAllowlist,
  lockPlanForPool,
  lockUserBalance,
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
        querystring: z.object({ subuser_id: planIdSchema }),
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
      // The address the request came from may be anything the server sees (a private network, or
      // loopback in development): it is provably the customer's. Any other must be a public address.
      const isCallersOwn = address === canonicalIpAddress(request.ip);
      if (!isCallersOwn && !isPublicAddress(address)) {
        throw new AppError('VALIDATION_FAILED', allowlistMessages.notPublic, { field: 'address' });
      }
      const added = await ctx.db.transaction(async (tx) => {
        const plan = await ownPlan(userId, planId, tx);
        // The user row lock serialises adds across the customer's plans (one address, one of their
        // plans); the plan row lock keeps the limit under concurrent requests.
        await lockUserBalance(tx, { userId });
        await lockPlanForPool(tx, { userId, poolType: plan.poolType });
        const listed = await findUserAllowlistEntry(tx, { userId, address });
        if (listed) {
          throw new AppError(
            'ALLOWLIST_ADDRESS_TAKEN',
            allowlistMessages.onOtherPlan(POOL_NAMES[listed.poolType]),
          );
        }
        if ((await countPlanAllowlist(tx, { planId: plan.id })) >= MAX_ALLOWLIST_ADDRESSES) {
          throw new AppError('ALLOWLIST_FULL', allowlistMessages.listFull);
        }
        // Another customer may list the same address; that is neither refused nor revealed (see the
        // gateway store's resolveAllowlist for who it then opens).
        const row = await addPlanAllowlistAddress(tx, { planId: plan.id, address, isVerified: isCallersOwn });
        if (!row) {
          throw new AppError(
            'ALLOWLIST_ADDRESS_TAKEN',
            allowlistMessages.onOtherPlan(POOL_NAMES[plan.poolType]),
          );
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
