import {
  assignContactRequestSchema,
  assigneesResponseSchema,
  contactMessageParamsSchema,
  contactNoteRequestSchema,
  contactReplyRequestSchema,
  contactThreadResponseSchema,
  inboxQuerySchema,
  inboxResponseSchema,
  outboxMessageResponseSchema,
  outboxParamsSchema,
  outboxQuerySchema,
  outboxResponseSchema,
  setContactStatusRequestSchema,
} from '@bytegate/contracts/admin-support';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { staffActorOf } from '../../../services/back-office/staff-actor.ts';
import { addContactNote } from '../../../services/back-office/support/add-contact-note.ts';
import { assignContactMessage } from '../../../services/back-office/support/assign-contact-message.ts';
import { getContactThread } from '../../../services/back-office/support/get-contact-thread.ts';
import { listAssignees } from '../../../services/back-office/support/list-assignees.ts';
import { listInbox } from '../../../services/back-office/support/list-inbox.ts';
import {
  getOutboxMessage,
  listOutboxMessages,
} from '../../../services/back-office/support/outbox-messages.ts';
import { replyToContactMessage } from '../../../services/back-office/support/reply-to-contact-message.ts';
import { setContactStatus } from '../../../services/back-office/support/set-contact-status.ts';
import type { MailContext, ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const refusals = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};

/**
 * The support inbox (contact messages as threads: status, assignee, notes, replies mailed from the
 * console) and the Outbox (what the mailer wrote to DATA_DIR/outbox without SMTP_URL). Every action
 * answers the thread as it now is; each is audited by its use case.
 */
export const supportRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  const { mailer } = ctx;
  if (!mailer) {
    throw new Error('the support inbox needs a mailer in its context (buildApp makes one)');
  }
  const mailCtx: MailContext = { ...ctx, mailer };
  const actorOf = (request: Parameters<typeof getAuth>[0]) => staffActorOf(getAuth(request).user);

  app.get(
    '/inbox',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Contact messages, newest first, by status, assignee and search text, with counts per status',
        security: [{ bearer: [] }],
        querystring: inboxQuerySchema,
        response: { 200: inboxResponseSchema, ...refusals },
      },
    },
    async (request) => listInbox(ctx, { ...request.query, actor: actorOf(request) }),
  );

  app.get(
    '/inbox/assignees',
    {
      schema: {
        tags: ['admin'],
        summary: 'The staff a contact message may be assigned to',
        security: [{ bearer: [] }],
        response: { 200: assigneesResponseSchema, ...refusals },
      },
    },
    async (request) => listAssignees(ctx, { actor: actorOf(request) }),
  );

  app.get(
    '/inbox/:messageId',
    {
      schema: {
        tags: ['admin'],
        summary: 'A contact message with its sender, customer account, notes and replies',
        security: [{ bearer: [] }],
        params: contactMessageParamsSchema,
        response: { 200: contactThreadResponseSchema, ...refusals },
      },
    },
    async (request) => getContactThread(ctx, request.params),
  );

  app.post(
    '/inbox/:messageId/status',
    {
      schema: {
        tags: ['admin'],
        summary: 'Set the status of a contact message: new, open, answered or closed',
        security: [{ bearer: [] }],
        params: contactMessageParamsSchema,
        body: setContactStatusRequestSchema,
        response: { 200: contactThreadResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const { messageId } = request.params;
      await setContactStatus(ctx, { messageId, status: request.body.status, actor: actorOf(request) });
      return getContactThread(ctx, { messageId });
    },
  );

  app.post(
    '/inbox/:messageId/assign',
    {
      schema: {
        tags: ['admin'],
        summary: 'Assign a contact message to a staff member (a new one opens), or to nobody with null',
        security: [{ bearer: [] }],
        params: contactMessageParamsSchema,
        body: assignContactRequestSchema,
        response: { 200: contactThreadResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const { messageId } = request.params;
      await assignContactMessage(ctx, {
        messageId,
        assigneeUserId: request.body.assigneeUserId,
        actor: actorOf(request),
      });
      return getContactThread(ctx, { messageId });
    },
  );

  app.post(
    '/inbox/:messageId/notes',
    {
      schema: {
        tags: ['admin'],
        summary: 'Add an internal note to a contact message (never sent)',
        security: [{ bearer: [] }],
        params: contactMessageParamsSchema,
        body: contactNoteRequestSchema,
        response: { 200: contactThreadResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const { messageId } = request.params;
      await addContactNote(ctx, { messageId, body: request.body.body, actor: actorOf(request) });
      return getContactThread(ctx, { messageId });
    },
  );

  app.post(
    '/inbox/:messageId/replies',
    {
      schema: {
        tags: ['admin'],
        summary: "Mail a reply to the sender (their message quoted); the message becomes 'answered'",
        security: [{ bearer: [] }],
        params: contactMessageParamsSchema,
        body: contactReplyRequestSchema,
        response: { 200: contactThreadResponseSchema, ...refusals, 503: errorResponseSchema },
      },
    },
    async (request) => {
      const { messageId } = request.params;
      await replyToContactMessage(mailCtx, { messageId, body: request.body.body, actor: actorOf(request) });
      return getContactThread(ctx, { messageId });
    },
  );

  app.get(
    '/outbox',
    {
      schema: {
        tags: ['admin'],
        summary: 'Mail written to DATA_DIR/outbox (SMTP_URL unset), newest first, and how mail is sent',
        security: [{ bearer: [] }],
        querystring: outboxQuerySchema,
        response: { 200: outboxResponseSchema, ...refusals },
      },
    },
    async (request) => listOutboxMessages(mailCtx, request.query),
  );

  app.get(
    '/outbox/:outboxId',
    {
      schema: {
        tags: ['admin'],
        summary:
          'One outbox message: headers, plain text and HTML as sent, one-time links redacted; the read is audited',
        security: [{ bearer: [] }],
        params: outboxParamsSchema,
        response: { 200: outboxMessageResponseSchema, ...refusals },
      },
    },
    async (request) => getOutboxMessage(mailCtx, { ...request.params, actor: actorOf(request) }),
  );
};
