import {
  adjustBalanceRequestSchema,
  adminUserParamsSchema,
  customerDetailResponseSchema,
  customerSearchQuerySchema,
  customerSearchResponseSchema,
  reasonRequestSchema,
} from '@bytegate/contracts/admin';
import { parseDollarsToCents } from '@bytegate/contracts/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { disableCustomer } from '../../../services/back-office/disable-customer.ts';
import { enableCustomer } from '../../../services/back-office/enable-customer.ts';
import { getCustomerDetail } from '../../../services/back-office/get-customer-detail.ts';
import { resetCustomerTwoFactor } from '../../../services/back-office/reset-two-factor.ts';
import { revokeCustomerSessions } from '../../../services/back-office/revoke-customer-sessions.ts';
import { searchCustomers } from '../../../services/back-office/search-customers.ts';
import { sendPasswordResetAsStaff } from '../../../services/back-office/send-password-reset.ts';
import { staffActorOf } from '../../../services/back-office/staff-actor.ts';
import { adjustBalance } from '../../../services/billing/adjust-balance.ts';
import type { ServiceContext } from '../../../services/context.ts';
import { getAuth } from '../../plugins/auth.ts';
import { errorResponseSchema } from '../errors.ts';

const refusals = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};

/** Customers as staff see them: search, the customer's page, and the actions on it (each audited). */
export const customersRoutes: FastifyPluginAsyncZod<{ ctx: ServiceContext }> = async (app, { ctx }) => {
  app.get(
    '/customers',
    {
      schema: {
        tags: ['admin'],
        summary: 'Search customers by email, name, proxy login, allowlisted IP, order number or invoice id',
        security: [{ bearer: [] }],
        querystring: customerSearchQuerySchema,
        response: {
          200: customerSearchResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
        },
      },
    },
    async (request) => ({ customers: await searchCustomers(ctx, { q: request.query.q }) }),
  );

  app.get(
    '/customers/:userId',
    {
      schema: {
        tags: ['admin'],
        summary: "A customer's page: profile, balance and ledger, plans, orders, sessions and audit entries",
        security: [{ bearer: [] }],
        params: adminUserParamsSchema,
        response: { 200: customerDetailResponseSchema, ...refusals },
      },
    },
    async (request) => getCustomerDetail(ctx, { userId: request.params.userId }),
  );

  app.post(
    '/customers/:userId/balance',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Credit or debit a balance through the ledger (support: at most $100 in 24 hours, with refunds and approvals)',
        security: [{ bearer: [] }],
        params: adminUserParamsSchema,
        body: adjustBalanceRequestSchema,
        response: { 200: customerDetailResponseSchema, ...refusals },
      },
    },
    async (request) => {
      const { userId } = request.params;
      await adjustBalance(ctx, {
        userId,
        // The schema has checked the amount parses to non-zero cents.
        amountCents: parseDollarsToCents(request.body.amount) ?? 0,
        reason: request.body.reason,
        actor: staffActorOf(getAuth(request).user),
      });
      return getCustomerDetail(ctx, { userId });
    },
  );

  // Actions that take only a reason: one route each, the same shape, the customer's page as the answer.
  const reasonActions = [
    {
      path: 'disable',
      summary: 'Disable an account: no sign-in, sessions revoked, proxies stop within 2 s',
      act: disableCustomer,
    },
    { path: 'enable', summary: 'Re-enable a disabled account', act: enableCustomer },
    {
      path: 'sessions/revoke',
      summary: 'Revoke every dashboard session of a customer',
      act: revokeCustomerSessions,
    },
    {
      path: 'two-factor/reset',
      summary: "Turn a customer's two-factor authentication off (a lost phone); signs them out everywhere",
      act: resetCustomerTwoFactor,
    },
    {
      path: 'password-reset',
      summary:
        "Mail a customer a link to set a new password, to the account's address only (a staff account: admins only)",
      act: (
        serviceCtx: ServiceContext,
        props: Parameters<typeof sendPasswordResetAsStaff>[1],
      ): Promise<void> => {
        if (!serviceCtx.mailer) {
          throw new Error('sending a reset link needs a mailer in the context (buildApp makes one)');
        }
        return sendPasswordResetAsStaff({ ...serviceCtx, mailer: serviceCtx.mailer }, props);
      },
    },
  ] as const;
  for (const { path, summary, act } of reasonActions) {
    app.post(
      `/customers/:userId/${path}`,
      {
        schema: {
          tags: ['admin'],
          summary,
          security: [{ bearer: [] }],
          params: adminUserParamsSchema,
          body: reasonRequestSchema,
          response: { 200: customerDetailResponseSchema, ...refusals },
        },
      },
      async (request) => {
        const { userId } = request.params;
        await act(ctx, { userId, reason: request.body.reason, actor: staffActorOf(getAuth(request).user) });
        return getCustomerDetail(ctx, { userId });
      },
    );
  }
};
