import { canonicalIpAddress } from '@bytegate/contracts/allowlist';
import type { ApiKeyScope } from '@bytegate/contracts/api-keys';
import {
  createProxyUserBodySchema,
  moveTrafficBodySchema,
  proxyUserFieldsSchema,
  proxyUserListSchema,
  proxyUserSchema,
} from '@bytegate/contracts/proxy-users';
import { text } from '@bytegate/contracts/text';
import type { FastifyRequest } from 'fastify';
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
import { idField } from '../v1/v1-shapes.ts';

const PAGE_MAX = 100;
const FIELDS_HELP =
  'Traffic caps are GB (1024³ bytes) with up to 3 decimals, per `day` or `month` (UTC) or for the `lifetime`; ' +
  'a lifetime cap sets that much of the plan’s traffic aside for the user. `threads` is at most the plan’s. ' +
  '`targeting` takes the Proxy Settings fields (null: the plan’s settings apply); `allowlist` public IP addresses ' +
  '(or the caller’s own); an address lets traffic in without credentials only once proved, by listing it in a ' +
  'request from that very address (`allowlist_verified`), and not if another account proved it (409).';
const byId = z.object({ id: idField('Proxy user id') });

/** Who the routes serve: the public API (API keys, scopes) or the dashboard (a signed-in session). */
export interface ProxyUserAudience {
  /** The account asking. */
  userIdOf(request: FastifyRequest): string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  errors: Record<number, typeof errorResponseSchema>;
  /** The public API checks each route's scope (reads `read`, writes `proxy_users`); a session may do all. */
  hasScopes: boolean;
}

/**
 * Proxy users: under a plan, each with its own login, caps, targeting and allowlist. The same routes
 * serve the public API (under /api/v1) and the dashboard's Proxy users tab (under /api).
 */
export const proxyUserRoutes: FastifyPluginAsyncZod<{
  ctx: ServiceContext;
  audience: ProxyUserAudience;
}> = async (app, { ctx, audience }) => {
  const TAGS = audience.tags;
  const ERRORS = { ...audience.errors, 400: errorResponseSchema, 404: errorResponseSchema };
  const needs = (scope: 'read' | 'proxy_users'): { scope?: ApiKeyScope } =>
    audience.hasScopes ? { scope } : {};
  const scopeNote = (scope: string, rest: string) =>
    audience.hasScopes ? `Scope \`${scope}\`. ${rest}` : rest;

  app.get(
    '/plans/:id/proxy-users',
    {
      config: needs('read'),
      schema: {
        tags: TAGS,
        summary: 'A plan’s proxy users, oldest first, a page at a time',
        description: scopeNote(
          'read',
          `\`limit\` is at most ${PAGE_MAX}; pass \`next_cursor\` as \`cursor\` for the next page (null: the last one).`,
        ),
        security: audience.security,
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
        userId: audience.userIdOf(request),
        planId: request.params.id,
        cursor: request.query.cursor,
        limit: request.query.limit,
      }),
  );

  app.post(
    '/plans/:id/proxy-users',
    {
      config: needs('proxy_users'),
      schema: {
        tags: TAGS,
        summary: 'Creates a proxy user under a plan, with a generated password',
        description: scopeNote(
          'proxy_users',
          `\`login\` (8–32 lowercase letters and digits, not starting with "bg") is generated when absent. ${FIELDS_HELP}`,
        ),
        security: audience.security,
        params: z.object({ id: idField('Plan id') }),
        body: createProxyUserBodySchema.meta({
          examples: [{ label: 'customer 42', traffic_cap_gb: 2.5, cap_period: 'month', threads: 50 }],
        }),
        response: { 201: z.object({ proxy_user: proxyUserSchema }), 409: errorResponseSchema, ...ERRORS },
      },
    },
    async (request, reply) => {
      const proxyUser = await createProxyUserForPlan(ctx, {
        userId: audience.userIdOf(request),
        planId: request.params.id,
        body: request.body,
        callerAddress: canonicalIpAddress(request.ip),
      });
      return reply.code(201).send({ proxy_user: proxyUser });
    },
  );

  app.get(
    '/proxy-users/:id',
    {
      config: needs('read'),
      schema: {
        tags: TAGS,
        summary: 'One proxy user, with its usage in the cap’s current period',
        description: scopeNote('read', 'Its usage is as of now.'),
        security: audience.security,
        params: byId,
        response: { 200: z.object({ proxy_user: proxyUserSchema }), ...ERRORS },
      },
    },
    async (request) => ({
      proxy_user: await getProxyUser(ctx, {
        userId: audience.userIdOf(request),
        proxyUserId: request.params.id,
      }),
    }),
  );

  app.patch(
    '/proxy-users/:id',
    {
      config: needs('proxy_users'),
      schema: {
        tags: TAGS,
        summary: 'Changes a proxy user: label, enabled, caps, targeting, allowlist',
        description: scopeNote(
          'proxy_users',
          `Absent fields stay as they are; null clears a cap, the thread limit or the targeting. Changes reach open connections within 2 s (a disabled user's tunnels close). ${FIELDS_HELP}`,
        ),
        security: audience.security,
        params: byId,
        body: proxyUserFieldsSchema.meta({
          examples: [{ enabled: false }, { traffic_cap_gb: 5, cap_period: 'day' }],
        }),
        response: { 200: z.object({ proxy_user: proxyUserSchema }), 409: errorResponseSchema, ...ERRORS },
      },
    },
    async (request) => ({
      proxy_user: await updateProxyUserFields(ctx, {
        userId: audience.userIdOf(request),
        proxyUserId: request.params.id,
        fields: request.body,
        callerAddress: canonicalIpAddress(request.ip),
      }),
    }),
  );

  app.delete(
    '/proxy-users/:id',
    {
      config: needs('proxy_users'),
      schema: {
        tags: TAGS,
        summary: 'Deletes a proxy user: its login stops working and its open tunnels close within 2 s',
        description: scopeNote('proxy_users', 'Its traffic stays counted in the plan’s.'),
        security: audience.security,
        params: byId,
        response: { 204: z.null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      await deleteOwnProxyUser(ctx, { userId: audience.userIdOf(request), proxyUserId: request.params.id });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/proxy-users/:id/regenerate-password',
    {
      config: needs('proxy_users'),
      schema: {
        tags: TAGS,
        summary: 'A new password for a proxy user: the old one is refused at once',
        description: scopeNote('proxy_users', 'Tunnels opened with the old password close within 2 s.'),
        security: audience.security,
        params: byId,
        response: { 200: z.object({ proxy_user: proxyUserSchema }), ...ERRORS },
      },
    },
    async (request) => ({
      proxy_user: await regenerateProxyUserPassword(ctx, {
        userId: audience.userIdOf(request),
        proxyUserId: request.params.id,
      }),
    }),
  );

  app.post(
    '/proxy-users/:id/traffic',
    {
      config: needs('proxy_users'),
      schema: {
        tags: TAGS,
        summary: 'Moves traffic between a plan and a proxy user with a lifetime cap',
        description: scopeNote(
          'proxy_users',
          '`to_proxy_user` raises the lifetime cap by `gb` out of the plan’s traffic not set aside; ' +
            '`to_plan` lowers it by `gb` out of what the user has not used.',
        ),
        security: audience.security,
        params: byId,
        body: moveTrafficBodySchema.meta({ examples: [{ direction: 'to_proxy_user', gb: 1.5 }] }),
        response: { 200: z.object({ proxy_user: proxyUserSchema }), 409: errorResponseSchema, ...ERRORS },
      },
    },
    async (request) => ({
      proxy_user: await moveProxyUserTraffic(ctx, {
        userId: audience.userIdOf(request),
        proxyUserId: request.params.id,
        direction: request.body.direction,
        gb: request.body.gb,
      }),
    }),
  );
};
