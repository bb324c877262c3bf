import {
  addExitRequestSchema,
  EXIT_IMPORT_MAX_BYTES,
  exitActionRequestSchema,
  exitParamsSchema,
  exitResponseSchema,
  exitsQuerySchema,
  exitsResponseSchema,
  importExitsRequestSchema,
  importExitsResponseSchema,
  importRefusedSchema,
} from '@bytegate/contracts/admin-exits';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { staffActorOf } from '../../../services/back-office/staff-actor.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { addExit } from '../../../services/inventory/add-exit.ts';
import { importExits } from '../../../services/inventory/import-exits.ts';
import { checkMayChangeInventory } from '../../../services/inventory/inventory-access.ts';
import { listExits } from '../../../services/inventory/list-exits.ts';
import { putExitBackIntoRotation } from '../../../services/inventory/put-exit-back.ts';
import { removeExit } from '../../../services/inventory/remove-exit.ts';
import { setExitActive } from '../../../services/inventory/set-exit-active.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const refusals = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};

/**
 * onRequest, after the admin scope's staff guard has signed the request in: support reads the
 * inventory, only an admin changes it; refused before the body is read (the use cases check it too).
 */
async function adminOnly(request: Parameters<typeof getAuth>[0]): Promise<void> {
  checkMayChangeInventory(staffActorOf(getAuth(request).user));
}

/**
 * The exit inventory in the console: list with health (real traffic over 24 h, the last probe), add,
 * import, disable and enable, remove, and put back into rotation. Each change is audited by its use
 * case, and a running gateway applies it within a second.
 */
export const exitsRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  const actorOf = (request: Parameters<typeof getAuth>[0]) => staffActorOf(getAuth(request).user);

  app.get(
    '/exits',
    {
      schema: {
        tags: ['admin'],
        summary: 'Exits by pool, country, status and name, with their health (24 h of traffic, last probe)',
        security: [{ bearer: [] }],
        querystring: exitsQuerySchema,
        response: { 200: exitsResponseSchema, ...refusals },
      },
    },
    async (request) => listExits(ctx, request.query),
  );

  app.post(
    '/exits',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Add an exit (admins); the gateway routes through it within a second',
        security: [{ bearer: [] }],
        body: addExitRequestSchema,
        response: { 201: exitResponseSchema, ...refusals },
      },
    },
    async (request, reply) => {
      const exit = await addExit(ctx, {
        input: request.body.exit,
        reason: request.body.reason,
        actor: actorOf(request),
      });
      return reply.status(201).send({ exit });
    },
  );

  app.post(
    '/exits/import',
    {
      onRequest: adminOnly,
      // A file's text: more than the API's usual 64 KiB.
      bodyLimit: EXIT_IMPORT_MAX_BYTES * 2,
      schema: {
        tags: ['admin'],
        summary: 'Import exits from CSV or JSON (admins): all or nothing, with every problem by line',
        security: [{ bearer: [] }],
        body: importExitsRequestSchema,
        response: { 201: importExitsResponseSchema, ...refusals, 400: importRefusedSchema },
      },
    },
    async (request, reply) => {
      const answer = await importExits(ctx, { ...request.body, actor: actorOf(request) });
      return reply.status(201).send(answer);
    },
  );

  const actions = [
    ['disable', 'Switch an exit off (admins): the gateway stops using it within a second'],
    ['enable', 'Switch an exit on again (admins)'],
    ['restore', 'Put an exit the health rules took out back into rotation (admins)'],
  ] as const;
  for (const [action, summary] of actions) {
    app.post(
      `/exits/:exitId/${action}`,
      {
        onRequest: adminOnly,
        schema: {
          tags: ['admin'],
          summary,
          security: [{ bearer: [] }],
          params: exitParamsSchema,
          body: exitActionRequestSchema,
          response: { 200: exitResponseSchema, ...refusals },
        },
      },
      async (request) => {
        const props = { exitId: request.params.exitId, reason: request.body.reason, actor: actorOf(request) };
        const exit =
          action === 'restore'
            ? await putExitBackIntoRotation(ctx, props)
            : await setExitActive(ctx, { ...props, isActive: action === 'enable' });
        return { exit };
      },
    );
  }

  app.post(
    '/exits/:exitId/remove',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Remove an exit from the inventory (admins), with its health; the audit log keeps it',
        security: [{ bearer: [] }],
        params: exitParamsSchema,
        body: exitActionRequestSchema,
        response: { 200: z.object({ removed: z.literal(true) }), ...refusals },
      },
    },
    async (request) => {
      await removeExit(ctx, {
        exitId: request.params.exitId,
        reason: request.body.reason,
        actor: actorOf(request),
      });
      return { removed: true as const };
    },
  );
};
