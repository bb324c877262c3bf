import {
  addAllowlistRequestSchema,
  allowlistEntrySchema,
  allowlistQuerySchema,
  allowlistResponseSchema,
  canonicalIpAddress,
  removeAllowlistQuerySchema,
} from '@bytegate/contracts/allowlist';
import { okResponseSchema } from '@bytegate/contracts/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addAllowlistAddress } from '../../../services/allowlist/add-allowlist-address.ts';
import { listAllowlist } from '../../../services/allowlist/list-allowlist.ts';
import { presentAllowlist, presentAllowlistEntry } from '../../../services/allowlist/present-allowlist.ts';
import { removeAllowlistAddress } from '../../../services/allowlist/remove-allowlist-address.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const security = [{ bearer: [] }];

/**
 * A plan's IP allowlist: client addresses that may use the plan without credentials. The gateway
 * reads it within a second of a change.
 */
export const allowlistRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', app.requireAuth);

  app.get(
    '/subuser/allowlist',
    {
      schema: {
        tags: ['plans'],
        summary: "A plan's allowlisted client addresses",
        security,
        querystring: allowlistQuerySchema,
        response: { 200: allowlistResponseSchema, 404: errorResponseSchema },
      },
    },
    async (request) => {
      const rows = await listAllowlist(ctx, {
        userId: getAuth(request).user.id,
        planId: request.query.subuser_id,
      });
      return presentAllowlist(rows, canonicalIpAddress(request.ip));
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
      const added = await addAllowlistAddress(ctx, {
        userId: getAuth(request).user.id,
        planId: request.body.subuser_id,
        address: request.body.address,
        callerAddress: canonicalIpAddress(request.ip),
      });
      return reply.status(201).send(presentAllowlistEntry(added));
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
      await removeAllowlistAddress(ctx, {
        userId: getAuth(request).user.id,
        planId: request.query.subuser_id,
        address: request.query.address,
      });
      return { success: true as const };
    },
  );
};
