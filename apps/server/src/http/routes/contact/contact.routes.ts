import { okResponseSchema } from '@bytegate/contracts/auth';
import { contactRequestSchema } from '@bytegate/contracts/contact';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendContactMessage } from '../../../services/contact/send-contact-message.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getOrigin, signedInUserIdOf } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

export const contactRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  const { contact } = ctx.config.rateLimits;
  app.post(
    '/contact',
    {
      schema: {
        tags: ['support'],
        summary:
          'Send a message to support (no sign-in needed; a signed-in sender is linked to their account)',
        body: contactRequestSchema,
        response: { 201: okResponseSchema, 400: errorResponseSchema, 429: errorResponseSchema },
      },
      onRequest: app.rateLimit({ max: contact.max, timeWindow: contact.windowMs }),
    },
    async (request, reply) => {
      const userId = await signedInUserIdOf(ctx, request);
      await sendContactMessage(ctx, { ...request.body, userId, origin: getOrigin(request) });
      return reply.status(201).send({ success: true as const });
    },
  );
};
