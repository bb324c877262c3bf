import {
  createProxyUserBodySchema,
  moveTrafficBodySchema,
  proxyUserFieldsSchema,
  proxyUserListSchema,
  proxyUserSchema,
} from '@bytegate/contracts/proxy-users';
import { text } from '@bytegate/contracts/text';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ServiceContext } from '../../../services/context.ts';
import { moveProxyUserTraffic } from '../../../services/proxy-users/move-traffic.ts';
import {
  createProxyUserForPlan,
  deleteOwnProxyUser,
  getProxyUser,
  listProxyUsersOfPlan,
  regenerateProxyUserPassword,
  updateProxyUserFields,
} from '../../../services/proxy-users/proxy-users.ts';
import { errorResponseSchema } from '../errors.ts';
import { getApiKey } from './api-key-auth.ts';
import { idField, V1_ERRORS, V1_SECURITY } from './v1-shapes.ts';

const PAGE_MAX = 100;
const TAGS = ['public API v1'];
const ERRORS = { ...V1_ERRORS, 400: errorResponseSchema, 404: errorResponseSchema };
const FIELDS_HELP =
  'Traffic caps are GB (1024³ bytes) with up to 3 decimals, per `day` or `month` (UTC) or for the `lifetime`; ' +
  'a lifetime cap sets that much of the plan’s traffic aside for the user. `threads` is at most the plan’s. ' +
  '`targeting` takes the Proxy Settings fields (null: the plan’s settings apply); `allowlist` public IP addresses.';
const byId = z.object({ id: idField('Proxy user id') });

/**
 * Proxy users through the public API: under a plan, each with its own login, caps, targeting and
 * allowlist. Reads need `read`; every write needs `proxy_users`.
 */
export const v1ProxyUserRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/plans/:id/proxy-users',
    {
      config: { scope: 'read' },
      schema: {
        tags: TAGS,
        summary: 'A plan’s proxy users, oldest first, a page at a time',
        description: `Scope \`read\`. \`limit\` is at most ${PAGE_MAX}; pass \`next_cursor\` as \`cursor\` for the next page (null: the last one).`,
        security: V1_SECURITY,
        params: z.object({ id: idField('Plan id') }),
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(PAGE_MAX).default(50),
          cursor: text('cursor').max(200).optional(),
        }),
        response: { 200: proxyUserListSchema, ...ERRORS },
      },
    },
    async (request) =>
      listProxyUsersOfPlan(ctx, {
        userId: getApiKey(request).user.id,
        planId: request.params.id,
        cursor: request.query.cursor,
        limit: request.query.limit,
      }),
  );

  app.post(
    '/plans/:id/proxy-users',
    {
      config: { scope: 'proxy_users' },
      schema: {
        tags: TAGS,
        summary: 'Creates a proxy user under a plan, with a generated password',
        description: `Scope \`proxy_users\`. \`login\` (8–32 lowercase letters and digits, not starting with "bg") is generated when absent. ${FIELDS_HELP}`,
        security: V1_SECURITY,
        params: z.object({ id: idField('Plan id') }),
        body: createProxyUserBodySchema,
        response: { 201: z.object({ proxy_user: proxyUserSchema }), 409: errorResponseSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const proxyUser = await createProxyUserForPlan(ctx, {
        userId: getApiKey(request).user.id,
        planId: request.params.id,
        body: request.body,
      });
      return reply.code(201).send({ proxy_user: proxyUser });
    },
  );

  app.get(
    '/proxy-users/:id',
    {
      config: { scope: 'read' },
      schema: {
        tags: TAGS,
        summary: 'One proxy user, with its usage in the cap’s current period',
        description: 'Scope `read`.',
        security: V1_SECURITY,
        params: byId,
        response: { 200: z.object({ proxy_user: proxyUserSchema }), ...ERRORS },
      },
    },
    async (request) => ({
      proxy_user: await getProxyUser(ctx, {
        userId: getApiKey(request).user.id,
        proxyUserId: request.params.id,
      }),
    }),
  );

  app.patch(
    '/proxy-users/:id',
    {
      config: { scope: 'proxy_users' },
      schema: {
        tags: TAGS,
        summary: 'Changes a proxy user: label, enabled, caps, targeting, allowlist',
        description: `Scope \`proxy_users\`. Absent fields stay as they are; null clears a cap, the thread limit or the targeting. Changes reach open connections within 2 s (a disabled user's tunnels close). ${FIELDS_HELP}`,
        security: V1_SECURITY,
        params: byId,
        body: proxyUserFieldsSchema,
        response: { 200: z.object({ proxy_user: proxyUserSchema }), ...ERRORS },
      },
    },
    async (request) => ({
      proxy_user: await updateProxyUserFields(ctx, {
        userId: getApiKey(request).user.id,
        proxyUserId: request.params.id,
        fields: request.body,
      }),
    }),
  );

  app.delete(
    '/proxy-users/:id',
    {
      config: { scope: 'proxy_users' },
      schema: {
        tags: TAGS,
        summary: 'Deletes a proxy user: its login stops working and its open tunnels close within 2 s',
        description: 'Scope `proxy_users`. Its traffic stays counted in the plan’s.',
        security: V1_SECURITY,
        params: byId,
        response: { 204: z.null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      await deleteOwnProxyUser(ctx, { userId: getApiKey(request).user.id, proxyUserId: request.params.id });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/proxy-users/:id/regenerate-password',
    {
      config: { scope: 'proxy_users' },
      schema: {
        tags: TAGS,
        summary: 'A new password for a proxy user: the old one is refused at once',
        description: 'Scope `proxy_users`. Tunnels opened with the old password close within 2 s.',
        security: V1_SECURITY,
        params: byId,
        response: { 200: z.object({ proxy_user: proxyUserSchema }), ...ERRORS },
      },
    },
    async (request) => ({
      proxy_user: await regenerateProxyUserPassword(ctx, {
        userId: getApiKey(request).user.id,
        proxyUserId: request.params.id,
      }),
    }),
  );

  app.post(
    '/proxy-users/:id/traffic',
    {
      config: { scope: 'proxy_users' },
      schema: {
        tags: TAGS,
        summary: 'Moves traffic between a plan and a proxy user with a lifetime cap',
        description:
          'Scope `proxy_users`. `to_proxy_user` raises the lifetime cap by `gb` out of the plan’s traffic not set aside; ' +
          '`to_plan` lowers it by `gb` out of what the user has not used.',
        security: V1_SECURITY,
        params: byId,
        body: moveTrafficBodySchema,
        response: { 200: z.object({ proxy_user: proxyUserSchema }), 409: errorResponseSchema, ...ERRORS },
      },
    },
    async (request) => ({
      proxy_user: await moveProxyUserTraffic(ctx, {
        userId: getApiKey(request).user.id,
        proxyUserId: request.params.id,
        direction: request.body.direction,
        gb: request.body.gb,
      }),
    }),
  );
};
